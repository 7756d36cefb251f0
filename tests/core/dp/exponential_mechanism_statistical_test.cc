// Statistical tests of SampleExponentialMechanism: sampled frequencies against
// ExponentialMechanismProbabilities by Pearson's chi-square test, fixed seed.
// False-failure probability test_stats::kAlpha = 1e-6 per quality vector
// (asymptotic chi-square; every expected count is >= 1000).
#include <cstdint>
#include <vector>

#include "core/dp/exponential_mechanism.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/dp/statistics.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::SeededUrbg;
using test_stats::ChiSquareCriticalValue;
using test_stats::ChiSquareStatistic;
using test_stats::kAlpha;

struct EmCase {
  std::vector<double> qualities;
  double epsilon;
  double sensitivity;
};

class ExponentialMechanismStatisticalTest
    : public ::testing::TestWithParam<EmCase> {};

TEST_P(ExponentialMechanismStatisticalTest, FrequenciesFitByChiSquare) {
  constexpr int64_t kDraws = 200'000;
  const EmCase& c = GetParam();
  ASSERT_OK_AND_ASSIGN(
      std::vector<double> probabilities,
      ExponentialMechanismProbabilities(c.qualities, c.epsilon, c.sensitivity));
  std::vector<int64_t> observed(probabilities.size());
  SeededUrbg urbg(21);
  for (int64_t i = 0; i < kDraws; ++i) {
    ASSERT_OK_AND_ASSIGN(
        size_t index, SampleExponentialMechanism(urbg, c.qualities, c.epsilon,
                                                 c.sensitivity));
    ++observed[index];
  }
  // Candidates of probability exactly 0 must never be drawn and leave the
  // test; every other one is a bin.
  std::vector<int64_t> bin_counts;
  std::vector<double> bin_probabilities;
  for (size_t i = 0; i < probabilities.size(); ++i) {
    if (probabilities[i] == 0) {
      EXPECT_EQ(observed[i], 0) << "candidate " << i;
      continue;
    }
    ASSERT_GE(kDraws * probabilities[i], 1000) << "test needs more draws";
    bin_counts.push_back(observed[i]);
    bin_probabilities.push_back(probabilities[i]);
  }
  const int df = static_cast<int>(bin_counts.size()) - 1;
  ASSERT_GE(df, 1);
  EXPECT_LE(ChiSquareStatistic(bin_counts, bin_probabilities, kDraws),
            ChiSquareCriticalValue(df, kAlpha))
      << "df " << df;
}

INSTANTIATE_TEST_SUITE_P(
    QualityVectors, ExponentialMechanismStatisticalTest,
    ::testing::Values(
        // Inconsistency measures under DP, Table 4.
        EmCase{{-3.41, -3.82, -4.24}, 1, 3},
        // A ramp: probabilities from 0.03 to 0.41.
        EmCase{{0, 1, 2, 3, 4, 5}, 1, 1},
        // Ties and a distant candidate.
        EmCase{{5, 5, 5, 0}, 0.5, 1},
        // Huge qualities with small gaps, and one of probability 0.
        EmCase{{1e12, 1e12 - 2, 1e12 - 4, -1e12}, 1, 2}));

}  // namespace
}  // namespace dpq::core::dp
