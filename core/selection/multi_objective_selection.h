// Entry point of core/selection: DP selection of k candidates by several
// objectives at once, by PrivPareto (Pareto score) or PrivAgg (weighted
// sum), each with global sensitivity (exponential mechanism or
// permute-and-flip) or local sensitivity (local dampening).
// Paper: dp-multi-objective-selection (Defs 4.1, 4.2, 5.1, 5.2), with the
// corrected sensitivities of docs/privacy.md 6.1; docs/selection.md.
#ifndef DPQ_CORE_SELECTION_MULTI_OBJECTIVE_SELECTION_H_
#define DPQ_CORE_SELECTION_MULTI_OBJECTIVE_SELECTION_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/dampening.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

enum class Approach { kPareto, kAggregation };
enum class SensitivityMode { kGlobal, kLocal };
// Base mechanism of the global variants (local ones always use local
// dampening over the exponential mechanism).
enum class GlobalMechanism { kExponential, kPermuteAndFlip };

// "pareto"/"aggregation", "global"/"local" (case-insensitive);
// kInvalidArgument listing the accepted words otherwise.
absl::StatusOr<Approach> ParseApproach(absl::string_view text);
absl::StatusOr<SensitivityMode> ParseSensitivityMode(absl::string_view text);
absl::string_view ApproachName(Approach approach);
absl::string_view SensitivityModeName(SensitivityMode mode);

struct SelectionOptions {
  Approach approach = Approach::kPareto;
  SensitivityMode sensitivity = SensitivityMode::kGlobal;
  GlobalMechanism global_mechanism = GlobalMechanism::kExponential;
  // PrivAgg only: one public weight per objective (any sign, finite, not
  // all zero). Ignored by PrivPareto.
  std::vector<double> weights;
  // Total budget; k draws without replacement at epsilon / k each
  // (sequential composition). Validated by dp::ValidateEpsilon.
  double epsilon = 0;
  // Number of candidates to select, 1 <= k <= num_candidates.
  size_t k = 1;
  // Local variants only: T_max of the dampening function (levels of the
  // sensitivity function evaluated per candidate before the tail with the
  // global sensitivity). Any value >= 1 keeps epsilon-DP; smaller is faster
  // but coarser. 1..1e7.
  uint64_t max_dampening_steps = kDefaultMaxDampeningSteps;
  // Polled by the local variants while they compute scores (every
  // dampening level, every few candidates): true stops them with
  // kCancelled (core::util::StoppedError).
  util::StopFn stop;
};

// Selects k distinct candidates. `sensitivities[i]` describes objective i
// (size must equal table.num_objectives()); the global variants use only
// Global(). Scores are computed once; k draws without replacement follow
// (docs/selection.md, "Entry point"). All sampling in log space (no overflow at
// epsilon = 1e5), randomness from `urbg` only.
// kInvalidArgument for a malformed table, k out of range, weights that do
// not match the objectives, invalid epsilon, non-finite scores, a missing
// sensitivity function or one with a negative or non-finite global bound,
// PrivAgg weights whose combined sensitivity sum |w_i| Delta_i is 0.
// A single candidate (k = 1, n = 1) is returned without touching the data.
absl::StatusOr<std::vector<size_t>> SelectMultiObjective(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    const SelectionOptions& options, dp::SecureUrbg& urbg);

// The data-dependent part of SelectMultiObjective: validates like it and
// returns the scores the draws sample from (PS, u_agg or their dampened
// versions) with their sensitivity. For experiments that draw many times
// from the same data: SelectWithoutReplacement(scores, k, epsilon, ...)
// (core/selection/top_k_selection.h) then gives the same distribution as
// SelectMultiObjective (local variants: with GlobalMechanism::kExponential).
// For a single candidate the score is 0 with sensitivity 1.
absl::StatusOr<SelectionScores> ComputeSelectionScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    const SelectionOptions& options);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_MULTI_OBJECTIVE_SELECTION_H_
