// Permute-and-flip (McKenna and Sheldon, NeurIPS 2020; paper:
// dp-multi-objective-selection, Section 3.1; docs/selection.md,
// "Permute-and-flip").
#ifndef DPQ_CORE_SELECTION_PERMUTE_AND_FLIP_H_
#define DPQ_CORE_SELECTION_PERMUTE_AND_FLIP_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::selection {

// Visits the candidates in a uniformly random order and accepts r with
// probability exp(epsilon (q_r - q*) / (2 sensitivity)), q* = max q; the
// best candidate is always accepted, so one pass suffices. epsilon-DP, and
// never worse in expected quality than the exponential mechanism. The
// acceptance coins are exact Bernoulli(exp(-gap)) draws on rational gaps
// (core/dp/selection_gap.h: pure epsilon-DP, run at slightly below
// epsilon to cover rounding), with
// no overflow for any finite qualities and epsilon <= 1e6.
// kInvalidArgument as dp::SampleExponentialMechanism.
absl::StatusOr<size_t> SamplePermuteAndFlip(dp::SecureUrbg& urbg,
                                            absl::Span<const double> qualities,
                                            double epsilon, double sensitivity);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_PERMUTE_AND_FLIP_H_
