// PrivAgg scores (paper: dp-multi-objective-selection, Defs 5.1, 5.2,
// Thms 5.3, 5.4; docs/selection.md, "Entry point"): what the global and
// local variants sample from.
#ifndef DPQ_CORE_SELECTION_PRIV_AGG_H_
#define DPQ_CORE_SELECTION_PRIV_AGG_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

// u_agg(x, r) = sum_i weights[i] u_i(x, r) for every candidate.
std::vector<double> AggregateScores(const ScoreTable& table,
                                    absl::Span<const double> weights);

// Both variants first normalise the weights to max |w_i| = 1
// (NormalizeWeights: the selection is scale-invariant).
// Global variant: scores u_agg, sensitivity sum_i |w_i| Delta u_i (Thm 5.3).
// kInvalidArgument if that sum is 0 (the scores do not depend on the data,
// there is nothing to calibrate) or not finite, or a u_agg is not finite.
absl::StatusOr<SelectionScores> PrivAggGlobalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    absl::Span<const double> weights);

// Local variant: scores D(x, r) = dampened u_agg with delta^agg =
// sum_i |w_i| delta^{u_i} (Thm 5.4), capped at sum_i |w_i| Delta u_i, T_max =
// max_steps; sensitivity 1 (local dampening). Errors as the global variant,
// plus a sensitivity function returning a negative or non-finite value;
// kCancelled once `stop` (polled before every candidate) says so.
// O(n min(T, max_steps) m) calls of the sensitivity functions.
absl::StatusOr<SelectionScores> PrivAggLocalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    absl::Span<const double> weights, uint64_t max_steps,
    const util::StopFn& stop = nullptr);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_PRIV_AGG_H_
