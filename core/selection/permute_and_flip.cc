#include "core/selection/permute_and_flip.h"

#include <cmath>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/dp/epsilon.h"
#include "core/dp/scaled_gap.h"
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

absl::Status ValidateInputs(absl::Span<const double> qualities, double epsilon,
                            double sensitivity) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  RETURN_IF_ERROR(dp::ValidateSensitivity(sensitivity));
  if (qualities.empty()) {
    return absl::InvalidArgumentError(
        "Permute-and-flip needs at least one candidate, but the list of "
        "qualities is empty.");
  }
  for (size_t i = 0; i < qualities.size(); ++i) {
    if (!std::isfinite(qualities[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Quality ", i, " must be finite, but is ", qualities[i], "."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<size_t> SamplePermuteAndFlip(dp::SecureUrbg& urbg,
                                            absl::Span<const double> qualities,
                                            double epsilon,
                                            double sensitivity) {
  RETURN_IF_ERROR(ValidateInputs(qualities, epsilon, sensitivity));
  double best = qualities[0];
  for (double q : qualities) best = q > best ? q : best;
  // Lazy Fisher-Yates: the next candidate is uniform over the unvisited
  // ones, which is the same as walking one uniform permutation.
  std::vector<size_t> order(qualities.size());
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t next = 0; next < order.size(); ++next) {
    const size_t pick = next + urbg.UniformBelow(order.size() - next);
    std::swap(order[next], order[pick]);
    const size_t r = order[next];
    // Halving before subtracting keeps the gap finite for finite qualities.
    const double half_gap = best / 2 - qualities[r] / 2;
    const double accept = std::exp(-dp::ScaledGap(half_gap, epsilon, sensitivity));
    // accept == 1 for a best candidate and UniformDouble() < 1: the pass
    // always ends at the latest there.
    if (urbg.UniformDouble() < accept) return r;
  }
  return order.back();  // unreachable: a best candidate is always accepted
}

}  // namespace dpq::core::selection
