// SelectInfluentialNodes and the objective names (influential_nodes.h).
#include "core/selection/nodes/influential_nodes.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/dp/epsilon.h"
#include "core/selection/nodes/node_selection.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {

absl::StatusOr<NodeObjective> ParseNodeObjective(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "degree") return NodeObjective::kDegree;
  if (lower == "egocentric_density" || lower == "egodensity") {
    return NodeObjective::kEgocentricDensity;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown node objective '", text,
      "'; expected degree or egocentric_density."));
}

absl::string_view NodeObjectiveName(NodeObjective objective) {
  return objective == NodeObjective::kDegree ? "degree"
                                             : "egocentric_density";
}

absl::StatusOr<InfluentialNodesResult> SelectInfluentialNodes(
    const LabeledGraph& graph, const InfluentialNodesRequest& request,
    dp::SecureUrbg& urbg) {
  const uint32_t n = graph.graph.num_nodes();
  if (request.k == 0 || request.k > n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k must be in [1, ", n, "] (the node count of the graph), but is ",
        request.k, "."));
  }
  RETURN_IF_ERROR(dp::ValidateEpsilon(request.selection.epsilon, "Epsilon"));
  std::vector<NodeObjective> objectives = request.objectives;
  if (objectives.empty()) {
    objectives = {NodeObjective::kDegree, NodeObjective::kEgocentricDensity};
  }
  if (request.selection.approach == Approach::kAggregation &&
      request.selection.weights.size() != objectives.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The aggregation approach needs one weight per objective (",
        objectives.size(), "), but ", request.selection.weights.size(),
        " were given."));
  }
  const ScoreTable scores = NodeScoreTable(graph.graph, objectives);
  const std::vector<std::unique_ptr<SensitivityFunction>> owned =
      NodeSensitivities(graph.graph, objectives);
  std::vector<const SensitivityFunction*> sensitivities;
  for (const auto& s : owned) sensitivities.push_back(s.get());

  // k draws without replacement at epsilon / k each on scores computed
  // once (spec 7.4): epsilon in total by sequential composition.
  SelectionOptions options = request.selection;
  options.k = request.k;
  ASSIGN_OR_RETURN(
      const std::vector<size_t> chosen,
      SelectMultiObjective(scores, sensitivities, options, urbg));
  InfluentialNodesResult result;
  for (size_t v : chosen) result.nodes.push_back(graph.labels[v]);
  result.epsilon_spent = request.selection.epsilon;
  return result;
}

}  // namespace dpq::core::selection
