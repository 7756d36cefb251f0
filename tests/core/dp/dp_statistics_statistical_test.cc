// Checks of the critical values in statistics.h against closed forms, and a
// chi-square test of SecureUrbg::UniformBelow (the rejection sampler under
// every mechanism).
#include <cmath>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/dp/statistics.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::SeededUrbg;
using test_stats::ChiSquareCriticalValue;
using test_stats::ChiSquareStatistic;
using test_stats::ChiSquareSurvival;
using test_stats::kAlpha;
using test_stats::NormalUpperQuantile;

TEST(StatisticsTest, CriticalValuesMatchClosedForms) {
  // chi^2 with 2 df: survival exp(-x/2), so the critical value is
  // -2 ln(alpha) = 27.631 for alpha = 1e-6.
  EXPECT_NEAR(ChiSquareCriticalValue(2, kAlpha), -2 * std::log(kAlpha), 1e-6);
  // chi^2 with 1 df is Z^2: critical value = (two-sided z)^2.
  const double z = NormalUpperQuantile(kAlpha / 2);
  EXPECT_NEAR(z, 4.891638475698, 1e-9);
  EXPECT_NEAR(ChiSquareCriticalValue(1, kAlpha), z * z, 1e-6);
  EXPECT_NEAR(NormalUpperQuantile(kAlpha), 4.753424308823, 1e-9);
  // chi^2 with 4 df: survival exp(-x/2) (1 + x/2).
  const double x = ChiSquareCriticalValue(4, kAlpha);
  EXPECT_NEAR(std::exp(-x / 2) * (1 + x / 2), kAlpha, 1e-12);
  // Large df: Wilson-Hilferty is accurate to a fraction of a percent there.
  for (int df : {50, 300}) {
    const double wh = df * std::pow(1 - 2.0 / (9 * df) +
                                        NormalUpperQuantile(kAlpha) *
                                            std::sqrt(2.0 / (9 * df)),
                                    3);
    EXPECT_NEAR(ChiSquareCriticalValue(df, kAlpha), wh, 0.01 * wh) << df;
  }
  EXPECT_NEAR(ChiSquareSurvival(10, 0), 1, 1e-15);
}

TEST(UniformBelowStatisticalTest, IsUniformByChiSquare) {
  // Bound 6 (little rejection) and bound 3 * 2^62 (rejects a quarter of the
  // words, binned by its top bits into thirds). False-failure probability
  // kAlpha per bound.
  constexpr int64_t kDraws = 300'000;
  SeededUrbg urbg(31);
  const uint64_t big = uint64_t{3} << 62;
  for (uint64_t bound : {uint64_t{6}, big}) {
    const size_t bins = bound == big ? 3 : 6;
    std::vector<int64_t> observed(bins);
    for (int64_t i = 0; i < kDraws; ++i) {
      const uint64_t x = urbg.UniformBelow(bound);
      ASSERT_LT(x, bound);
      ++observed[bound == big ? x >> 62 : x];
    }
    const std::vector<double> probabilities(bins, 1.0 / bins);
    EXPECT_LE(ChiSquareStatistic(observed, probabilities, kDraws),
              ChiSquareCriticalValue(static_cast<int>(bins) - 1, kAlpha))
        << "bound " << bound;
  }
}

}  // namespace
}  // namespace dpq::core::dp
