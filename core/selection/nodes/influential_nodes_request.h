// A buyer's influential-nodes request (SelectInfluentialNodes), checked in
// one place against the graph's declared node count before any budget is
// reserved, and turned into the InfluentialNodesRequest that
// PrepareInfluentialNodeScores and DrawInfluentialNodes run.
#ifndef DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_REQUEST_H_
#define DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_REQUEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/nodes/influential_nodes.h"

namespace dpq::core::selection {

// The largest k a request may ask for (also at most the node count).
inline constexpr uint32_t kMaxNodesK = 100;

// What a buyer asks for, before any check.
struct InfluentialNodesSpec {
  uint32_t k = 0;
  // Empty: degree and egocentric density (the paper's pair).
  std::vector<NodeObjective> objectives;
  Approach approach = Approach::kPareto;
  SensitivityMode sensitivity = SensitivityMode::kGlobal;
  // As given (CheckSelectionWeights): one per objective with kAggregation.
  std::vector<double> weights;
  // A valid epsilon (dp::ValidateRequestEpsilon; the service checks it
  // with the release's other fields).
  double epsilon = 0;
};

// The objectives' names joined by commas ("degree,egocentric_density"):
// how requests, ledger entries and messages name a list of objectives.
std::string NodeObjectiveList(const std::vector<NodeObjective>& objectives);

// Checks, in this order, k (in [1, kMaxNodesK], then at most
// `declared_nodes`, the owner's declared node universe of `dataset_id`,
// never the edges), the objectives (none twice) and the weights
// (CheckSelectionWeights). kInvalidArgument naming the field otherwise.
// The result has the default objectives filled in and no stop function
// (the caller sets one).
absl::StatusOr<InfluentialNodesRequest> BuildInfluentialNodesRequest(
    const InfluentialNodesSpec& spec, uint32_t declared_nodes,
    absl::string_view dataset_id);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_REQUEST_H_
