// TrainDpDecisionTree: validation, DP-MOET (dp_moet.h) and the optional DP
// accuracy release.
#include "core/selection/tree/dp_decision_tree.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/selection/tree/dp_moet.h"
#include "core/selection/tree/tree_budget.h"
#include "core/selection/tree/tree_evaluation.h"
#include "core/selection/tree/tree_simplification.h"
#include "core/table/schema.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

absl::Status ValidateWeights(const SelectionOptions& options) {
  if (options.approach != Approach::kAggregation) return absl::OkStatus();
  if (options.weights.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The aggregation approach needs 2 weights (TPR, TNR), but ",
        options.weights.size(), " were given."));
  }
  bool any_nonzero = false;
  for (double w : options.weights) {
    if (!std::isfinite(w)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Weights must be finite, but one is ", w, "."));
    }
    any_nonzero = any_nonzero || w != 0;
  }
  if (!any_nonzero) {
    return absl::InvalidArgumentError("The weights must not all be zero.");
  }
  return absl::OkStatus();
}

// A feature's public domain against the (public) schema: an existing
// column, of the column's kind, finite min <= max or some category.
absl::Status CheckDomain(const table::Schema& schema, const FeatureDomain& d) {
  const std::optional<size_t> c = schema.FindColumn(d.name);
  if (!c.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown feature column '", d.name, "'."));
  }
  const bool numeric = schema.columns()[*c].type != table::ColumnType::kString;
  if (d.numeric != numeric) {
    return absl::InvalidArgumentError(
        absl::StrCat("The public domain of '", d.name, "' must be ",
                     numeric ? "numeric" : "categorical", "."));
  }
  if (d.numeric &&
      !(std::isfinite(d.min) && std::isfinite(d.max) && d.min <= d.max)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The public domain of '", d.name, "' must have finite min <= max."));
  }
  if (!d.numeric && !d.thresholds.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The public domain of '", d.name,
                     "' is categorical but lists thresholds."));
  }
  for (size_t i = 0; i < d.thresholds.size(); ++i) {
    if (!std::isfinite(d.thresholds[i]) ||
        (i > 0 && !(d.thresholds[i - 1] < d.thresholds[i]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("The public thresholds of '", d.name,
                       "' must be finite, ascending and distinct."));
    }
  }
  if (!d.numeric && d.categories.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The public domain of '", d.name, "' lists no category."));
  }
  return absl::OkStatus();
}

// The features' public domains in feature order (empty features: those of
// public_domains): exactly one per feature, each checked by CheckDomain.
absl::StatusOr<std::vector<FeatureDomain>> PublicFeatureDomains(
    const table::Schema& schema, const DecisionTreeRequest& request) {
  const std::vector<FeatureDomain>& given = request.public_domains;
  std::vector<std::string> features = request.features;
  if (features.empty()) {
    for (const FeatureDomain& d : given) features.push_back(d.name);
  }
  if (features.empty()) {
    return absl::InvalidArgumentError(
        "A decision tree needs at least one feature with a public domain.");
  }
  for (const FeatureDomain& d : given) {
    if (std::find(features.begin(), features.end(), d.name) == features.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("A public domain is given for '", d.name,
                       "', which is not a feature of the tree."));
    }
  }
  std::vector<FeatureDomain> domains;
  for (const std::string& name : features) {
    const auto d =
        std::find_if(given.begin(), given.end(),
                     [&](const FeatureDomain& x) { return x.name == name; });
    if (d == given.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("No public domain is given for the feature '", name,
                       "': domains read from the data would not be private."));
    }
    RETURN_IF_ERROR(CheckDomain(schema, *d));
    domains.push_back(*d);
  }
  return domains;
}

absl::Status CheckPositiveClass(const DecisionTreeRequest& request) {
  const std::vector<std::string>& classes = request.label_classes;
  if (std::find(classes.begin(), classes.end(), request.positive_class) !=
      classes.end()) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "The positive class '", request.positive_class,
      "' is not one of the public classes of the label column '",
      request.label_column, "': ",
      classes.empty() ? "(none given)" : absl::StrJoin(classes, ", "), "."));
}

