// The dampening function of local dampening (paper:
// dp-multi-objective-selection, Defs 3.2 and 3.3, from Farias et al. 2023,
// "Local dampening", VLDBJ 32(6); docs/selection.md, "Local dampening").
#ifndef DPQ_CORE_SELECTION_DAMPENING_H_
#define DPQ_CORE_SELECTION_DAMPENING_H_

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace dpq::core::selection {

// Default T_max: sensitivity levels evaluated before the tail with the
// global sensitivity takes over (see Dampen).
inline constexpr uint64_t kDefaultMaxDampeningSteps = 100000;

// D_{u,delta}(x, r) for the score u = u(x, r) and delta_at(t) =
// delta^u(x, t, r): the piecewise-linear map through (b_i, i) with
// b_i = sum_{j<i} min(delta(j), global), extended as an odd function:
// D(u) = sign(u) (t + (|u| - b_t) / delta_t) for the first t with
// b_t <= |u| < b_t + delta_t (zero-width levels are skipped, so D(0) is the
// first t with delta_t > 0, as in the paper). After `max_steps` levels the
// tail continues with delta = global. Capping at Delta u and the constant
// tail both keep an admissible delta admissible (the true change never
// exceeds Delta u, and min(., Delta u) keeps (A2); docs/selection.md,
// "Local dampening"), so
// |D(x, r) - D(y, r)| <= 1 on neighbours and the exponential mechanism
// with sensitivity 1 on D is epsilon-DP (local dampening).
// kInvalidArgument if u is not finite, global is not finite and > 0, or
// delta_at returns a negative or non-finite value.
// Complexity: O(min(T, max_steps)) calls of delta_at, T = the level of u.
absl::StatusOr<double> Dampen(double u,
                              absl::FunctionRef<double(uint64_t)> delta_at,
                              double global, uint64_t max_steps);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_DAMPENING_H_
