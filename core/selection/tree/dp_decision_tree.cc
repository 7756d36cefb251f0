// TrainDpDecisionTree: validation, DP-MOET (dp_moet.h) and the optional DP
// accuracy release.
#include "core/selection/tree/dp_decision_tree.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/selection/tree/dp_moet.h"
#include "core/selection/tree/tree_evaluation.h"
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

// The observed domains with the public ones substituted by name.
absl::StatusOr<std::vector<FeatureDomain>> MergeDomains(
    std::vector<FeatureDomain> observed,
    const std::vector<FeatureDomain>& public_domains) {
  for (const FeatureDomain& d : public_domains) {
    auto it = std::find_if(observed.begin(), observed.end(),
                           [&](const FeatureDomain& o) {
                             return o.name == d.name;
                           });
    if (it == observed.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "A public domain is given for '", d.name,
          "', which is not a feature of the tree."));
    }
    if (it->numeric != d.numeric) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The public domain of '", d.name, "' must be ",
          it->numeric ? "numeric" : "categorical", "."));
    }
    if (d.numeric && !(std::isfinite(d.min) && std::isfinite(d.max) &&
                       d.min <= d.max)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The public domain of '", d.name, "' must have finite min <= max."));
    }
    if (!d.numeric && d.categories.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The public domain of '", d.name, "' lists no category."));
    }
    *it = d;
  }
  return observed;
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
  ASSIGN_OR_RETURN(
      EncodedTable data,
      EncodedTable::Create(table, request.label_column,
                           request.positive_class, request.features));
  ASSIGN_OR_RETURN(
      std::vector<FeatureDomain> domains,
      MergeDomains(data.ObservedDomains(), request.public_domains));

  ASSIGN_OR_RETURN(
      std::vector<DecisionTree> trees,
      RunMoet(data, domains, request.genetic, /*output=*/1,
              request.selection.epsilon,
              DpTreeSelector(data, request.selection, urbg), urbg));
  DecisionTreeResult result;
  result.tree = std::move(trees.front());
  result.epsilon_spent = request.selection.epsilon;

  if (request.accuracy_epsilon > 0) {
    // Add/remove one row changes P or N by 1 and TP or TN by at most 1:
    // L1 sensitivity 2 for the vector (TP, P, TN, N), so discrete Laplace
    // of scale 2 / epsilon on each count is accuracy_epsilon-DP.
    ASSIGN_OR_RETURN(
        const dp::DiscreteLaplace noise,
        dp::DiscreteLaplace::ForSensitivity(2.0, request.accuracy_epsilon));
    const ConfusionCounts counts = data.Evaluate(result.tree);
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
