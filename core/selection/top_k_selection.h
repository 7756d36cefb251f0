// k draws without replacement from fixed scores (the paper leaves both
// open; we follow its artifact, docs/selection.md, "Decisions where the
// paper leaves room"): sequential composition of k selections at
// epsilon / k each.
#ifndef DPQ_CORE_SELECTION_TOP_K_SELECTION_H_
#define DPQ_CORE_SELECTION_TOP_K_SELECTION_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/selection_scores.h"

namespace dpq::core::selection {

// Draws k distinct candidates: each draw runs `mechanism` (exponential
// mechanism or permute-and-flip) over the candidates not drawn yet with
// budget epsilon / k and the given sensitivity. The scores are computed
// once by the caller and not recomputed after a removal (the remaining set
// is public after each draw, so each draw is epsilon/k-DP on its own).
// Unlike the paper's artifact there is no deterministic fallback when few
// probabilities are non-zero (that fallback reveals the order of the
// scores without noise). The first
// entry is the first draw. epsilon-DP in total.
// kInvalidArgument for k == 0, k > candidates, invalid epsilon or
// sensitivity, non-finite scores.
// Complexity: O(k n) time.
absl::StatusOr<std::vector<size_t>> SelectWithoutReplacement(
    const SelectionScores& scores, size_t k, double epsilon,
    GlobalMechanism mechanism, dp::SecureUrbg& urbg);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TOP_K_SELECTION_H_
