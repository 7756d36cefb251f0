#include "core/private/noisy_count.h"

#include <cstdint>
#include <limits>

#include "core/dp/discrete_laplace.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<NoisyCount> ReleaseNoisyCount(dp::SecureUrbg& urbg,
                                             int64_t count, double sensitivity,
                                             double epsilon) {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise,
                   dp::DiscreteLaplace::ForSensitivity(sensitivity, epsilon));
  const int64_t z = noise.Sample(urbg);
  NoisyCount out;
  // Saturate instead of overflowing (clamping is post-processing).
  if (__builtin_add_overflow(count, z, &out.value)) {
    out.value = z > 0 ? std::numeric_limits<int64_t>::max()
                      : std::numeric_limits<int64_t>::min();
  }
  out.bound95 = noise.ConfidenceBound(kBoundConfidence);
  out.scale = noise.scale();
  return out;
}

}  // namespace dpq::core::private_measures
