// Building blocks of DP-MOTkIN shared by SelectInfluentialNodes and the
// experiments: the score table of the vertices, their sensitivity
// functions under edge-DP, and the non-private top-k.
#ifndef DPQ_CORE_SELECTION_NODES_NODE_SELECTION_H_
#define DPQ_CORE_SELECTION_NODES_NODE_SELECTION_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/graph/graph.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/selection/score_table.h"
#include "core/selection/sensitivity_function.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

// Candidates = vertices, one objective per entry of `objectives`.
ScoreTable NodeScoreTable(const graph::Graph& graph,
                          const std::vector<NodeObjective>& objectives);
// The same, polling `stop` (EgocentricDensities): kCancelled once it says
// so.
absl::StatusOr<ScoreTable> NodeScoreTable(
    const graph::Graph& graph, const std::vector<NodeObjective>& objectives,
    const util::StopFn& stop);

// Edge-DP sensitivities, one per objective: degree: constant 1 (an edge
// moves the degree of each endpoint by 1); egocentric density: the
// corrected delta^ed of core/selection/egodensity_sensitivity.h, global 1.
std::vector<std::unique_ptr<SensitivityFunction>> NodeSensitivities(
    const graph::Graph& graph, const std::vector<NodeObjective>& objectives);

// The non-private DP-MOTkIN: the k best vertices by the Pareto score (weak
// dominance, self excluded) or by the weighted sum, ties to the lower id.
// Same errors as SelectInfluentialNodes (epsilon is not used).
absl::StatusOr<std::vector<size_t>> NonPrivateTopNodes(
    const ScoreTable& scores, Approach approach,
    const std::vector<double>& weights, size_t k);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_NODE_SELECTION_H_
