#include "core/selection/tree/tree_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dpq::core::selection {
namespace {

// The epsilon_d at which L(epsilon_d) = ln C (tree_budget.h), times the
// number of draws (G + 1) s.
double UsefulEpsilon(Approach approach, SensitivityMode sensitivity,
                     const std::vector<double>& weights,
                     const GeneticParameters& genetic, uint64_t max_rows) {
  const double draws = (static_cast<double>(genetic.generations) + 1) *
                       std::max<uint32_t>(genetic.selected, 1);
  const double candidates =
      static_cast<double>(genetic.population) + genetic.selected;
  const double log_c = std::log(std::max(candidates, 2.0));
  const double g = kUsefulBalancedAccuracyGap;
  const double n = static_cast<double>(std::max<uint64_t>(max_rows, 1));
  double per_draw = 0;  // epsilon_d with L = ln C
  if (approach == Approach::kAggregation) {
    bool any = weights.empty();  // empty: (1, 1)
    for (double w : weights) any = any || w != 0;
    if (!any) return std::numeric_limits<double>::infinity();
  }
  if (sensitivity == SensitivityMode::kLocal) {
    per_draw = 4 * log_c / (g * n);
  } else if (approach == Approach::kAggregation) {
    per_draw = 2 * log_c / g;
  } else {
    per_draw = 2 * log_c;
  }
  return per_draw * draws;
}

std::string Sig(double v) { return absl::StrFormat("%.3g", v); }

}  // namespace

TreeBudgetAssessment AssessTreeBudget(const DecisionTreeRequest& request) {
  const SelectionOptions& s = request.selection;
  TreeBudgetAssessment out;
  out.useful_epsilon = UsefulEpsilon(s.approach, s.sensitivity, s.weights,
                                     request.genetic, request.public_max_rows);
  out.useful_epsilon_balanced_local =
      UsefulEpsilon(Approach::kAggregation, SensitivityMode::kLocal, {1, 1},
                    request.genetic, request.public_max_rows);
  out.sufficient = s.epsilon >= out.useful_epsilon;
  if (out.sufficient) return out;
  const bool balanced_local = s.approach == Approach::kAggregation &&
                              s.sensitivity == SensitivityMode::kLocal;
  out.caveat = absl::StrCat(
      "Budget too small for a useful tree: at epsilon ", Sig(s.epsilon),
      " each of the ", request.genetic.generations + 1, " selections of ",
      ApproachName(s.approach), "/", SensitivityModeName(s.sensitivity),
      " (population ", request.genetic.population,
      ", N = ", request.public_max_rows,
      ") cannot tell a tree 0.1 better in balanced accuracy from chance "
      "(public-input rule, docs/selection.md); it needs epsilon >= ",
      Sig(out.useful_epsilon), ". Expect a tree no better than chance.",
      balanced_local
          ? ""
          : absl::StrCat(" Approach AGGREGATION with sensitivity LOCAL "
                         "(balanced accuracy) needs epsilon >= ",
                         Sig(out.useful_epsilon_balanced_local), "."));
  return out;
}

std::string SingleLeafCaveat(const DecisionTree& tree) {
  if (tree.nodes.size() != 1 || !tree.nodes[0].is_leaf) return "";
  return absl::StrCat(
      "The selected tree is a single leaf: it predicts the ",
      tree.nodes[0].positive ? "positive" : "negative",
      " class for every row (TPR ", tree.nodes[0].positive ? 1 : 0, ", TNR ",
      tree.nodes[0].positive ? 0 : 1,
      ", balanced accuracy 0.5); the budget bought no split that the DP "
      "selection could tell apart from none.");
}

}  // namespace dpq::core::selection
