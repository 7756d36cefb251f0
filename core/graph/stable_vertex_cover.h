// The stable-order greedy vertex cover of paper Algorithm 5 (before noise).
#ifndef DPQ_CORE_GRAPH_STABLE_VERTEX_COVER_H_
#define DPQ_CORE_GRAPH_STABLE_VERTEX_COVER_H_

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"

namespace dpq::core::graph {

// Scans the edges in the stable order Lambda and, for every edge whose
// endpoints are both still uncovered, puts both endpoints into the cover
// (a maximal matching, doubled). The result is a vertex cover of size at
// most twice the minimum; its size changes by at most 2 when one node is
// added or removed (paper Proposition 3). O(n + m).
std::vector<NodeId> StableGreedyVertexCover(const Graph& g);

// Size of StableGreedyVertexCover(g), without materialising it.
uint32_t StableGreedyVertexCoverSize(const Graph& g);

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_STABLE_VERTEX_COVER_H_
