#include "core/dp/budget_split.h"

#include <cmath>

namespace dpq::core::dp {
namespace {

// True iff parts * e <= epsilon exactly. fma rounds parts * e - epsilon
// once, and a correctly rounded result has the sign of the exact one (it
// is 0 only when the exact value is 0).
bool ProductAtMost(double parts, double e, double epsilon) {
  return std::fma(parts, e, -epsilon) <= 0;
}

}  // namespace

bool ExactSumAtMost(double a, double b, double limit) {
  // TwoSum (Knuth): s + err == a + b exactly.
  const double s = a + b;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  if (s != limit) return s < limit;
  return err <= 0;
}

double EqualPart(double epsilon, uint64_t parts) {
  const double k = static_cast<double>(parts);
  double e = epsilon / k;
  while (e > 0 && !ProductAtMost(k, e, epsilon)) e = std::nextafter(e, 0.0);
  return e;
}

TwoParts SplitEpsilon(double epsilon, double share) {
  TwoParts parts;
  // Only the sum matters for composition: first may round either way as
  // long as second absorbs it.
  parts.first = std::fmin(share * epsilon, epsilon);
  parts.second = epsilon - parts.first;
  while (parts.second > 0 &&
         !ExactSumAtMost(parts.first, parts.second, epsilon)) {
    parts.second = std::nextafter(parts.second, 0.0);
  }
  return parts;
}

}  // namespace dpq::core::dp
