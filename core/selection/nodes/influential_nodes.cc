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
#include "core/selection/top_k_selection.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {

absl::StatusOr<NodeObjective> ParseNodeObjective(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "degree") return NodeObjective::kDegree;
  if (lower == "egocentric_density" || lower == "egodensity") {
    return NodeObjective::kEgocentricDensity;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown node objective '", text,
                   "'; expected degree or egocentric_density."));
}

absl::string_view NodeObjectiveName(NodeObjective objective) {
  return objective == NodeObjective::kDegree ? "degree" : "egocentric_density";
}

absl::StatusOr<std::shared_ptr<const NodeSelectionScores>>
PrepareInfluentialNodeScores(const LabeledGraph& graph,
                             const InfluentialNodesRequest& request) {
  const uint32_t n = graph.graph.num_nodes();
  if (n == 0) {
    return absl::InvalidArgumentError("The graph has no node to select from.");
  }
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
  ASSIGN_OR_RETURN(
      const ScoreTable table,
      NodeScoreTable(graph.graph, objectives, request.selection.stop));
  const std::vector<std::unique_ptr<SensitivityFunction>> owned =
      NodeSensitivities(graph.graph, objectives);
  std::vector<const SensitivityFunction*> sensitivities;
  for (const auto& s : owned) sensitivities.push_back(s.get());

  // The scores depend on neither k nor epsilon: validate with k = 1 and a
  // placeholder budget (the real ones are checked by the draw).
  SelectionOptions options = request.selection;
  options.k = 1;
  options.epsilon = 1;
  auto scores = std::make_shared<NodeSelectionScores>();
  ASSIGN_OR_RETURN(scores->selection,
                   ComputeSelectionScores(table, sensitivities, options));
  // As SelectMultiObjective: local dampening samples with the exponential
  // mechanism whatever the global mechanism.
  scores->mechanism = options.sensitivity == SensitivityMode::kLocal
                          ? GlobalMechanism::kExponential
                          : options.global_mechanism;
  scores->num_nodes = n;
  return std::shared_ptr<const NodeSelectionScores>(std::move(scores));
}

absl::StatusOr<InfluentialNodesResult> DrawInfluentialNodes(
    const LabeledGraph& graph, const NodeSelectionScores& scores, size_t k,
    double epsilon, dp::SecureUrbg& urbg) {
  const uint32_t n = graph.graph.num_nodes();
  if (scores.num_nodes != n || scores.selection.scores.size() != n ||
      graph.labels.size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The selection scores cover ", scores.selection.scores.size(),
        " nodes but the graph has ", n,
        ": they were prepared for another graph."));
  }
  if (k == 0 || k > n) {
    return absl::InvalidArgumentError(
        absl::StrCat("k must be in [1, ", n,
                     "] (the node count of the graph), but is ", k, "."));
  }
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon, "Epsilon"));
  InfluentialNodesResult result;
  result.epsilon_spent = epsilon;
  // A single candidate needs no randomness (as SelectMultiObjective).
  if (n == 1) {
    result.nodes.push_back(graph.labels[0]);
    return result;
  }
  // k draws without replacement at epsilon / k each on scores computed
  // once (top_k_selection.h): epsilon in total by sequential composition.
  ASSIGN_OR_RETURN(const std::vector<size_t> chosen,
                   SelectWithoutReplacement(scores.selection, k, epsilon,
                                            scores.mechanism, urbg));
  for (size_t v : chosen) result.nodes.push_back(graph.labels[v]);
  return result;
}

absl::StatusOr<InfluentialNodesResult> SelectInfluentialNodes(
    const LabeledGraph& graph, const InfluentialNodesRequest& request,
    dp::SecureUrbg& urbg) {
  const uint32_t n = graph.graph.num_nodes();
  // Cheap checks first, so a bad k or epsilon costs no score computation.
  if (request.k == 0 || request.k > n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k must be in [1, ", n, "] (the node count of the graph), but is ",
        request.k, "."));
  }
  RETURN_IF_ERROR(dp::ValidateEpsilon(request.selection.epsilon, "Epsilon"));
  ASSIGN_OR_RETURN(const std::shared_ptr<const NodeSelectionScores> scores,
                   PrepareInfluentialNodeScores(graph, request));
  return DrawInfluentialNodes(graph, *scores, request.k,
                              request.selection.epsilon, urbg);
}

}  // namespace dpq::core::selection
