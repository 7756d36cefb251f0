// Slow, obviously correct reference implementations and random graph
// generators for the measures tests. Not for production use.
#ifndef DPQ_TESTS_CORE_MEASURES_BRUTE_FORCE_H_
#define DPQ_TESTS_CORE_MEASURES_BRUTE_FORCE_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace dpq::core::measures::brute_force {

using graph::Edge;
using graph::Graph;
using graph::NodeId;

// G(n, p) with the given generator.
inline Graph RandomGraph(uint32_t n, double p, std::mt19937_64& rng) {
  std::bernoulli_distribution coin(p);
  std::vector<Edge> edges;
  for (NodeId u = 0; u < n; ++u) {
    for (NodeId v = u + 1; v < n; ++v) {
      if (coin(rng)) edges.emplace_back(u, v);
    }
  }
  return *Graph::FromEdges(n, std::move(edges));
}

// Random bipartite graph: nodes < left on one side.
inline Graph RandomBipartiteGraph(uint32_t n, uint32_t left, double p,
                                  std::mt19937_64& rng) {
  std::bernoulli_distribution coin(p);
  std::vector<Edge> edges;
  for (NodeId u = 0; u < left; ++u) {
    for (NodeId v = left; v < n; ++v) {
      if (coin(rng)) edges.emplace_back(u, v);
    }
  }
  return *Graph::FromEdges(n, std::move(edges));
}

// Complete multipartite graph with the given part sizes, nodes numbered
// part by part from `first`; appends its edges to `edges`.
inline void AddCompleteMultipartite(const std::vector<uint32_t>& parts,
                                    NodeId first, std::vector<Edge>& edges) {
  std::vector<uint32_t> part_of;
  for (uint32_t p = 0; p < parts.size(); ++p) {
    part_of.insert(part_of.end(), parts[p], p);
  }
  for (NodeId i = 0; i < part_of.size(); ++i) {
    for (NodeId j = i + 1; j < part_of.size(); ++j) {
      if (part_of[i] != part_of[j]) edges.emplace_back(first + i, first + j);
    }
  }
}

inline Graph Cycle(uint32_t n) {
  std::vector<Edge> edges;
  for (NodeId v = 0; v < n; ++v) edges.emplace_back(v, (v + 1) % n);
  return *Graph::FromEdges(n, std::move(edges));
}

inline Graph Complete(uint32_t n) {
  std::vector<Edge> edges;
  for (NodeId u = 0; u < n; ++u) {
    for (NodeId v = u + 1; v < n; ++v) edges.emplace_back(u, v);
  }
  return *Graph::FromEdges(n, std::move(edges));
}

// Outer 5-cycle 0..4, inner pentagram 5..9, spokes i -- i+5.
// Minimum vertex cover 6, LP optimum 5 (3-regular, all x = 1/2).
inline Graph Petersen() {
  std::vector<Edge> edges;
  for (NodeId i = 0; i < 5; ++i) {
    edges.emplace_back(i, (i + 1) % 5);
    edges.emplace_back(5 + i, 5 + (i + 2) % 5);
    edges.emplace_back(i, 5 + i);
  }
  return *Graph::FromEdges(10, std::move(edges));
}

// Paper Figure 1: tuple 4 (id 3) conflicts with tuples 1..3 (K_{1,3}).
inline Graph Figure1Star() {
  return *Graph::FromEdges(4, {{0, 3}, {1, 3}, {2, 3}});
}

// Adjacency bit masks, n <= 64.
inline std::vector<uint64_t> Masks(const Graph& g) {
  std::vector<uint64_t> adj(g.num_nodes(), 0);
  g.ForEachEdge([&](NodeId u, NodeId v) {
    adj[u] |= uint64_t{1} << v;
    adj[v] |= uint64_t{1} << u;
  });
  return adj;
}

// Minimum vertex cover by trying every subset, n <= 20.
inline uint64_t MinVertexCoverBySubsets(const Graph& g) {
  const uint32_t n = g.num_nodes();
  const std::vector<Edge> edges = g.Edges();
  uint64_t best = n;
  for (uint64_t s = 0; s < (uint64_t{1} << n); ++s) {
    const uint64_t size = std::popcount(s);
    if (size >= best) continue;
    bool covers = true;
    for (const auto& [u, v] : edges) {
      if (!((s >> u) & 1) && !((s >> v) & 1)) {
        covers = false;
        break;
      }
    }
    if (covers) best = size;
  }
  return best;
}

// Maximum independent set of the nodes in `p` (recursion: a node of
// degree <= 1 in p can always be taken, else branch on a max-degree node).
inline uint64_t MaxIndependentSet(const std::vector<uint64_t>& adj,
                                  uint64_t p) {
  if (p == 0) return 0;
  NodeId best_v = 0;
  int best_degree = -1;
  for (uint64_t bits = p; bits != 0; bits &= bits - 1) {
    const NodeId v = std::countr_zero(bits);
    const int d = std::popcount(adj[v] & p);
    if (d <= 1)
      return 1 + MaxIndependentSet(adj, p & ~adj[v] & ~(uint64_t{1} << v));
    if (d > best_degree) {
      best_degree = d;
      best_v = v;
    }
  }
  const uint64_t v_bit = uint64_t{1} << best_v;
  return std::max(MaxIndependentSet(adj, p & ~v_bit),
                  1 + MaxIndependentSet(adj, p & ~adj[best_v] & ~v_bit));
}

// Minimum vertex cover = n - maximum independent set, n <= 64.
inline uint64_t MinVertexCoverByIndependentSet(const Graph& g) {
  const uint32_t n = g.num_nodes();
  const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  return n - MaxIndependentSet(Masks(g), all);
}

// Maximum matching size by exhaustive recursion, n <= 20.
inline uint64_t MaxMatching(const std::vector<uint64_t>& adj, uint64_t p,
                            std::unordered_map<uint64_t, uint64_t>& memo) {
  if (p == 0) return 0;
  if (auto it = memo.find(p); it != memo.end()) return it->second;
  const NodeId v = std::countr_zero(p);
  const uint64_t rest = p & ~(uint64_t{1} << v);
  uint64_t best = MaxMatching(adj, rest, memo);
  for (uint64_t bits = adj[v] & rest; bits != 0; bits &= bits - 1) {
    const NodeId u = std::countr_zero(bits);
    best =
        std::max(best, 1 + MaxMatching(adj, rest & ~(uint64_t{1} << u), memo));
  }
  memo[p] = best;
  return best;
}

inline uint64_t MaxMatching(const Graph& g) {
  std::unordered_map<uint64_t, uint64_t> memo;
  return MaxMatching(Masks(g), (uint64_t{1} << g.num_nodes()) - 1, memo);
}

// Number of maximal independent sets by trying every subset, n <= 20.
inline uint64_t CountMaximalIndependentSetsBySubsets(const Graph& g) {
  const uint32_t n = g.num_nodes();
  const std::vector<uint64_t> adj = Masks(g);
  uint64_t count = 0;
  for (uint64_t s = 0; s < (uint64_t{1} << n); ++s) {
    bool independent = true;
    bool maximal = true;
    for (NodeId v = 0; v < n; ++v) {
      const bool in = (s >> v) & 1;
      if (in && (adj[v] & s) != 0) independent = false;
      if (!in && (adj[v] & s) == 0) maximal = false;  // v could be added
    }
    if (independent && maximal) ++count;
  }
  return count;
}

}  // namespace dpq::core::measures::brute_force

#endif  // DPQ_TESTS_CORE_MEASURES_BRUTE_FORCE_H_
