#include "tests/privacy/audit/clopper_pearson.h"

#include <cmath>
#include <limits>

namespace dpq::audit {
namespace {

// The continued fraction of I_x(a, b) (Numerical Recipes, betacf), valid
// and fast for x < (a + 1) / (a + b + 2).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < kEps) break;
  }
  return h;
}

// The beta quantile: the x with I_x(a, b) = target, by bisection (I is
// increasing in x).
double BetaQuantile(double a, double b, double target) {
  double lo = 0, hi = 1;
  for (int i = 0; i < 200 && hi - lo > 1e-16; ++i) {
    const double mid = (lo + hi) / 2;
    if (RegularizedIncompleteBeta(a, b, mid) < target) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

}  // namespace

double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) -
                           std::lgamma(b) + a * std::log(x) +
                           b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) {
    return front * BetaContinuedFraction(a, b, x) / a;
  }
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double ClopperPearsonLower(int64_t k, int64_t n, double alpha) {
  if (k <= 0) return 0;
  // P(Bin(n, p) >= k) = I_p(k, n - k + 1).
  return BetaQuantile(static_cast<double>(k), static_cast<double>(n - k + 1),
                      alpha);
}

double ClopperPearsonUpper(int64_t k, int64_t n, double alpha) {
  if (k >= n) return 1;
  // P(Bin(n, p) <= k) = 1 - I_p(k + 1, n - k).
  return BetaQuantile(static_cast<double>(k + 1), static_cast<double>(n - k),
                      1 - alpha);
}

}  // namespace dpq::audit
