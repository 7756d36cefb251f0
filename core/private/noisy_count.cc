#include "core/private/noisy_count.h"

#include <cstdint>
#include <limits>

#include "core/dp/discrete_laplace.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    return b > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  }
  return sum;
}

absl::StatusOr<NoisyCount> ReleaseNoisyCount(dp::SecureUrbg& urbg,
                                             int64_t count, double sensitivity,
                                             double epsilon) {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise,
                   dp::DiscreteLaplace::ForSensitivity(sensitivity, epsilon));
  const int64_t z = noise.Sample(urbg);
  NoisyCount out;
  out.value = SaturatingAdd(count, z);
  out.bound95 = noise.ConfidenceBound(kBoundConfidence);
  out.scale = noise.scale();
  return out;
}

}  // namespace dpq::core::private_measures
