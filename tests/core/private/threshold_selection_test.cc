#include "core/private/threshold_selection.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using measures::Measure;
using ::testing::HasSubstr;

// With a huge selection epsilon the EM returns the best candidate.
constexpr double kNearlyExact = 1e6;  // dp::kMaxEpsilon

TEST(SelectThresholdBasicTest, PicksUnbiasedThetaWhenReleaseNoiseIsTiny) {
  SeededUrbg urbg(1);
  const std::vector<uint32_t> thetas = {1, 2, 3, 4};
  // eps2 large: q ~ -e_bias, best = smallest theta with no truncation (3).
  ASSERT_OK_AND_ASSIGN(const ThresholdSelection s,
                       SelectThresholdBasic(urbg, testing::Figure1Graph(),
                                            Measure::kMinimalInconsistency,
                                            thetas, kNearlyExact, 1e3));
  EXPECT_EQ(s.theta, 3u);
  EXPECT_FALSE(s.first_step_theta.has_value());
  EXPECT_FALSE(s.noisy_degree_bound.has_value());
  EXPECT_EQ(s.epsilon_selection, kNearlyExact);
  EXPECT_EQ(s.epsilon_degree_bound, 0.0);
  EXPECT_EQ(s.num_candidates, 4u);
}

TEST(SelectThresholdBasicTest, Example2PrefersThetaOneAtEpsTwoOne) {
  // Table 3: theta = 1 has the best quality at eps2 = 1.
  SeededUrbg urbg(2);
  const std::vector<uint32_t> thetas = {1, 2, 3};
  ASSERT_OK_AND_ASSIGN(const ThresholdSelection s,
                       SelectThresholdBasic(urbg, testing::Figure1Graph(),
                                            Measure::kMinimalInconsistency,
                                            thetas, kNearlyExact, 1.0));
  EXPECT_EQ(s.theta, 1u);
}

TEST(SelectThresholdHierarchicalTest, SecondStepStaysAtOrBelowFirst) {
  const graph::Graph g = testing::StarGraph(12, 3);
  const std::vector<uint32_t> thetas = {1, 2, 5, 8, 11, 12};
  for (uint64_t seed = 0; seed < 200; ++seed) {
    SeededUrbg urbg(seed);
    ASSERT_OK_AND_ASSIGN(const ThresholdSelection s,
                         SelectThresholdHierarchical(
                             urbg, g, Measure::kProblematic, thetas, 0.5, 0.5));
    ASSERT_TRUE(s.first_step_theta.has_value());
    EXPECT_LE(s.theta, *s.first_step_theta);
    EXPECT_THAT(std::vector<uint32_t>{s.theta}, ::testing::IsSubsetOf(thetas));
    EXPECT_EQ(s.epsilon_selection, 0.5);
  }
}

TEST(SelectThresholdHierarchicalTest, PicksUnbiasedThetaWithTinyNoise) {
  SeededUrbg urbg(4);
  const std::vector<uint32_t> thetas = {1, 2, 3, 4};
  ASSERT_OK_AND_ASSIGN(
      const ThresholdSelection s,
      SelectThresholdHierarchical(urbg, testing::Figure1Graph(),
                                  Measure::kMinimalInconsistency, thetas,
                                  kNearlyExact, 1e3));
  EXPECT_EQ(s.first_step_theta, 3u);
  EXPECT_EQ(s.theta, 3u);
}

TEST(SelectThresholdOptimizedTest, WithoutQualifyingDcsIsHierarchical) {
  const graph::Graph g = testing::StarGraph(12, 3);
  const std::vector<uint32_t> thetas = {1, 2, 5, 8, 11, 12};
  const std::vector<DcDegreeBound> general = {
      {false, 0}, {false, 0}, {true, 4}};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    SeededUrbg a(seed), b(seed);
    ASSERT_OK_AND_ASSIGN(
        const ThresholdSelection opt,
        SelectThresholdOptimized(a, g, Measure::kMinimalInconsistency, thetas,
                                 12, general, 0.4, 0.6));
    ASSERT_OK_AND_ASSIGN(
        const ThresholdSelection hier,
        SelectThresholdHierarchical(b, g, Measure::kMinimalInconsistency,
                                    thetas, 0.4, 0.6));
    EXPECT_EQ(opt.theta, hier.theta);
    EXPECT_EQ(opt.first_step_theta, hier.first_step_theta);
    EXPECT_FALSE(opt.noisy_degree_bound.has_value());
    EXPECT_EQ(opt.epsilon_degree_bound, 0.0);
    EXPECT_EQ(opt.epsilon_selection, 0.4);
  }
}

