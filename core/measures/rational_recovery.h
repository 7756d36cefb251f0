// Recovers exact rationals from floating-point images of them: the
// candidate solution that core/measures/certified_packing_lp.h then checks
// in exact arithmetic. Recovery only proposes; nothing it returns is
// trusted until the check passes, so a wrong guess costs a fallback, never
// a wrong bound.
#ifndef DPQ_CORE_MEASURES_RATIONAL_RECOVERY_H_
#define DPQ_CORE_MEASURES_RATIONAL_RECOVERY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"

namespace dpq::core::measures {

// Values as integers over one positive denominator:
// value i = numerators[i] / denominator.
struct ScaledIntegers {
  int64_t denominator = 1;
  std::vector<int64_t> numerators;
};

// The smallest common denominator q (found greedily: each value's own
// denominator, by continued fractions, multiplies q when the value times q
// is not yet near an integer) such that every value lies within
// `tolerance` of numerator / q, with q <= max_denominator and q *
// tolerance < 1/4 (so each numerator is the unique integer that near).
// nullopt if there is none, a value is not finite, or |value| exceeds
// max_magnitude. O(n) plus the continued fractions of the values that
// raise q.
std::optional<ScaledIntegers> RecoverCommonDenominator(
    absl::Span<const double> values, double tolerance, int64_t max_denominator,
    double max_magnitude);

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_RATIONAL_RECOVERY_H_
