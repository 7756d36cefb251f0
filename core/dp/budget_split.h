// Splitting a privacy budget into parts whose exact sum never exceeds it
// (docs/privacy.md 3.1 and 5; the privacy review's finding 9, docs/privacy.md
// 7).
//
// Sequential composition adds the parts' epsilons as real numbers. In
// floating point, 0.4 * eps + (eps - 0.4 * eps) or k copies of eps / k can
// round to a sum ABOVE eps, so a release would spend slightly more than it
// was charged. Every split below rounds each part down until the exact
// (real-number) sum of the parts is at most the whole.
#ifndef DPQ_CORE_DP_BUDGET_SPLIT_H_
#define DPQ_CORE_DP_BUDGET_SPLIT_H_

#include <cstdint>

namespace dpq::core::dp {

// The largest double e with parts * e <= epsilon exactly (about
// epsilon / parts). Preconditions: epsilon finite and >= 0, parts >= 1 and
// below 2^53 (exactly representable). O(1): at most a few ulp steps.
double EqualPart(double epsilon, uint64_t parts);

// Two parts of `epsilon`: first = share * epsilon rounded down (share in
// [0, 1]), second = the largest double with first + second <= epsilon
// exactly.
struct TwoParts {
  double first = 0;
  double second = 0;
};
TwoParts SplitEpsilon(double epsilon, double share);

// True iff a + b <= limit in exact arithmetic (finite arguments).
bool ExactSumAtMost(double a, double b, double limit);

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_BUDGET_SPLIT_H_
