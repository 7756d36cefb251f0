#include "core/selection/nodes/influential_nodes_request.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/selection/selection_weights.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {

std::string NodeObjectiveList(const std::vector<NodeObjective>& objectives) {
  std::vector<std::string> names;
  for (const NodeObjective o : objectives) {
    names.emplace_back(NodeObjectiveName(o));
  }
  return absl::StrJoin(names, ",");
}

absl::StatusOr<InfluentialNodesRequest> BuildInfluentialNodesRequest(
    const InfluentialNodesSpec& spec, uint32_t declared_nodes,
    absl::string_view dataset_id) {
  if (spec.k == 0 || spec.k > kMaxNodesK) {
    return util::InvalidFieldError(
        "k", absl::StrCat("k must be in [1, ", kMaxNodesK, "], but is ", spec.k,
                          "."));
  }
  if (spec.k > declared_nodes) {
    return util::InvalidFieldError(
        "k", absl::StrCat(
                 "k must be at most the declared node count of dataset '",
                 dataset_id, "' (", declared_nodes, "), but is ", spec.k, "."));
  }
  InfluentialNodesRequest request;
  request.objectives = spec.objectives;
  if (request.objectives.empty()) {
    request.objectives = {NodeObjective::kDegree,
                          NodeObjective::kEgocentricDensity};
  }
  for (auto it = request.objectives.begin(); it != request.objectives.end();
       ++it) {
    if (std::find(request.objectives.begin(), it, *it) != it) {
      return util::InvalidFieldError(
          "objectives",
          absl::StrCat("objectives lists ", NodeObjectiveName(*it), " twice."));
    }
  }
  ASSIGN_OR_RETURN(request.selection.weights,
                   CheckSelectionWeights(
                       spec.approach, spec.weights, request.objectives.size(),
                       NodeObjectiveList(request.objectives)));
  request.k = spec.k;
  request.selection.approach = spec.approach;
  request.selection.sensitivity = spec.sensitivity;
  request.selection.epsilon = spec.epsilon;
  request.selection.k = spec.k;
  return request;
}

}  // namespace dpq::core::selection
