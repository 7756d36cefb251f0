#include "core/dp/generalized_exponential_mechanism.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::_;

TEST(GemThresholdTest, IsTwoLogKOverBetaOverEpsilon) {
  ASSERT_OK_AND_ASSIGN(const double t, GemThreshold(10, 0.1, 0.5));
  EXPECT_DOUBLE_EQ(t, 2.0 * std::log(100.0) / 0.5);
  EXPECT_THAT(GemThreshold(0, 0.1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(GemThreshold(3, 1.0, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(GemThreshold(3, 0.1, -1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
}

TEST(GemScoresTest, HandComputedScores) {
  // Losses q = cost - value: candidate 0: 10 - 100 = -90 (Delta 1),
  // candidate 1: 40 - 200 = -160 (Delta 10). With t = 1: q + t Delta =
  // -89 and -150, so candidate 1 scores 0 and candidate 0 scores
  // (-89 + 150) / 11.
  const std::vector<int64_t> values = {100, 200};
  const std::vector<int64_t> sensitivities = {1, 10};
  const std::vector<double> costs = {10, 40};
  EXPECT_THAT(GemScores({values, sensitivities, costs}, 1.0),
              IsOkAndHolds(::testing::ElementsAre(
                  ::testing::DoubleEq(61.0 / 11.0), 0.0)));
}

TEST(GemScoresTest, RefusesBadInput) {
  const std::vector<int64_t> one = {1};
  const std::vector<int64_t> zero = {0};
  const std::vector<double> cost = {0};
  const std::vector<double> nan = {std::nan("")};
  const std::vector<int64_t> huge = {int64_t{1} << 62};
  EXPECT_THAT(GemScores({one, zero, cost}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(GemScores({one, one, nan}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(GemScores({huge, one, cost}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(GemScores({{}, {}, {}}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  const std::vector<int64_t> two = {1, 2};
  EXPECT_THAT(GemScores({two, one, cost}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
}

// The utility guarantee: with probability >= 1 - beta the chosen i has
// q_i <= q_j + 2 t Delta_j for every j. 2,000 seeded draws with beta = 0.1
// on candidates where most are far from the best; the count of violations
// is Binomial(2000, p <= 0.1): P(count > 270) < 1e-6 (Chernoff), so the
// test's false-failure probability is below 1e-6.
TEST(GemSampleTest, ChoosesWithinTheGuaranteeWithProbabilityOneMinusBeta) {
  // Like theta candidates: value grows then saturates, sensitivity = theta.
  const std::vector<int64_t> sensitivities = {1, 2, 5, 10, 20, 50, 100, 200};
  const std::vector<int64_t> values = {300,  600,  1400, 2500,
                                       3900, 4000, 4000, 4000};
  std::vector<double> costs;
  for (int64_t d : sensitivities) costs.push_back(static_cast<double>(d));
  constexpr double kEpsilon = 0.5, kBeta = 0.1;
  ASSERT_OK_AND_ASSIGN(const double t,
                       GemThreshold(values.size(), kBeta, kEpsilon));
  SeededUrbg urbg(11);
  int violations = 0;
  std::vector<int> chosen(values.size(), 0);
  for (int draw = 0; draw < 2000; ++draw) {
    ASSERT_OK_AND_ASSIGN(
        const size_t i,
        SampleGeneralizedExponentialMechanism(
            urbg, {values, sensitivities, costs}, kEpsilon, kBeta));
    ++chosen[i];
    const double qi = costs[i] - static_cast<double>(values[i]);
    for (size_t j = 0; j < values.size(); ++j) {
      const double qj = costs[j] - static_cast<double>(values[j]);
      if (qi > qj + 2 * t * static_cast<double>(sensitivities[j])) {
        ++violations;
        break;
      }
    }
  }
  EXPECT_LE(violations, 270);
  // Theta 1 and 2 lose thousands against 20 or 50: GEM must avoid them
  // (their normalised scores exceed 4t, weight below e^-(eps 4t / 2.002)).
  EXPECT_EQ(chosen[0] + chosen[1], 0);
}

}  // namespace
}  // namespace dpq::core::dp
