#include "core/private/release_interval.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/private/noisy_count.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// ceil(a * num / den) for a >= 0, num >= den >= 1, saturating (128-bit).
int64_t ScaleUp(int64_t a, uint64_t num, uint64_t den) {
  const unsigned __int128 product =
      static_cast<unsigned __int128>(static_cast<uint64_t>(a)) * num;
  const unsigned __int128 q = (product + den - 1) / den;
  return q > static_cast<unsigned __int128>(kInt64Max)
             ? kInt64Max
             : static_cast<int64_t>(q);
}

// The upper end before clamping, or nullopt when nothing is proved.
std::optional<int64_t> ProvedUpper(const IntervalInputs& in,
                                   const dp::DiscreteLaplace& noise) {
  const int64_t z_full = OneSidedMargin(noise, kLowerMiss);
  const int64_t z = OneSidedMargin(noise, kUpperNoiseMiss);
  // Y + z' >= S under the noise event; S >= 0, so a negative sum is raised
  // to 0 (the event then failed anyway, and only coverage can gain).
  const int64_t s_full = std::max<int64_t>(0, SaturatingAdd(in.value, z_full));
  const int64_t s = std::max<int64_t>(0, SaturatingAdd(in.value, z));
  switch (in.gap) {
    case GapBound::kNone:
      return std::nullopt;
    case GapBound::kNoneNeeded:
      return s_full;
    case GapBound::kCoverLp:
      return ScaleUp(s_full, 2, 1);
    case GapBound::kFlowExtension: {
      std::optional<int64_t> upper;
      if (in.degree_upper.has_value() && in.theta >= 1) {
        const uint64_t delta = std::max<uint64_t>(*in.degree_upper, in.theta);
        upper = ScaleUp(s, delta, in.theta);
      }
      if (in.measure == Measure::kProblematic &&
          in.uncovered_upper.has_value()) {
        const int64_t via_rows =
            SaturatingAdd(s, std::max<int64_t>(0, *in.uncovered_upper));
        upper = upper.has_value() ? std::min(*upper, via_rows) : via_rows;
      }
      return upper;
    }
  }
  return std::nullopt;
}

}  // namespace

int64_t OneSidedMargin(const dp::DiscreteLaplace& noise, double miss) {
  return noise.ConfidenceBound(1.0 - 2.0 * miss);
}

int64_t PublicMaximum(Measure measure, uint64_t max_rows) {
  if (max_rows == 0) return kInt64Max;
  const unsigned __int128 n = max_rows;
  unsigned __int128 max = 0;
  switch (measure) {
    case Measure::kMinimalInconsistency:
      max = n * (n - 1) / 2;
      break;
    case Measure::kProblematic:
      max = n;
      break;
    case Measure::kRepair:
      max = n - 1;
      break;
    default:
      max = n * (n - 1) / 2;  // no measure counts more than the pairs
      break;
  }
  return max > static_cast<unsigned __int128>(kInt64Max)
             ? kInt64Max
             : static_cast<int64_t>(max);
}

absl::StatusOr<ReleaseInterval> ComputeReleaseInterval(
    const IntervalInputs& in) {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise,
                   dp::DiscreteLaplace::Create(in.noise_scale));
  const int64_t max = PublicMaximum(in.measure, in.max_rows);
  const auto clamp = [max](int64_t v) {
    return std::clamp<int64_t>(v, 0, max);
  };
  ReleaseInterval out;
  out.value = clamp(in.value);
  const int64_t z_lower = OneSidedMargin(noise, kLowerMiss);
  int64_t lower = SaturatingAdd(in.value, -z_lower);
  if (in.statistic_at_most_twice) {
    // ceil(x / 2) for any sign: S <= 2 T gives T >= S / 2.
    lower = lower >= 0 ? lower / 2 + lower % 2 : lower / 2;
  }
  out.lower = clamp(lower);
  const std::optional<int64_t> upper = ProvedUpper(in, noise);
  out.upper_proved = upper.has_value();
  out.upper = std::max(out.lower, clamp(upper.value_or(max)));
  return out;
}

}  // namespace dpq::core::private_measures
