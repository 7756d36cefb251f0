// Critical values for the statistical tests of core/dp, computed here rather
// than copied from tables so that every threshold states its own false-failure
// probability. Self-checked against closed forms in
// dp_statistics_statistical_test.cc.
#ifndef DPQ_TESTS_CORE_DP_STATISTICS_H_
#define DPQ_TESTS_CORE_DP_STATISTICS_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace dpq::core::dp::test_stats {

// False-failure probability of each individual check in the statistical
// tests (with a fixed seed: the probability that a correct sampler would
// produce a sample that fails).
inline constexpr double kAlpha = 1e-6;

// Regularized upper incomplete gamma function Q(a, x), a > 0, x >= 0: series
// for x < a + 1, Lentz's continued fraction otherwise (Press et al.,
// Numerical Recipes, 3rd ed., section 6.2). Relative accuracy ~1e-14.
inline double RegularizedUpperGamma(double a, double x) {
  if (x <= 0) return 1;
  const double log_prefactor = -x + a * std::log(x) - std::lgamma(a);
  constexpr double kEps = 1e-16;
  if (x < a + 1) {
    double term = 1 / a;
    double sum = term;
    for (int n = 1; n < 100000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * kEps) break;
    }
    return 1 - sum * std::exp(log_prefactor);
  }
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / kTiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < kEps) break;
  }
  return std::exp(log_prefactor) * h;
}

// P(chi^2_df > x).
inline double ChiSquareSurvival(int df, double x) {
  return RegularizedUpperGamma(df / 2.0, x / 2);
}

// The x with P(chi^2_df > x) = alpha, by bisection on the survival function.
inline double ChiSquareCriticalValue(int df, double alpha) {
  double lo = 0;
  double hi = df + 10.0;
  while (ChiSquareSurvival(df, hi) > alpha) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-10 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (ChiSquareSurvival(df, mid) > alpha ? lo : hi) = mid;
  }
  return hi;
}

// The z with P(Z > z) = alpha for a standard normal Z, by bisection on erfc.
inline double NormalUpperQuantile(double alpha) {
  double lo = 0;
  double hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
  }
  return hi;
}

// Pearson's statistic sum (O - E)^2 / E over bins with E = n * p > 0.
inline double ChiSquareStatistic(const std::vector<int64_t>& observed,
                                 const std::vector<double>& probabilities,
                                 int64_t n) {
  double statistic = 0;
  for (size_t i = 0; i < observed.size(); ++i) {
    const double expected = static_cast<double>(n) * probabilities[i];
    const double diff = static_cast<double>(observed[i]) - expected;
    statistic += diff * diff / expected;
  }
  return statistic;
}

}  // namespace dpq::core::dp::test_stats

#endif  // DPQ_TESTS_CORE_DP_STATISTICS_H_
