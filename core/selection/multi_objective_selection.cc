#include "core/selection/multi_objective_selection.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/dp/epsilon.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/priv_agg.h"
#include "core/selection/priv_pareto.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/selection/top_k_selection.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

constexpr uint64_t kMaxDampeningStepsLimit = 10'000'000;

absl::Status ValidateSensitivities(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities) {
  if (sensitivities.size() != table.num_objectives) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Each objective needs a sensitivity function, but there are ",
        sensitivities.size(), " for ", table.num_objectives, " objectives."));
  }
  for (size_t i = 0; i < sensitivities.size(); ++i) {
    if (sensitivities[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The sensitivity function of objective ", i, " is missing (null)."));
    }
    const double global = sensitivities[i]->Global();
    if (!std::isfinite(global) || global < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The global sensitivity of objective ", i,
          " must be finite and non-negative, but is ", global, "."));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateWeights(const ScoreTable& table,
                             absl::Span<const double> weights) {
  if (weights.size() != table.num_objectives) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The aggregation approach needs one weight per objective (",
        table.num_objectives, "), but got ", weights.size(), " weights."));
  }
  bool any_nonzero = false;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Weight ", i, " must be finite, but is ", weights[i], "."));
    }
    any_nonzero = any_nonzero || weights[i] != 0;
  }
  if (!any_nonzero) {
    return absl::InvalidArgumentError(
        "The aggregation weights must not all be zero.");
  }
  return absl::OkStatus();
}

absl::Status ValidateOptions(const ScoreTable& table,
                             const SelectionOptions& options) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(options.epsilon));
  if (options.k == 0 || options.k > table.num_candidates) {
    return absl::InvalidArgumentError(
        absl::StrCat("k must be between 1 and the number of candidates (",
                     table.num_candidates, "), but is ", options.k, "."));
  }
  if (options.max_dampening_steps == 0 ||
      options.max_dampening_steps > kMaxDampeningStepsLimit) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_dampening_steps must be between 1 and ", kMaxDampeningStepsLimit,
        ", but is ", options.max_dampening_steps, "."));
  }
  if (options.approach == Approach::kAggregation) {
    RETURN_IF_ERROR(ValidateWeights(table, options.weights));
  }
  return absl::OkStatus();
}

absl::StatusOr<SelectionScores> DispatchScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    const SelectionOptions& options) {
  const bool local = options.sensitivity == SensitivityMode::kLocal;
  if (options.approach == Approach::kPareto) {
    if (!local) return PrivParetoGlobalScores(table);
    return PrivParetoLocalScores(table, sensitivities,
                                 options.max_dampening_steps, options.stop);
  }
  if (!local) return PrivAggGlobalScores(table, sensitivities, options.weights);
  return PrivAggLocalScores(table, sensitivities, options.weights,
                            options.max_dampening_steps, options.stop);
}

}  // namespace

absl::StatusOr<Approach> ParseApproach(absl::string_view text) {
  const std::string word = absl::AsciiStrToLower(text);
  if (word == "pareto") return Approach::kPareto;
  if (word == "aggregation") return Approach::kAggregation;
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown approach \"", text, "\"; use \"pareto\" or \"aggregation\"."));
}

absl::StatusOr<SensitivityMode> ParseSensitivityMode(absl::string_view text) {
  const std::string word = absl::AsciiStrToLower(text);
  if (word == "global") return SensitivityMode::kGlobal;
  if (word == "local") return SensitivityMode::kLocal;
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown sensitivity \"", text, "\"; use \"global\" or \"local\"."));
}

absl::string_view ApproachName(Approach approach) {
  return approach == Approach::kPareto ? "pareto" : "aggregation";
}

absl::string_view SensitivityModeName(SensitivityMode mode) {
  return mode == SensitivityMode::kGlobal ? "global" : "local";
}

absl::StatusOr<SelectionScores> ComputeSelectionScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    const SelectionOptions& options) {
  RETURN_IF_ERROR(ValidateScoreTable(table));
  RETURN_IF_ERROR(ValidateSensitivities(table, sensitivities));
  RETURN_IF_ERROR(ValidateOptions(table, options));
  // One candidate: the only possible output, independent of the data.
  if (table.num_candidates == 1) return SelectionScores{{0.0}, 1.0};
  return DispatchScores(table, sensitivities, options);
}

absl::StatusOr<std::vector<size_t>> SelectMultiObjective(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    const SelectionOptions& options, dp::SecureUrbg& urbg) {
  ASSIGN_OR_RETURN(const SelectionScores scores,
                   ComputeSelectionScores(table, sensitivities, options));
  // A single candidate needs no randomness (and no budget in effect).
  if (table.num_candidates == 1) return std::vector<size_t>{0};
  // Local variants are local dampening: EM with sensitivity 1 on D.
  const GlobalMechanism mechanism =
      options.sensitivity == SensitivityMode::kLocal
          ? GlobalMechanism::kExponential
          : options.global_mechanism;
  return SelectWithoutReplacement(scores, options.k, options.epsilon, mechanism,
                                  urbg);
}

}  // namespace dpq::core::selection
