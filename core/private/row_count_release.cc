#include "core/private/row_count_release.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/private/noisy_count.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<RowCountRelease> ReleaseRowCount(dp::SecureUrbg& urbg,
                                                uint64_t rows, bool rows_public,
                                                double epsilon,
                                                uint64_t max_rows) {
  if (rows > max_rows || max_rows > (uint64_t{1} << 62)) {
    return absl::InvalidArgumentError(
        "The row count needs rows <= public_max_rows <= 2^62.");
  }
  RowCountRelease out;
  const int64_t n = static_cast<int64_t>(rows);
  if (rows_public) {
    out.value = out.lower95 = out.upper95 = n;
    out.exact = true;
    return out;
  }
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  // Sensitivity 1: one row added or removed moves the count by one.
  ASSIGN_OR_RETURN(const NoisyCount noisy,
                   ReleaseNoisyCount(urbg, n, 1.0, epsilon));
  const int64_t max = static_cast<int64_t>(max_rows);
  const auto clamp = [max](int64_t v) {
    return std::clamp<int64_t>(v, 0, max);
  };
  out.value = clamp(noisy.value);
  out.bound95 = noisy.bound95;
  // The noise is the whole error: 2.5% on each side.
  out.lower95 = clamp(SaturatingAdd(noisy.value, -noisy.bound95));
  out.upper95 = clamp(SaturatingAdd(noisy.value, noisy.bound95));
  out.epsilon = epsilon;
  return out;
}

}  // namespace dpq::core::private_measures
