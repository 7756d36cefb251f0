#include "core/dp/budget_split.h"

#include <cmath>
#include <cstdint>
#include <random>

#include "gtest/gtest.h"

namespace dpq::core::dp {
namespace {

// Exact check of k * e <= eps for small k: k * e fits a long double (64
// significand bits) when k < 2^11.
bool ProductAtMostLongDouble(uint64_t k, double e, double eps) {
  return static_cast<long double>(k) * e <= static_cast<long double>(eps);
}

TEST(BudgetSplitTest, EqualPartNeverSumsAboveTheWhole) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> log_eps(-12, 6);
  int rounded_down = 0;
  for (int i = 0; i < 20000; ++i) {
    const double eps = std::pow(10.0, log_eps(rng));
    for (uint64_t k : {2u, 3u, 5u, 7u, 10u, 11u, 21u, 100u, 201u, 1000u}) {
      const double e = EqualPart(eps, k);
      ASSERT_TRUE(ProductAtMostLongDouble(k, e, eps)) << eps << " / " << k;
      // The largest such double: one ulp more is too much.
      ASSERT_FALSE(ProductAtMostLongDouble(k, std::nextafter(e, INFINITY), eps))
          << eps << " / " << k;
      if (e != eps / static_cast<double>(k)) ++rounded_down;
    }
  }
  // The plain quotient is too large for a good share of the inputs: the
  // rounding this guards against is common, not hypothetical.
  EXPECT_GT(rounded_down, 1000);
}

TEST(BudgetSplitTest, PlainSplitCanExceedTheWholeButSplitEpsilonNever) {
  // 0.4 * eps + (eps - 0.4 * eps) > eps exactly happens in floating point;
  // SplitEpsilon never lets it.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> log_eps(-9, 6);
  int plain_over = 0;
  for (int i = 0; i < 100000; ++i) {
    const double eps = std::pow(10.0, log_eps(rng));
    const double a = 0.4 * eps;
    const double b = eps - a;
    if (!ExactSumAtMost(a, b, eps)) ++plain_over;
    const TwoParts parts = SplitEpsilon(eps, 0.4);
    ASSERT_TRUE(ExactSumAtMost(parts.first, parts.second, eps)) << eps;
    ASSERT_GT(parts.second, 0);
    EXPECT_NEAR(parts.first, 0.4 * eps, 1e-15 * eps);
    EXPECT_NEAR(parts.second, 0.6 * eps, 1e-15 * eps);
  }
  EXPECT_GT(plain_over, 0);
}

TEST(BudgetSplitTest, ExactSumAtMostIsExact) {
  EXPECT_TRUE(ExactSumAtMost(0.5, 0.5, 1.0));
  EXPECT_FALSE(ExactSumAtMost(0.1, 0.2, 0.3));  // 0.1 + 0.2 > 0.3 (doubles)
  EXPECT_TRUE(ExactSumAtMost(0.1, 0.2, 0.30000000000000004));
  // 1 + 2^-60 rounds to 1, but the exact sum is above 1.
  EXPECT_FALSE(ExactSumAtMost(1.0, std::ldexp(1.0, -60), 1.0));
  EXPECT_TRUE(ExactSumAtMost(1.0, -std::ldexp(1.0, -60), 1.0));
}

}  // namespace
}  // namespace dpq::core::dp
