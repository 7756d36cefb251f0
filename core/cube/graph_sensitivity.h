// Generic sensitivity of publishing a graph whose node degrees are partly
// public (paper exact-cuboids-in-noisy-data-cube, Lemma 5.1; docs/cube.md).
//
// Model: the graph is the table of its edges (one row per edge, columns V1
// and V2 for the endpoints), so neighbours are EDGE-level: add or remove one
// edge (unbounded DP), and with known degrees the induced neighbours of
// generic DP (generic_sensitivity.h). Publishing the graph means its
// adjacency counts (the base cuboid {V1, V2}); degree histograms and other
// cuboids derived from those counts have at most this sensitivity
// (projection). Not node-DP: use it only for edge-list datasets whose
// privacy unit is the edge.
//
// `num_nodes` is the size of the public node set |V|; in dpq that is a
// public bound (docs/privacy.md 2.1: N instead of the true count), never the
// private one.
#ifndef DPQ_CORE_CUBE_GRAPH_SENSITIVITY_H_
#define DPQ_CORE_CUBE_GRAPH_SENSITIVITY_H_

#include <cstdint>

#include "absl/status/statusor.h"

namespace dpq::core::cube {

// Undirected graph without self-loops, the degrees of `num_known` nodes
// public. The draft's Lemma 5.1(i), min(n + 1, |V|), is FALSE for n >= 3:
// with known a, b, c and unknown u, w, the change {+ab, -bc, +ca, -au,
// -aw} keeps every known degree and no part of it does, distance 5 > 4
// (odd cycles make longer minimal changes; brute force in the tests). We
// return n + 1 for n <= 2, where it is proven (docs/cube.md): n = 0 one
// edge; n = 1 every changed edge meets the known node and one added and
// one removed edge already balance it; n = 2 at most the edge between the
// two known nodes plus one balancing edge at each. kFailedPrecondition
// with the reason for n >= 3; kInvalidArgument if num_known > num_nodes or
// num_nodes < 1.
absl::StatusOr<int64_t> UndirectedKnownDegreeSensitivity(int64_t num_known,
                                                         int64_t num_nodes);

// Directed graph, the out-degrees of `num_known_out` nodes (row sums of
// V1) and the in-degrees of `num_known_in` nodes (column sums of V2) public.
// The draft's Lemma 5.1(ii), min(2 min(n1, n2) + 1, 2|V|), is too small
// when n1 != n2: with one known out-degree and none known, removing (v,a)
// and adding (v,b) are induced neighbours at distance 2, not 1. This is the
// two-cuboid exact-cells case ({V1}, {V2}, empty meet) of
// ExactCellsSensitivity:
//   max(2 min(n1, n2) + [n1, n2 < |V|], 2 min(n1, n2 + 1) [n2 < |V|],
//       2 min(n2, n1 + 1) [n1 < |V|]),
// which is at most 2|V|. kInvalidArgument if a count exceeds num_nodes or
// num_nodes < 1.
absl::StatusOr<int64_t> DirectedKnownDegreeSensitivity(int64_t num_known_out,
                                                       int64_t num_known_in,
                                                       int64_t num_nodes);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_GRAPH_SENSITIVITY_H_
