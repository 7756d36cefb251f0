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
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

// half_gap * epsilon / sensitivity without intermediate overflow or
// underflow (as in core/dp/exponential_mechanism.cc): the significands are
// multiplied and the exponents added, so only the final result can round
// to 0 or infinity, where exp(-result) is then correctly 1 or 0.
double ScaledGap(double half_gap, double epsilon, double sensitivity) {
  if (half_gap == 0) return 0;
  int e_gap, e_eps, e_sens;
  const double m_gap = std::frexp(half_gap, &e_gap);
  const double m_eps = std::frexp(epsilon, &e_eps);
  const double m_sens = std::frexp(sensitivity, &e_sens);
  return std::ldexp(m_gap * m_eps / m_sens, e_gap + e_eps - e_sens);
}

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
    const double accept = std::exp(-ScaledGap(half_gap, epsilon, sensitivity));
    // accept == 1 for a best candidate and UniformDouble() < 1: the pass
    // always ends at the latest there.
    if (urbg.UniformDouble() < accept) return r;
  }
  return order.back();  // unreachable: a best candidate is always accepted
}

}  // namespace dpq::core::selection
