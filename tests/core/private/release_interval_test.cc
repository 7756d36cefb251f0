#include "core/private/release_interval.h"

#include <cstdint>
#include <limits>

#include "core/dp/discrete_laplace.h"
#include "core/measures/measure.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

constexpr double kScale = 10;

int64_t Margin(double miss) {
  return OneSidedMargin(*dp::DiscreteLaplace::Create(kScale), miss);
}

IntervalInputs Inputs(Measure m, int64_t value, GapBound gap) {
  IntervalInputs in;
  in.measure = m;
  in.value = value;
  in.noise_scale = kScale;
  in.gap = gap;
  in.max_rows = 1000;
  return in;
}

TEST(OneSidedMarginTest, IsTheTwoSidedBoundAtTwiceTheMiss) {
  const dp::DiscreteLaplace noise = *dp::DiscreteLaplace::Create(kScale);
  EXPECT_EQ(OneSidedMargin(noise, 0.025), noise.ConfidenceBound(0.95));
  // P(Z > m) = p^(m+1) / (1 + p) <= miss, and m is the smallest such.
  const double p = std::exp(-1 / kScale);
  const int64_t m = OneSidedMargin(noise, 0.01);
  EXPECT_LE(std::pow(p, m + 1) / (1 + p), 0.01);
  EXPECT_GT(std::pow(p, m) / (1 + p), 0.01);
}

TEST(PublicMaximumTest, PerMeasure) {
  EXPECT_EQ(PublicMaximum(Measure::kMinimalInconsistency, 1000), 499500);
  EXPECT_EQ(PublicMaximum(Measure::kProblematic, 1000), 1000);
  EXPECT_EQ(PublicMaximum(Measure::kRepair, 1000), 999);
  EXPECT_EQ(PublicMaximum(Measure::kRepair, 0),
            std::numeric_limits<int64_t>::max());
  // N (N - 1) / 2 beyond int64 saturates.
  EXPECT_EQ(PublicMaximum(Measure::kMinimalInconsistency, uint64_t{1} << 40),
            std::numeric_limits<int64_t>::max());
}

TEST(ComputeReleaseIntervalTest, ExactEstimateIsTwoSidedNoise) {
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval r,
                       ComputeReleaseInterval(Inputs(Measure::kRepair, 100,
                                                     GapBound::kNoneNeeded)));
  EXPECT_EQ(r.value, 100);
  EXPECT_EQ(r.lower, 100 - Margin(0.025));
  EXPECT_EQ(r.upper, 100 + Margin(0.025));
  EXPECT_TRUE(r.upper_proved);
}

TEST(ComputeReleaseIntervalTest, NothingProvedGivesThePublicMaximum) {
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval r,
                       ComputeReleaseInterval(Inputs(Measure::kProblematic, 100,
                                                     GapBound::kNone)));
  EXPECT_EQ(r.lower, 100 - Margin(0.025));
  EXPECT_EQ(r.upper, 1000);
  EXPECT_FALSE(r.upper_proved);
}

TEST(ComputeReleaseIntervalTest, ClampsToThePublicRange) {
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval below,
                       ComputeReleaseInterval(Inputs(Measure::kProblematic, -50,
                                                     GapBound::kNoneNeeded)));
  EXPECT_EQ(below.value, 0);
  EXPECT_EQ(below.lower, 0);
  EXPECT_EQ(below.upper, 0);  // -50 + m < 0: nothing above 0 is proved
  ASSERT_OK_AND_ASSIGN(
      const ReleaseInterval above,
      ComputeReleaseInterval(
          Inputs(Measure::kProblematic, 1069, GapBound::kNoneNeeded)));
  EXPECT_EQ(above.value, 1000);
  EXPECT_EQ(above.lower, 1000);  // 1069 - m is still above N
  EXPECT_EQ(above.upper, 1000);
}

// T <= S max(1, Delta / theta): the upper end scales by degree_upper / theta.
TEST(ComputeReleaseIntervalTest, FlowExtensionScalesByTheDegreeBound) {
  IntervalInputs in =
      Inputs(Measure::kMinimalInconsistency, 400, GapBound::kFlowExtension);
  in.theta = 20;
  in.degree_upper = 50;
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval r, ComputeReleaseInterval(in));
  const int64_t s = 400 + Margin(0.01);
  EXPECT_EQ(r.upper, (s * 50 + 19) / 20);
  EXPECT_TRUE(r.upper_proved);
  // theta at or above the bound: nothing is cut.
  in.degree_upper = 20;
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval exact, ComputeReleaseInterval(in));
  EXPECT_EQ(exact.upper, s);
  // No bound: one-sided.
  in.degree_upper.reset();
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval open, ComputeReleaseInterval(in));
  EXPECT_FALSE(open.upper_proved);
  EXPECT_EQ(open.upper, PublicMaximum(Measure::kMinimalInconsistency, 1000));
}

// I_P <= n <= (n - F_2) + F_theta: the smaller of the two upper ends.
TEST(ComputeReleaseIntervalTest, ProblematicUsesTheUncoveredRows) {
  IntervalInputs in =
      Inputs(Measure::kProblematic, 400, GapBound::kFlowExtension);
  in.theta = 20;
  in.degree_upper = 100;
  in.uncovered_upper = 30;
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval r, ComputeReleaseInterval(in));
  EXPECT_EQ(r.upper, 400 + Margin(0.01) + 30);
  in.degree_upper.reset();
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval rows, ComputeReleaseInterval(in));
  EXPECT_EQ(rows.upper, 400 + Margin(0.01) + 30);
  EXPECT_TRUE(rows.upper_proved);
  // Not for I_MI, which n does not bound.
  in.measure = Measure::kMinimalInconsistency;
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval mi, ComputeReleaseInterval(in));
  EXPECT_FALSE(mi.upper_proved);
}

TEST(ComputeReleaseIntervalTest, CoverLpDoublesAndVertexCoverHalves) {
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval lp,
                       ComputeReleaseInterval(
                           Inputs(Measure::kRepair, 100, GapBound::kCoverLp)));
  EXPECT_EQ(lp.lower, 100 - Margin(0.025));
  EXPECT_EQ(lp.upper, 2 * (100 + Margin(0.025)));
  IntervalInputs greedy = Inputs(Measure::kRepair, 101, GapBound::kNoneNeeded);
  greedy.statistic_at_most_twice = true;
  ASSERT_OK_AND_ASSIGN(const ReleaseInterval vc,
                       ComputeReleaseInterval(greedy));
  const int64_t low = 101 - Margin(0.025);
  EXPECT_EQ(vc.lower, (low + 1) / 2);
  EXPECT_EQ(vc.upper, 101 + Margin(0.025));
}

TEST(ComputeReleaseIntervalTest, RejectsABadScale) {
  IntervalInputs in = Inputs(Measure::kRepair, 1, GapBound::kNoneNeeded);
  in.noise_scale = 0;
  EXPECT_FALSE(ComputeReleaseInterval(in).ok());
}

}  // namespace
}  // namespace dpq::core::private_measures
