#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/exponential_mechanism.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/permute_and_flip.h"
#include "core/selection/selection_scores.h"
#include "core/selection/top_k_selection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PermuteAndFlipTest, HugeEpsilonPicksTheBest) {
  SeededUrbg urbg(1);
  const std::vector<double> q = {1, 5, -3, 4.999};
  for (int i = 0; i < 100; ++i) {
    EXPECT_THAT(SamplePermuteAndFlip(urbg, q, 1e5, 1e-3), IsOkAndHolds(1u));
  }
}

TEST(PermuteAndFlipTest, EqualScoresCanAllBeReturned) {
  SeededUrbg urbg(2);
  std::set<size_t> seen;
  const std::vector<double> q(4, 7.0);
  for (int i = 0; i < 200; ++i)
    seen.insert(*SamplePermuteAndFlip(urbg, q, 1, 1));
  EXPECT_EQ(seen.size(), 4u);  // P(miss one) <= 4 (3/4)^200 < 1e-24
}

TEST(PermuteAndFlipTest, RejectsBadInput) {
  SeededUrbg urbg(3);
  EXPECT_THAT(SamplePermuteAndFlip(urbg, {}, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(
      SamplePermuteAndFlip(urbg, {1.0, std::nan("")}, 1, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
  EXPECT_THAT(
      SamplePermuteAndFlip(urbg, {1.0}, 0, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("psilon")));
  EXPECT_THAT(
      SamplePermuteAndFlip(urbg, {1.0}, 1, 0),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ensitivity")));
}

TEST(TopKSelectionTest, HugeEpsilonGivesTheTopKInOrder) {
  SeededUrbg urbg(4);
  SelectionScores s;
  s.scores = {0.1, 0.9, 0.5, 0.7, 0.3};
  s.sensitivity = 1e-3;
  for (GlobalMechanism m :
       {GlobalMechanism::kExponential, GlobalMechanism::kPermuteAndFlip}) {
    EXPECT_THAT(SelectWithoutReplacement(s, 3, 1e5, m, urbg),
                IsOkAndHolds(ElementsAre(1u, 3u, 2u)));
  }
}

TEST(TopKSelectionTest, NeverFallsBackToADeterministicOrder) {
  // All probability on candidate 0 in float64 after the first draw: the
  // remaining draws must still be random (the artifact's argsort fallback
  // would always return 1 then 2 here).
  SeededUrbg urbg(5);
  SelectionScores s;
  s.scores = {1e6, 0, 0, 0};
  s.sensitivity = 1;
  std::set<size_t> second;
  for (int i = 0; i < 100; ++i) {
    auto chosen =
        SelectWithoutReplacement(s, 2, 30, GlobalMechanism::kExponential, urbg);
    ASSERT_TRUE(chosen.ok());
    EXPECT_EQ((*chosen)[0], 0u);
    second.insert((*chosen)[1]);
  }
  EXPECT_EQ(second.size(), 3u);  // P(miss one) <= 3 (2/3)^100 < 1e-17
}

TEST(TopKSelectionTest, RejectsBadInput) {
  SeededUrbg urbg(6);
  SelectionScores s;
  s.scores = {1, 2};
  EXPECT_THAT(
      SelectWithoutReplacement(s, 0, 1, GlobalMechanism::kExponential, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("between")));
  EXPECT_THAT(
      SelectWithoutReplacement(s, 3, 1, GlobalMechanism::kExponential, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("between")));
  EXPECT_THAT(
      SelectWithoutReplacement(s, 1, -2, GlobalMechanism::kExponential, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("psilon")));
  s.sensitivity = 0;
  EXPECT_THAT(
      SelectWithoutReplacement(s, 1, 1, GlobalMechanism::kPermuteAndFlip, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ensitivity")));
}

// Spec 12.12: |R| = 10^6, scores spanning 10^6, epsilon 1e-4 and 1e5.
TEST(NumericalRobustnessTest, MillionCandidatesExtremeEpsilon) {
  const size_t n = 1000000;
  SelectionScores s;
  s.scores.resize(n);
  for (size_t r = 0; r < n; ++r) {
    s.scores[r] = static_cast<double>((r * 7919) % n);  // a permutation
  }
  s.sensitivity = 1;
  const size_t best = 0 + [&] {
    size_t b = 0;
    for (size_t r = 0; r < n; ++r) b = s.scores[r] > s.scores[b] ? r : b;
    return b;
  }();
  for (double eps : {1e-4, 1e5}) {
    auto p = dp::ExponentialMechanismProbabilities(s.scores, eps, 1);
    ASSERT_TRUE(p.ok());
    double sum = 0;
    for (double x : *p) {
      ASSERT_TRUE(std::isfinite(x));
      ASSERT_GE(x, 0);
      sum += x;
    }
    EXPECT_NEAR(sum, 1, 1e-12) << eps;
  }
  SeededUrbg urbg(7);
  for (GlobalMechanism m :
       {GlobalMechanism::kExponential, GlobalMechanism::kPermuteAndFlip}) {
    EXPECT_THAT(SelectWithoutReplacement(s, 1, 1e5, m, urbg),
                IsOkAndHolds(ElementsAre(best)));
    auto low = SelectWithoutReplacement(s, 1, 1e-4, m, urbg);
    ASSERT_TRUE(low.ok());
    EXPECT_LT((*low)[0], n);
  }
}

TEST(NumericalRobustnessTest, ExtremeScoresAndSensitivities) {
  SeededUrbg urbg(8);
  SelectionScores s;
  s.scores = {-1e308, 1e308, 0};
  s.sensitivity = 1e-300;
  for (GlobalMechanism m :
       {GlobalMechanism::kExponential, GlobalMechanism::kPermuteAndFlip}) {
    EXPECT_THAT(SelectWithoutReplacement(s, 2, 1e5, m, urbg),
                IsOkAndHolds(ElementsAre(1u, 2u)));
  }
  s.scores = {-1e300, 1e300, 0};
  s.sensitivity = 1e305;  // every candidate almost equally likely
  std::set<size_t> seen;
  for (int i = 0; i < 200; ++i) {
    seen.insert((*SelectWithoutReplacement(
        s, 1, 1e-4, GlobalMechanism::kPermuteAndFlip, urbg))[0]);
  }
  EXPECT_EQ(seen.size(), 3u);  // P(miss one) <= 3 (2/3)^200 < 1e-34
}

}  // namespace
}  // namespace dpq::core::selection
