// Releasing an integer count with discrete Laplace noise (docs/privacy.md 4.2):
// the last step of Algorithm 2 and of Algorithm 5.
#ifndef DPQ_CORE_PRIVATE_NOISY_COUNT_H_
#define DPQ_CORE_PRIVATE_NOISY_COUNT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::private_measures {

// Confidence level of the error bound reported with every release
// (docs/core.md "The 95% bound": it covers the noise part only).
inline constexpr double kBoundConfidence = 0.95;

struct NoisyCount {
  int64_t value = 0;    // count + noise (saturating at the int64 range)
  int64_t bound95 = 0;  // P(|noise| > bound95) <= 5%
  double scale = 0;     // effective discrete Laplace scale (>= Delta / eps)
};

// a + b, saturating at the int64 range instead of overflowing (clamping is
// post-processing).
int64_t SaturatingAdd(int64_t a, int64_t b);

// Returns count + Z with Z ~ DiscreteLaplace(sensitivity / epsilon):
// epsilon-DP when `sensitivity` bounds the change of `count` between
// neighbouring datasets. Errors from DiscreteLaplace::ForSensitivity
// (kInvalidArgument on a bad epsilon or sensitivity, or a scale above 2^40).
absl::StatusOr<NoisyCount> ReleaseNoisyCount(dp::SecureUrbg& urbg,
                                             int64_t count, double sensitivity,
                                             double epsilon);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_NOISY_COUNT_H_
