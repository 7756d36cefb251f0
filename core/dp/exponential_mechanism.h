// The exponential mechanism (paper Def. 5, docs/privacy.md 4.3).
#ifndef DPQ_CORE_DP_EXPONENTIAL_MECHANISM_H_
#define DPQ_CORE_DP_EXPONENTIAL_MECHANISM_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::dp {

// The selection probabilities exp(eps*q_i/(2*Delta)) / sum_j(...), computed
// stably (log-sum-exp: shifted by the maximum), in floating point: for
// tests and reports, never for sampling. Errors as for
// SampleExponentialMechanism.
absl::StatusOr<std::vector<double>> ExponentialMechanismProbabilities(
    absl::Span<const double> qualities, double epsilon, double sensitivity);

// Returns index i with probability proportional to
// exp(epsilon' * qualities[i] / (2 * sensitivity)), sampled exactly (no
// floating-point comparison: see selection_gap.h), epsilon' = (1 - 2^-20)
// epsilon - 2^-43 (which covers the rounding of the qualities and gaps). Pure
// epsilon-DP when `sensitivity` bounds the change of every quality between
// neighbours. Expected O(n) random draws. kInvalidArgument on an empty
// candidate list, a non-finite quality, or an invalid epsilon (also below
// 2^-40) or sensitivity.
absl::StatusOr<size_t> SampleExponentialMechanism(
    SecureUrbg& urbg, absl::Span<const double> qualities, double epsilon,
    double sensitivity);

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_EXPONENTIAL_MECHANISM_H_