// Noisy rate: (count + noise) / max(class + noise, 1), clamped to [0, 1].
double NoisyRate(int64_t noisy_count, int64_t noisy_class) {
  const double rate = static_cast<double>(noisy_count) /
                      static_cast<double>(std::max<int64_t>(noisy_class, 1));
  return std::clamp(rate, 0.0, 1.0);
}

int64_t NoisyCount(uint64_t count, const dp::DiscreteLaplace& noise,
                   dp::SecureUrbg& urbg) {
  // Counts are at most the row count (< 2^62), the noise is below 2^62 in
  // magnitude: the sum cannot overflow int64.
  return static_cast<int64_t>(count) + noise.Sample(urbg);
}

}  // namespace

absl::StatusOr<DecisionTreeResult> TrainDpDecisionTree(
    const table::Table& table, const DecisionTreeRequest& request,
    dp::SecureUrbg& urbg) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(request.selection.epsilon, "Epsilon"));
  if (request.accuracy_epsilon != 0) {
    RETURN_IF_ERROR(
        dp::ValidateEpsilon(request.accuracy_epsilon, "Accuracy epsilon"));
  }
  RETURN_IF_ERROR(ValidateWeights(request.selection));
  RETURN_IF_ERROR(ValidateGeneticParameters(request.genetic, 1));
  // Everything below up to the DP selections depends on public inputs
  // only (schema, domains, classes): no error reveals the rows.
  if (!table.schema().FindColumn(request.label_column).has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown label column '", request.label_column, "'."));
  }
  ASSIGN_OR_RETURN(const std::vector<FeatureDomain> domains,
                   PublicFeatureDomains(table.schema(), request));
  RETURN_IF_ERROR(CheckPositiveClass(request));
  std::vector<std::string> features;
  for (const FeatureDomain& d : domains) features.push_back(d.name);
  ASSIGN_OR_RETURN(
      EncodedTable data,
      EncodedTable::Create(table, request.label_column, request.positive_class,
                           features, /*rows=*/{}, request.stop));

  // The selections poll the training's stop function too (the local
  // variants compute for long on a large population).
  SelectionOptions selection = request.selection;
  if (!selection.stop) selection.stop = request.stop;
  ASSIGN_OR_RETURN(
      std::vector<DecisionTree> trees,
      RunMoet(data, domains, request.genetic, /*output=*/1,
              request.selection.epsilon, DpTreeSelector(data, selection, urbg),
              urbg, request.stop));
  DecisionTreeResult result;
  // Post-processing of the released tree (no privacy cost): drop tests
  // the path decides and merge equal leaves. Done before the accuracy
  // release so that it describes the tree returned (same predictions).
  result.tree = SimplifyTree(trees.front());
  result.epsilon_spent = request.selection.epsilon;
  // Both statements are post-processing: the budget one reads public
  // inputs only, the leaf one the released tree.
  const TreeBudgetAssessment budget = AssessTreeBudget(request);
  result.useful_epsilon = budget.useful_epsilon;
  if (!budget.sufficient) result.caveats.push_back(budget.caveat);
  if (std::string leaf = SingleLeafCaveat(result.tree); !leaf.empty()) {
    result.caveats.push_back(std::move(leaf));
  }

  if (request.accuracy_epsilon > 0) {
    // Add/remove one row changes P or N by 1 and TP or TN by at most 1:
    // L1 sensitivity 2 for the vector (TP, P, TN, N), so discrete Laplace
    // of scale 2 / epsilon on each count is accuracy_epsilon-DP.
    ASSIGN_OR_RETURN(
        const dp::DiscreteLaplace noise,
        dp::DiscreteLaplace::ForSensitivity(2.0, request.accuracy_epsilon));
    ASSIGN_OR_RETURN(const ConfusionCounts counts,
                     data.Evaluate(result.tree, request.stop));
    const int64_t tp = NoisyCount(counts.true_positives, noise, urbg);
    const int64_t p = NoisyCount(counts.positives, noise, urbg);
    const int64_t tn = NoisyCount(counts.true_negatives, noise, urbg);
    const int64_t n = NoisyCount(counts.negatives, noise, urbg);
    result.tpr = NoisyRate(tp, p);
    result.tnr = NoisyRate(tn, n);
    result.epsilon_spent += request.accuracy_epsilon;
  }
  return result;
}

}  // namespace dpq::core::selection
