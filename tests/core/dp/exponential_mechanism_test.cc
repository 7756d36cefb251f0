#include "core/dp/exponential_mechanism.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include "core/dp/selection_gap.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::DoubleEq;
using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kE = std::numbers::e;

TEST(ExponentialMechanismTest, MatchesPaperTable4) {
  // Inconsistency measures under DP, Table 4: theta candidates with
  // qualities -3.41, -3.82, -4.24, epsilon 1 and Delta 3. The paper prints
  // 0.35, 0.33, 0.31 (truncated); exactly they are exp(q/6) normalised.
  const std::vector<double> q = {-3.41, -3.82, -4.24};
  double total = 0;
  for (double x : q) total += std::exp(x / 6);
  ASSERT_OK_AND_ASSIGN(std::vector<double> p,
                       ExponentialMechanismProbabilities(q, 1, 3));
  ASSERT_EQ(p.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(p[i], std::exp(q[i] / 6) / total, 1e-15);
  }
  EXPECT_THAT(p, ElementsAre(DoubleNear(0.35, 0.01), DoubleNear(0.33, 0.01),
                             DoubleNear(0.31, 0.01)));
}

TEST(ExponentialMechanismTest, ProbabilitiesSumToOne) {
  ASSERT_OK_AND_ASSIGN(
      std::vector<double> p,
      ExponentialMechanismProbabilities({0, 1, 2, 3, 4, 5, 6}, 0.7, 2));
  double total = 0;
  for (double x : p) total += x;
  EXPECT_NEAR(total, 1, 1e-15);
}

TEST(ExponentialMechanismTest, HandComputedTwoCandidates) {
  // exp(eps (q1 - q0) / (2 Delta)) = exp(2 * 1 / 2) = e.
  EXPECT_THAT(ExponentialMechanismProbabilities({0, 1}, 2, 1),
              IsOkAndHolds(ElementsAre(DoubleNear(1 / (1 + kE), 1e-15),
                                       DoubleNear(kE / (1 + kE), 1e-15))));
}

TEST(ExponentialMechanismTest, EqualQualitiesAreUniform) {
  EXPECT_THAT(ExponentialMechanismProbabilities({5, 5, 5, 5}, 1, 1),
              IsOkAndHolds(ElementsAre(DoubleEq(0.25), DoubleEq(0.25),
                                       DoubleEq(0.25), DoubleEq(0.25))));
}

TEST(ExponentialMechanismTest, SingleCandidateIsCertain) {
  EXPECT_THAT(ExponentialMechanismProbabilities({-1e12}, 1, 1),
              IsOkAndHolds(ElementsAre(1.0)));
  SeededUrbg urbg(1);
  EXPECT_THAT(SampleExponentialMechanism(urbg, {42}, 1, 1), IsOkAndHolds(0u));
}

TEST(ExponentialMechanismTest, HugeEpsilonPicksTheMaximum) {
  const std::vector<double> q = {0, 1, 2, 1.5};
  EXPECT_THAT(ExponentialMechanismProbabilities(q, 1e6, 1),
              IsOkAndHolds(ElementsAre(0.0, 0.0, 1.0, 0.0)));
  SeededUrbg urbg(2);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_THAT(SampleExponentialMechanism(urbg, q, 1e6, 1), IsOkAndHolds(2u));
  }
}

TEST(ExponentialMechanismTest, NoOverflowForExtremeEpsilonAndQualities) {
  // eps q / (2 Delta) would be 5e17 (or 5e311 with Delta = 1e-300, past
  // DBL_MAX); the shifted computation never forms it.
  const std::vector<double> q = {-1e12, 1e12, 0, 1e12};
  for (double sensitivity : {1.0, 1e-300, 1e300}) {
    ASSERT_OK_AND_ASSIGN(
        std::vector<double> p,
        ExponentialMechanismProbabilities(q, 1e6, sensitivity));
    for (double x : p) EXPECT_TRUE(std::isfinite(x)) << sensitivity;
    if (sensitivity <= 1) {
      EXPECT_THAT(p, ElementsAre(0.0, 0.5, 0.0, 0.5));
    }
  }
  // Tiny epsilon over huge Delta: the scaled gaps underflow to 0, so the
  // distribution is uniform rather than NaN.
  EXPECT_THAT(ExponentialMechanismProbabilities({-1e12, 1e12}, 1e-300, 1e300),
              IsOkAndHolds(ElementsAre(0.5, 0.5)));
  // Qualities at the ends of the double range.
  const double big = std::numeric_limits<double>::max();
  EXPECT_THAT(ExponentialMechanismProbabilities({-big, big}, 1e6, 1e-300),
              IsOkAndHolds(ElementsAre(0.0, 1.0)));
  EXPECT_THAT(ExponentialMechanismProbabilities({big, big}, 1e6, 1),
              IsOkAndHolds(ElementsAre(0.5, 0.5)));
}

TEST(ExponentialMechanismTest, LargeQualitiesKeepSmallGapsExactly) {
  // Only differences matter: 1e12 + {0, 2} with eps 1, Delta 1 is {0, 2}.
  EXPECT_THAT(ExponentialMechanismProbabilities({1e12, 1e12 + 2}, 1, 1),
              IsOkAndHolds(ElementsAre(DoubleNear(1 / (1 + kE), 1e-15),
                                       DoubleNear(kE / (1 + kE), 1e-15))));
}

