#include "core/graph/twin_classes.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "absl/hash/hash.h"

namespace dpq::core::graph {

TwinClasses TwinClasses::Find(const Graph& g, absl::Span<const NodeId> nodes) {
  const uint32_t k = static_cast<uint32_t>(nodes.size());
  std::vector<uint64_t> hash(k);
  for (uint32_t i = 0; i < k; ++i) {
    hash[i] = absl::HashOf(g.neighbors(nodes[i]));
  }
  // Positions sorted by (hash, position): equal lists are in one run, and
  // within a run the first position of each list comes first.
  std::vector<uint32_t> order(k);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return hash[a] != hash[b] ? hash[a] < hash[b] : a < b;
  });
  TwinClasses classes;
  constexpr uint32_t kUnset = UINT32_MAX;
  classes.class_of_.assign(k, kUnset);
  // First pass: the class leader of each position (the first position
  // with an equal list). Hash collisions between different lists are
  // resolved by comparing with every leader of the run so far; a run
  // holds one list in all but astronomically rare cases.
  std::vector<uint32_t> leader(k);
  std::vector<uint32_t> run_leaders;
  for (size_t begin = 0; begin < k;) {
    size_t end = begin + 1;
    while (end < k && hash[order[end]] == hash[order[begin]]) ++end;
    run_leaders.clear();
    for (size_t r = begin; r < end; ++r) {
      const uint32_t i = order[r];
      const absl::Span<const NodeId> list = g.neighbors(nodes[i]);
      uint32_t found = i;
      for (uint32_t l : run_leaders) {
        if (g.neighbors(nodes[l]) == list) {
          found = l;
          break;
        }
      }
      if (found == i) run_leaders.push_back(i);
      leader[i] = found;
    }
    begin = end;
  }
  // Second pass, in position order: dense ids numbered by first member.
  for (uint32_t i = 0; i < k; ++i) {
    if (leader[i] == i) {
      classes.class_of_[i] = static_cast<uint32_t>(classes.members_.size());
      classes.members_.push_back(0);
      classes.representative_.push_back(nodes[i]);
    } else {
      classes.class_of_[i] = classes.class_of_[leader[i]];
    }
    ++classes.members_[classes.class_of_[i]];
  }
  return classes;
}

}  // namespace dpq::core::graph
