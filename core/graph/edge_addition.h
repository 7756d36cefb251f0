// Edge-addition graph projection (paper, Algorithm 1; Day et al. SIGMOD'16).
#ifndef DPQ_CORE_GRAPH_EDGE_ADDITION_H_
#define DPQ_CORE_GRAPH_EDGE_ADDITION_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::graph {

// What the measures need from the theta-bounded graph pi_theta(G).
struct ProjectionCounts {
  uint64_t edges = 0;                  // |E(G_theta)|, for I_MI
  uint32_t positive_degree_nodes = 0;  // |G_theta.V>0|, for I_P
};

// Runs edge addition with bound `theta` over the stable order Lambda of
// `g` (Graph::ForEachEdge): an edge is kept iff both endpoints still have
// degree < theta. Sensitivity of the kept edge count under node removal:
// in [0, theta] (paper Lemma 1). O(n + m) time, O(n) extra memory, the
// first time per (graph, theta); then O(1) from the graph's memo
// (Graph::memo), so a cached graph pays each pass once. Thread-safe.
ProjectionCounts EdgeAdditionCounts(const Graph& g, uint32_t theta);

// The counts for every theta in `thetas`, in the same order. Thetas at or
// above the maximum degree share one answer (nothing is truncated), so only
// smaller ones cost a pass.
std::vector<ProjectionCounts> EdgeAdditionCountsForEach(
    const Graph& g, absl::Span<const uint32_t> thetas);

// The projected graph pi_theta(G) itself.
Graph EdgeAdditionProjection(const Graph& g, uint32_t theta);

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_EDGE_ADDITION_H_
