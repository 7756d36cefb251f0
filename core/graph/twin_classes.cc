#include "core/graph/twin_classes.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"

namespace dpq::core::graph {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

// A 64-bit mix of one node id (splitmix64's finaliser).
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// N(u) + u == N(v) + v, for u != v: u and v are adjacent and their lists
// agree once each drops the other.
bool ClosedNeighbourhoodsEqual(const Graph& g, NodeId u, NodeId v) {
  const absl::Span<const NodeId> a = g.neighbors(u), b = g.neighbors(v);
  if (a.size() != b.size() || !std::binary_search(a.begin(), a.end(), v)) {
    return false;
  }
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && a[i] == v) {
      ++i;
      continue;
    }
    if (j < b.size() && b[j] == u) {
      ++j;
      continue;
    }
    if (i == a.size() || j == b.size() || a[i] != b[j]) return false;
    ++i;
    ++j;
  }
  return true;
}

// Sets leader[i] (for the positions `candidates` with leader[i] == kUnset)
// to the first position whose list equals i's under `equal`, grouping by
// `hash` first. Hash collisions between different lists are resolved by
// comparing with every leader of the run so far; a run holds one list in
// all but astronomically rare cases.
template <typename Equal>
void GroupByHash(const std::vector<uint64_t>& hash,
                 std::vector<uint32_t> candidates, Equal equal,
                 std::vector<uint32_t>& leader) {
  // Positions sorted by (hash, position): equal lists are in one run, and
  // within a run the first position of each list comes first.
  std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
    return hash[a] != hash[b] ? hash[a] < hash[b] : a < b;
  });
  std::vector<uint32_t> run_leaders;
  for (size_t begin = 0; begin < candidates.size();) {
    size_t end = begin + 1;
    while (end < candidates.size() &&
           hash[candidates[end]] == hash[candidates[begin]]) {
      ++end;
    }
    run_leaders.clear();
    for (size_t r = begin; r < end; ++r) {
      const uint32_t i = candidates[r];
      uint32_t found = i;
      for (uint32_t l : run_leaders) {
        if (equal(l, i)) {
          found = l;
          break;
        }
      }
      if (found == i) run_leaders.push_back(i);
      leader[i] = found;
    }
    begin = end;
  }
}

}  // namespace

TwinClasses TwinClasses::Find(const Graph& g, absl::Span<const NodeId> nodes,
                              Twins twins) {
  const uint32_t k = static_cast<uint32_t>(nodes.size());
  std::vector<uint64_t> hash(k);
  for (uint32_t i = 0; i < k; ++i) {
    hash[i] = absl::HashOf(g.neighbors(nodes[i]));
  }
  std::vector<uint32_t> all(k);
  std::iota(all.begin(), all.end(), 0u);
  // First pass: the class leader of each position (the first position
  // with an equal list).
  std::vector<uint32_t> leader(k, kUnset);
  GroupByHash(
      hash, std::move(all),
      [&](uint32_t a, uint32_t b) {
        return g.neighbors(nodes[a]) == g.neighbors(nodes[b]);
      },
      leader);
  // Positions grouped by closed neighbourhood: their classes are cliques.
  std::vector<bool> regrouped(k, false);
  if (twins == Twins::kFalseAndTrue) {
    // Nodes alone in their false class may have true twins (a node with a
    // false twin has none, see the header). The closed neighbourhood's hash
    // is a sum of mixed ids, so it is the open one's plus the node's own.
    std::vector<uint32_t> alone;
    std::vector<uint32_t> members(k, 0);
    for (uint32_t i = 0; i < k; ++i) ++members[leader[i]];
    for (uint32_t i = 0; i < k; ++i) {
      if (members[leader[i]] != 1 || g.degree(nodes[i]) == 0) continue;
      uint64_t sum = Mix(nodes[i]);
      for (NodeId w : g.neighbors(nodes[i])) sum += Mix(w);
      hash[i] = sum;
      leader[i] = kUnset;
      regrouped[i] = true;
      alone.push_back(i);
    }
    GroupByHash(
        hash, std::move(alone),
        [&](uint32_t a, uint32_t b) {
          return ClosedNeighbourhoodsEqual(g, nodes[a], nodes[b]);
        },
        leader);
  }
  // Second pass, in position order: dense ids numbered by first member.
  TwinClasses classes;
  classes.class_of_.assign(k, kUnset);
  for (uint32_t i = 0; i < k; ++i) {
    if (leader[i] == i) {
      classes.class_of_[i] = static_cast<uint32_t>(classes.members_.size());
      classes.members_.push_back(0);
      classes.clique_.push_back(false);
      classes.representative_.push_back(nodes[i]);
    } else {
      classes.class_of_[i] = classes.class_of_[leader[i]];
    }
    const uint32_t c = classes.class_of_[i];
    ++classes.members_[c];
    // Two members of a class regrouped by closed neighbourhood are
    // adjacent (ClosedNeighbourhoodsEqual checks it).
    if (regrouped[i] && classes.members_[c] >= 2) classes.clique_[c] = true;
  }
  return classes;
}

}  // namespace dpq::core::graph
