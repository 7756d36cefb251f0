// The DP-MOTkIN objectives (paper: dp-multi-objective-selection, Section
// 7.2): degree and egocentric density of every vertex.
#ifndef DPQ_CORE_SELECTION_NODES_NODE_CENTRALITY_H_
#define DPQ_CORE_SELECTION_NODES_NODE_CENTRALITY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/graph/graph.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

// degrees[v] = |N(v)|.
std::vector<uint64_t> Degrees(const graph::Graph& graph);

// triangles[v] = number of edges among the neighbours of v (= triangles
// through v). Degree-ordered orientation, O(m sqrt(m)) time, O(n) extra
// memory.
std::vector<uint64_t> EdgesAmongNeighbours(const graph::Graph& graph);
// The same, polling `stop` every kStopPollWork adjacency visits:
// kCancelled (util::StoppedError) once it says so.
absl::StatusOr<std::vector<uint64_t>> EdgesAmongNeighbours(
    const graph::Graph& graph, const util::StopFn& stop);

// egodensity(v) = 2 T(v) / (d (d - 1)) in [0, 1] (Eq. (2)), and 0 for
// d < 2, where the paper leaves it undefined (the artifact's 1 for d = 1
// would put every degree-1 vertex on the Pareto front;
// docs/selection-experiments.md).
std::vector<double> EgocentricDensities(const graph::Graph& graph);
absl::StatusOr<std::vector<double>> EgocentricDensities(
    const graph::Graph& graph, const util::StopFn& stop);

// Work (adjacency visits) between two polls of a stop function: well
// under a millisecond.
inline constexpr uint64_t kStopPollWork = uint64_t{1} << 16;

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_NODE_CENTRALITY_H_
