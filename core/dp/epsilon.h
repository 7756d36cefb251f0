// Privacy budgets: validation of epsilons and sensitivities (docs/privacy.md
// 3.1 and 5).
#ifndef DPQ_CORE_DP_EPSILON_H_
#define DPQ_CORE_DP_EPSILON_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::core::dp {

// Largest epsilon dpq accepts in one request. Above this the noise is
// meaningless as protection, so a value this large is almost surely a typo.
inline constexpr double kMaxEpsilon = 1e6;

// Smallest epsilon a request may ask for: a public floor, so that no
// request is so small that a noise scale or a selection step downstream
// could fail in a way that depends on the data (docs/privacy.md 7, finding
// 2). Parts of a request (per measure, per draw, per generation) may be
// smaller; every mechanism still refuses parts below its own public floor.
inline constexpr double kMinRequestEpsilon = 1e-6;

// OK iff `epsilon` is finite, > 0 and <= kMaxEpsilon. Otherwise
// kInvalidArgument naming `name` and the value, e.g.
// "Epsilon must be finite and positive, but is -1."
absl::Status ValidateEpsilon(double epsilon,
                             absl::string_view name = "Epsilon");

// ValidateEpsilon plus epsilon >= kMinRequestEpsilon: for the epsilon a
// buyer or owner asks for (the whole request, not its parts).
absl::Status ValidateRequestEpsilon(double epsilon,
                                    absl::string_view name = "Epsilon");

// OK iff `delta` (a sensitivity) is finite and > 0.
absl::Status ValidateSensitivity(double delta,
                                 absl::string_view name = "Sensitivity");

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_EPSILON_H_
