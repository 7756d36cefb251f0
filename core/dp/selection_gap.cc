#include "core/dp/selection_gap.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/dp/scaled_gap.h"
#include "core/util/status_macros.h"

namespace dpq::core::dp {
namespace {

constexpr uint64_t kFractionOne = uint64_t{1} << kGapFractionBits;

// The clamped gap of a computed gamma >= 0, its fraction rounded up.
SelectionGap ToGap(double gamma) {
  SelectionGap gap;
  if (!(gamma < static_cast<double>(kMaxGapWhole))) {  // also +inf
    gap.whole = kMaxGapWhole;
    return gap;
  }
  const double whole = std::floor(gamma);
  // Exact: gamma - floor(gamma) has no more significant bits than gamma.
  const double fraction = gamma - whole;
  // Scaling by a power of two is exact; the ceiling rounds up.
  const double scaled = std::ceil(std::ldexp(fraction, kGapFractionBits));
  gap.whole = static_cast<uint64_t>(whole);
  if (scaled >= static_cast<double>(kFractionOne)) {
    ++gap.whole;  // rounded up to the next integer
  } else {
    gap.fraction = static_cast<uint64_t>(scaled);
  }
  if (gap.whole >= kMaxGapWhole) gap = SelectionGap{kMaxGapWhole, 0};
  return gap;
}

}  // namespace

absl::StatusOr<std::vector<SelectionGap>> SelectionGaps(
    absl::Span<const double> qualities, double epsilon, double sensitivity) {
  RETURN_IF_ERROR(ValidateEpsilon(epsilon));
  RETURN_IF_ERROR(ValidateSensitivity(sensitivity));
  if (epsilon < kMinSelectionEpsilon) {
    return absl::InvalidArgumentError(
        absl::StrCat("A selection step needs epsilon >= 2^-40, but gets ",
                     epsilon, " (too many parts for the budget?)."));
  }
  if (qualities.empty()) {
    return absl::InvalidArgumentError(
        "A selection needs at least one candidate, but the list of "
        "qualities is empty.");
  }
  for (size_t i = 0; i < qualities.size(); ++i) {
    if (!std::isfinite(qualities[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Quality ", i, " must be finite, but is ", qualities[i], "."));
    }
  }
  const double run_epsilon =
      epsilon * kSelectionEpsilonScale - kSelectionEpsilonMargin;
  double best = qualities[0];
  for (double q : qualities) best = q > best ? q : best;
  std::vector<SelectionGap> gaps;
  gaps.reserve(qualities.size());
  for (double q : qualities) {
    // Halving before subtracting keeps the gap finite for finite qualities;
    // eps * (q* - q) / (2 Delta) = (q*/2 - q/2) * eps / Delta.
    const double half_gap = best / 2 - q / 2;
    gaps.push_back(ToGap(ScaledGap(half_gap, run_epsilon, sensitivity)));
  }
  return gaps;
}

bool SampleBernoulliExpGap(const SelectionGap& gap, SecureUrbg& urbg) {
  // exp(-(w + f)) = exp(-1)^w * exp(-f): independent coins, all must land.
  for (uint64_t i = 0; i < gap.whole; ++i) {
    if (!internal::SampleBernoulliExp(1, 1, urbg)) return false;
  }
  return gap.fraction == 0 ||
         internal::SampleBernoulliExp(gap.fraction, kFractionOne, urbg);
}

}  // namespace dpq::core::dp
