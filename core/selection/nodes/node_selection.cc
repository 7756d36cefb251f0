#include "core/selection/nodes/node_selection.h"

#include <algorithm>
#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/selection/dominance.h"
#include "core/selection/egodensity_sensitivity.h"
#include "core/selection/nodes/node_centrality.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {

ScoreTable NodeScoreTable(const graph::Graph& graph,
                          const std::vector<NodeObjective>& objectives) {
  // Without a stop function nothing can fail.
  return *NodeScoreTable(graph, objectives, nullptr);
}

absl::StatusOr<ScoreTable> NodeScoreTable(
    const graph::Graph& graph, const std::vector<NodeObjective>& objectives,
    const util::StopFn& stop) {
  ScoreTable table;
  table.num_candidates = graph.num_nodes();
  table.num_objectives = objectives.size();
  table.scores.reserve(table.num_candidates * table.num_objectives);
  std::vector<double> density;
  for (NodeObjective objective : objectives) {
    if (objective == NodeObjective::kDegree) {
      for (graph::NodeId v = 0; v < graph.num_nodes(); ++v) {
        table.scores.push_back(graph.degree(v));
      }
    } else {
      if (density.empty()) {
        ASSIGN_OR_RETURN(density, EgocentricDensities(graph, stop));
      }
      table.scores.insert(table.scores.end(), density.begin(), density.end());
    }
  }
  return table;
}

std::vector<std::unique_ptr<SensitivityFunction>> NodeSensitivities(
    const graph::Graph& graph, const std::vector<NodeObjective>& objectives) {
  std::vector<std::unique_ptr<SensitivityFunction>> out;
  for (NodeObjective objective : objectives) {
    if (objective == NodeObjective::kDegree) {
      out.push_back(std::make_unique<ConstantSensitivity>(1.0));
    } else {
      out.push_back(
          std::make_unique<EgocentricDensitySensitivity>(Degrees(graph)));
    }
  }
  return out;
}

absl::StatusOr<std::vector<size_t>> NonPrivateTopNodes(
    const ScoreTable& scores, Approach approach,
    const std::vector<double>& weights, size_t k) {
  if (k == 0 || k > scores.num_candidates) {
    return absl::InvalidArgumentError(
        absl::StrCat("k must be in [1, ", scores.num_candidates,
                     "] (the node count), but is ", k, "."));
  }
  std::vector<double> value(scores.num_candidates, 0.0);
  if (approach == Approach::kPareto) {
    const std::vector<int64_t> ps = ParetoScores(scores);
    for (size_t r = 0; r < ps.size(); ++r) value[r] = ps[r];
  } else {
    if (weights.size() != scores.num_objectives) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Expected ", scores.num_objectives, " weights (one per objective), ",
          "got ", weights.size(), "."));
    }
    for (size_t i = 0; i < scores.num_objectives; ++i) {
      for (size_t r = 0; r < scores.num_candidates; ++r) {
        value[r] += weights[i] * scores.at(i, r);
      }
    }
  }
  std::vector<size_t> order(scores.num_candidates);
  std::iota(order.begin(), order.end(), size_t{0});
  std::partial_sort(
      order.begin(), order.begin() + k, order.end(), [&](size_t a, size_t b) {
        return value[a] > value[b] || (value[a] == value[b] && a < b);
      });
  order.resize(k);
  return order;
}

}  // namespace dpq::core::selection
