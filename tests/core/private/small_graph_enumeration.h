// Every graph up to 7 nodes, paired with every node removal, up to
// isomorphism: for the exhaustive neighbour tests of the node-private
// statistics (flow extensions, GEM scores, cover bounds).
//
// Why this covers every pair (G, G - v) with |V(G)| <= 7: all statistics
// tested are invariant under relabelling, and any (G, v) can be relabelled
// so that v is the last node and G - v is the canonical representative of
// its isomorphism class on n - 1 nodes. So it suffices to take each
// canonical graph H on n - 1 <= 6 nodes and each of the 2^(n-1) ways to
// attach a new last node (9,984 pairs for n = 7 instead of 7 * 2^21).
#ifndef DPQ_TESTS_CORE_PRIVATE_SMALL_GRAPH_ENUMERATION_H_
#define DPQ_TESTS_CORE_PRIVATE_SMALL_GRAPH_ENUMERATION_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace dpq::core::private_measures::testing {

// Edge masks over the pairs (u, v), u < v < n, in lexicographic order.
inline std::vector<std::pair<uint32_t, uint32_t>> Pairs(uint32_t n) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) out.emplace_back(u, v);
  }
  return out;
}

inline graph::Graph GraphFromMask(uint32_t n, uint64_t mask) {
  std::vector<graph::Edge> edges;
  const auto pairs = Pairs(n);
  for (size_t i = 0; i < pairs.size(); ++i) {
    if ((mask >> i) & 1) edges.push_back(pairs[i]);
  }
  return *graph::Graph::FromEdges(n, std::move(edges));
}

// One representative edge mask per isomorphism class of graphs on n <= 6
// nodes (the smallest mask over all relabellings).
inline std::vector<uint64_t> CanonicalMasks(uint32_t n) {
  const auto pairs = Pairs(n);
  std::vector<std::vector<uint32_t>> index(n, std::vector<uint32_t>(n, 0));
  for (uint32_t i = 0; i < pairs.size(); ++i) {
    index[pairs[i].first][pairs[i].second] = i;
    index[pairs[i].second][pairs[i].first] = i;
  }
  std::vector<std::vector<uint32_t>> perms;
  std::vector<uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  do perms.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  std::set<uint64_t> canonical;
  for (uint64_t mask = 0; mask < (uint64_t{1} << pairs.size()); ++mask) {
    uint64_t best = mask;
    for (const auto& perm : perms) {
      uint64_t image = 0;
      for (size_t i = 0; i < pairs.size(); ++i) {
        if ((mask >> i) & 1) {
          image |= uint64_t{1}
                   << index[perm[pairs[i].first]][perm[pairs[i].second]];
        }
      }
      best = std::min(best, image);
      if (best < mask) break;  // mask is not the representative
    }
    if (best == mask) canonical.insert(mask);
  }
  return {canonical.begin(), canonical.end()};
}

// A graph G on n nodes and G - (n - 1).
struct NeighbourPair {
  graph::Graph with;
  graph::Graph without;
};

// Every (G, G - v) with 2 <= |V(G)| <= max_nodes up to isomorphism (see
// above). Deterministic order.
inline std::vector<NeighbourPair> AllNeighbourPairs(uint32_t max_nodes = 7) {
  std::vector<NeighbourPair> out;
  for (uint32_t n = 2; n <= max_nodes; ++n) {
    const uint32_t m = n - 1;
    for (uint64_t base : CanonicalMasks(m)) {
      const graph::Graph without = GraphFromMask(m, base);
      const std::vector<graph::Edge> old_edges = without.Edges();
      for (uint64_t attach = 0; attach < (uint64_t{1} << m); ++attach) {
        std::vector<graph::Edge> edges = old_edges;
        for (uint32_t u = 0; u < m; ++u) {
          if ((attach >> u) & 1) edges.emplace_back(u, m);
        }
        out.push_back({*graph::Graph::FromEdges(n, std::move(edges)), without});
      }
    }
  }
  return out;
}

}  // namespace dpq::core::private_measures::testing

#endif  // DPQ_TESTS_CORE_PRIVATE_SMALL_GRAPH_ENUMERATION_H_
