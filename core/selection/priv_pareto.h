// PrivPareto scores (paper: dp-multi-objective-selection, Defs 4.1, 4.2;
// docs/selection.md, "Entry point"): what the global and local variants
// sample from.
#ifndef DPQ_CORE_SELECTION_PRIV_PARETO_H_
#define DPQ_CORE_SELECTION_PRIV_PARETO_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

// Global variant: scores PS(x, r), sensitivity |R| - 1 (PS is in
// [-(|R| - 1), 0]; one neighbour can move it across the whole range). For
// |R| == 1 the sensitivity is reported as 1 (one candidate: the output is
// constant anyway). Expects a table that passed ValidateScoreTable.
// O(n log n) for m <= 2, O(n^2 m) otherwise.
SelectionScores PrivParetoGlobalScores(const ScoreTable& table);

// Local variant: scores D(x, r) = dampened PS with delta^PS built from the
// objectives' sensitivity functions (pareto_sensitivity.h), capped at
// |R| - 1, T_max = max_steps; sensitivity 1 (local dampening). Levels
// t = 0, 1, ... are computed for all still-unresolved candidates at once:
// each level costs O(n log n) for m <= 2 (O(n q m) otherwise, q =
// unresolved candidates), and a candidate resolves once the cumulative
// delta^PS passes |PS|, i.e. after about the number of levels its
// dominance status needs to change.
// kInvalidArgument if a sensitivity function returns a negative or
// non-finite value; kCancelled once `stop` (polled every level) says so.
absl::StatusOr<SelectionScores> PrivParetoLocalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    uint64_t max_steps, const util::StopFn& stop = nullptr);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_PRIV_PARETO_H_