TEST(ExponentialMechanismTest, RejectsEmptyCandidates) {
  SeededUrbg urbg(3);
  EXPECT_THAT(ExponentialMechanismProbabilities({}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least one candidate")));
  EXPECT_THAT(SampleExponentialMechanism(urbg, {}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least one candidate")));
}

TEST(ExponentialMechanismTest, RejectsNonFiniteQualities) {
  EXPECT_THAT(ExponentialMechanismProbabilities({0, kNaN}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Quality 1 must be finite, but is nan.")));
  EXPECT_THAT(ExponentialMechanismProbabilities({kInf, 0}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Quality 0 must be finite, but is inf.")));
  SeededUrbg urbg(4);
  EXPECT_THAT(SampleExponentialMechanism(urbg, {0, -kInf}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Quality 1 must be finite, but is -inf.")));
}

TEST(ExponentialMechanismTest, RejectsInvalidEpsilonAndSensitivity) {
  SeededUrbg urbg(5);
  EXPECT_THAT(SampleExponentialMechanism(urbg, {0, 1}, -1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is -1.")));
  EXPECT_THAT(ExponentialMechanismProbabilities({0, 1}, 2e6, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be at most 1000000, but is 2e+06.")));
  EXPECT_THAT(
      ExponentialMechanismProbabilities({0, 1}, 1, 0),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Sensitivity must be finite and positive, but is 0.")));
  EXPECT_THAT(
      SampleExponentialMechanism(urbg, {0, 1}, 1, kNaN),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Sensitivity")));
}

TEST(SelectionGapTest, GapsAreExactDyadicRationalsAtTheMarginEpsilon) {
  // q = {0, 2}, eps 1, Delta 1: gamma_0 = eps' * (2 - 0) / 2 with
  // eps' = (1 - 2^-20) * 1 - 2^-43.
  ASSERT_OK_AND_ASSIGN(const std::vector<SelectionGap> gaps,
                       SelectionGaps({0.0, 2.0}, 1.0, 1.0));
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[1].whole, 0u);  // the best candidate: gap 0
  EXPECT_EQ(gaps[1].fraction, 0u);
  EXPECT_EQ(gaps[0].whole, 0u);
  EXPECT_EQ(gaps[0].fraction,
            (uint64_t{1} << 62) - (uint64_t{1} << 42) - (uint64_t{1} << 19));
}

TEST(SelectionGapTest, TinyProbabilitiesStayPositiveAndLargeGapsAreClamped) {
  // The old floating-point inversion gave exp(-40) (~4e-18 < 2^-53)
  // probability 0 or 2^-53; an exact gap of 40 keeps it exp(-40).
  ASSERT_OK_AND_ASSIGN(std::vector<SelectionGap> gaps,
                       SelectionGaps({0.0, 80.0}, 1.0, 1.0));
  EXPECT_EQ(gaps[0].whole, 39u);  // eps' * 40 is just below 40
  EXPECT_GT(gaps[0].fraction, 0u);
  ASSERT_OK_AND_ASSIGN(gaps, SelectionGaps({0.0, 1e12}, 1e6, 1.0));
  EXPECT_EQ(gaps[0].whole, kMaxGapWhole);
  EXPECT_EQ(gaps[0].fraction, 0u);
  const double big = std::numeric_limits<double>::max();
  ASSERT_OK_AND_ASSIGN(gaps, SelectionGaps({-big, big}, 1e6, 1e-300));
  EXPECT_EQ(gaps[0].whole, kMaxGapWhole);
}

TEST(SelectionGapTest, RefusesEpsilonBelowTheSelectionFloor) {
  EXPECT_THAT(SelectionGaps({0.0, 1.0}, 1e-13, 1.0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2^-40")));
  SeededUrbg urbg(6);
  EXPECT_THAT(SampleExponentialMechanism(urbg, {0.0, 1.0}, 1e-13, 1.0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2^-40")));
  EXPECT_THAT(SelectionGaps({0.0, 1.0}, kMinSelectionEpsilon, 1.0), IsOk());
}

TEST(SelectionGapTest, BernoulliExpGapOfZeroAlwaysAndOfTheClampAlmostNever) {
  SeededUrbg urbg(8);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(SampleBernoulliExpGap(SelectionGap{0, 0}, urbg));
    // exp(-64) < 1.7e-28: 1000 draws all fail except with probability
    // below 1.7e-25.
    ASSERT_FALSE(SampleBernoulliExpGap(SelectionGap{kMaxGapWhole, 0}, urbg));
  }
}

TEST(ExponentialMechanismTest, WorksWithOpenSslUrbg) {
  OpenSslUrbg urbg;
  std::vector<int> counts(3);
  for (int i = 0; i < 300; ++i) {
    ASSERT_OK_AND_ASSIGN(size_t index,
                         SampleExponentialMechanism(urbg, {0, 0, 0}, 1, 1));
    ASSERT_LT(index, 3u);
    ++counts[index];
  }
  // Each count is Binomial(300, 1/3); 0 has probability (2/3)^300 < 1e-52.
  for (int c : counts) EXPECT_GT(c, 0);
}

}  // namespace
}  // namespace dpq::core::dp