TEST(SelectThresholdOptimizedTest, SplitsBudgetAndPrunesToTheBound) {
  // Figure 1 from an FD with d_bound = 3; N = 100, default-like Theta.
  const std::vector<uint32_t> thetas = {1, 2, 5, 10, 20, 50, 100};
  const std::vector<DcDegreeBound> fd = {{true, 3}};
  for (uint64_t seed = 0; seed < 50; ++seed) {
    SeededUrbg urbg(seed);
    ASSERT_OK_AND_ASSIGN(
        const ThresholdSelection s,
        SelectThresholdOptimized(urbg, testing::Figure1Graph(),
                                 Measure::kMinimalInconsistency, thetas, 100,
                                 fd, 1.0, 1.5));
    EXPECT_DOUBLE_EQ(s.epsilon_degree_bound, 0.25);
    EXPECT_DOUBLE_EQ(s.epsilon_selection, 0.75);
    ASSERT_TRUE(s.noisy_degree_bound.has_value());
    const uint32_t d = *s.noisy_degree_bound;
    EXPECT_GE(d, 1u);
    EXPECT_LE(d, 100u);
    // theta* is a pruned candidate: <= d~ (all candidates are <= d~ or d~).
    EXPECT_LE(s.theta, d);
    EXPECT_LE(*s.first_step_theta, d);
    EXPECT_EQ(s.num_candidates, thetas.size());
  }
}

TEST(SelectThresholdOptimizedTest, ExactBoundAndGeneralDcKeepN) {
  // Huge epsilons: d~ = 3 exactly, Theta' = {1, 2, 3, 100}; the best is the
  // unbiased theta = 3 when the release noise is negligible.
  const std::vector<uint32_t> thetas = {1, 2, 5, 10, 20, 50, 100};
  const std::vector<DcDegreeBound> mixed = {{true, 3}, {false, 0}};
  SeededUrbg urbg(9);
  ASSERT_OK_AND_ASSIGN(
      const ThresholdSelection s,
      SelectThresholdOptimized(urbg, testing::Figure1Graph(),
                               Measure::kMinimalInconsistency, thetas, 100,
                               mixed, kNearlyExact, 1e3));
  EXPECT_EQ(s.noisy_degree_bound, 3u);
  EXPECT_EQ(s.theta, 3u);
  // A bound that is too small for the graph (d_bound = 1, but the graph
  // has degree 3) plus a general DC: Theta' = {1, 100} with theta_max = 1.
  // The bias of theta = 1 is measured against G_1, so it is 0, and N's
  // quality has only the larger noise term: N is dominated by d~ and can
  // win only by the EM's randomness (a property of paper Algorithm 4).
  const std::vector<DcDegreeBound> loose = {{true, 1}, {false, 0}};
  ASSERT_OK_AND_ASSIGN(
      const ThresholdSelection t,
      SelectThresholdOptimized(urbg, testing::Figure1Graph(),
                               Measure::kMinimalInconsistency, thetas, 100,
                               loose, kNearlyExact, 1e3));
  EXPECT_EQ(t.noisy_degree_bound, 1u);
  EXPECT_EQ(t.first_step_theta, 1u);
  EXPECT_EQ(t.theta, 1u);
}

TEST(SelectThresholdTest, RejectsBadInputs) {
  SeededUrbg urbg(5);
  const graph::Graph g = testing::Figure1Graph();
  const std::vector<uint32_t> ok = {1, 2};
  const std::vector<uint32_t> unsorted = {2, 1};
  EXPECT_THAT(SelectThresholdBasic(urbg, g, Measure::kMinimalInconsistency, {},
                                   1.0, 1.0),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(SelectThresholdBasic(urbg, g, Measure::kMinimalInconsistency,
                                   unsorted, 1.0, 1.0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(SelectThresholdBasic(urbg, g, Measure::kRepair, ok, 1.0, 1.0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(
      SelectThresholdHierarchical(urbg, g, Measure::kProblematic, ok, 0.0, 1.0),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Selection epsilon")));
  EXPECT_THAT(SelectThresholdHierarchical(urbg, g, Measure::kProblematic, ok,
                                          1.0, std::nan("")),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Release epsilon")));
  const std::vector<DcDegreeBound> fd = {{true, 3}};
  // N = 3 < 4 nodes.
  EXPECT_THAT(SelectThresholdOptimized(urbg, g, Measure::kProblematic, ok, 3,
                                       fd, 1.0, 1.0),
              StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::_));
}

}  // namespace
}  // namespace dpq::core::private_measures
