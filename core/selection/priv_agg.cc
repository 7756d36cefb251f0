#include "core/selection/priv_agg.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/selection/dampening.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/selection/weighted_sum_sensitivity.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

absl::StatusOr<WeightedSumSensitivity> CombinedSensitivity(
    absl::Span<const SensitivityFunction* const> sensitivities,
    absl::Span<const double> weights) {
  ASSIGN_OR_RETURN(WeightedSumSensitivity combined,
                   WeightedSumSensitivity::Create(
                       std::vector<double>(weights.begin(), weights.end()),
                       std::vector<const SensitivityFunction*>(
                           sensitivities.begin(), sensitivities.end())));
  const double global = combined.Global();
  if (!std::isfinite(global) || global <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The weighted sum must have a finite positive sensitivity "
        "sum_i |w_i| Delta_i, but it is ",
        global,
        "; give a non-zero weight to an objective that depends on the data."));
  }
  return combined;
}

// With normalised weights (|w_i| <= 1) a sum of m finite scores overflows
// only if some score is within a factor m of DBL_MAX, which no dpq
// objective comes near (degrees, counts and rates are bounded by public
// sizes). The check stays for arbitrary score tables; it names no
// candidate.
absl::StatusOr<std::vector<double>> FiniteAggregateScores(
    const ScoreTable& table, absl::Span<const double> weights) {
  std::vector<double> scores = AggregateScores(table, weights);
  for (double score : scores) {
    if (!std::isfinite(score)) {
      return absl::InvalidArgumentError(
          "A weighted sum of the scores overflows: the score table holds "
          "values near the largest double.");
    }
  }
  return scores;
}

// delta^agg(t, r), or NaN (which Dampen reports) if a component is negative
// or not finite: a negative component could hide in the weighted sum.
double CheckedAt(absl::Span<const SensitivityFunction* const> sensitivities,
                 const WeightedSumSensitivity& combined, size_t r, uint64_t t) {
  for (const SensitivityFunction* s : sensitivities) {
    const double d = s->At(r, t);
    if (!std::isfinite(d) || d < 0) return std::nan("");
  }
  return combined.At(r, t);
}

}  // namespace

std::vector<double> AggregateScores(const ScoreTable& table,
                                    absl::Span<const double> weights) {
  std::vector<double> scores(table.num_candidates, 0);
  for (size_t i = 0; i < table.num_objectives; ++i) {
    for (size_t r = 0; r < table.num_candidates; ++r) {
      scores[r] += weights[i] * table.at(i, r);
    }
  }
  return scores;
}

absl::StatusOr<SelectionScores> PrivAggGlobalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    absl::Span<const double> raw_weights) {
  // Scale-invariant: see NormalizeWeights.
  const std::vector<double> weights = NormalizeWeights(raw_weights);
  ASSIGN_OR_RETURN(WeightedSumSensitivity combined,
                   CombinedSensitivity(sensitivities, weights));
  SelectionScores out;
  ASSIGN_OR_RETURN(out.scores, FiniteAggregateScores(table, weights));
  out.sensitivity = combined.Global();  // Thm 5.3: sum_i |w_i| Delta u_i
  return out;
}

absl::StatusOr<SelectionScores> PrivAggLocalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    absl::Span<const double> raw_weights, uint64_t max_steps,
    const util::StopFn& stop) {
  // Scale-invariant (local dampening divides by delta^agg, which scales
  // with the weights): see NormalizeWeights.
  const std::vector<double> weights = NormalizeWeights(raw_weights);
  ASSIGN_OR_RETURN(WeightedSumSensitivity combined,
                   CombinedSensitivity(sensitivities, weights));
  ASSIGN_OR_RETURN(std::vector<double> u_agg,
                   FiniteAggregateScores(table, weights));
  SelectionScores out;
  out.sensitivity = 1;  // local dampening: EM with sensitivity 1 on D
  out.scores.resize(u_agg.size());
  for (size_t r = 0; r < u_agg.size(); ++r) {
    // Every candidate: one may take max_steps (up to 10^5) levels.
    if (util::StopRequested(stop)) return util::StoppedError();
    // Thm 5.4: delta^agg = sum_i |w_i| delta^{u_i}, capped at the global
    // sensitivity inside Dampen.
    const auto delta_at = [&](uint64_t t) {
      return CheckedAt(sensitivities, combined, r, t);
    };
    ASSIGN_OR_RETURN(out.scores[r],
                     Dampen(u_agg[r], delta_at, combined.Global(), max_steps));
  }
  return out;
}

}  // namespace dpq::core::selection
