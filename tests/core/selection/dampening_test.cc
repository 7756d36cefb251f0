#include "core/selection/dampening.h"

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::DoubleEq;
using ::testing::DoubleNear;
using ::testing::HasSubstr;

// delta = (0, 3, 4, 5, ...).
double Example(uint64_t t) { return t == 0 ? 0 : 2.0 + t; }

double D(double u, double (*delta)(uint64_t), double global = 1e9,
         uint64_t max_steps = kDefaultMaxDampeningSteps) {
  return *Dampen(u, delta, global, max_steps);
}

TEST(DampeningTest, SpecUnitValues) {
  // delta = (0, 3, 4, ...), u = -5: b = (0, 0, 3, 7): level 2, D = -2.5.
  EXPECT_THAT(Dampen(-5, Example, 1e9, 100), IsOkAndHolds(DoubleEq(-2.5)));
  // Zero-width level 0: D(0) is the first t with a positive delta.
  EXPECT_DOUBLE_EQ(D(0, Example), 1.0);
  // Constant delta = Delta gives D = u / Delta.
  for (double u : {-7.5, -1.0, 0.0, 0.3, 12.0}) {
    EXPECT_DOUBLE_EQ(D(u, [](uint64_t) { return 2.5; }), u / 2.5);
  }
}

TEST(DampeningTest, HitsTheBreakpointsAndIsOdd) {
  // b_i = sum_{j<i} delta(j) with delta(j) = 1 + j / 2.
  const auto delta = [](uint64_t t) { return 1.0 + t / 2.0; };
  double b = 0;
  for (int i = 0; i < 20; ++i) {
    EXPECT_THAT(D(b, delta), DoubleNear(i, 1e-12));
    EXPECT_THAT(D(-b, delta), DoubleNear(-i, 1e-12));
    b += delta(static_cast<uint64_t>(i));
  }
  for (double u : {0.1, 1.7, 33.3})
    EXPECT_DOUBLE_EQ(D(-u, delta), -D(u, delta));
}

TEST(DampeningTest, IsMonotoneNonDecreasing) {
  const auto delta = [](uint64_t t) { return t < 3 ? 0.25 : 0.5 * t; };
  double previous = -std::numeric_limits<double>::infinity();
  for (double u = -40; u <= 40; u += 0.01) {
    const double d = D(u, delta);
    EXPECT_GE(d, previous) << u;
    previous = d;
  }
}

TEST(DampeningTest, CapsAtGlobalAndUsesTailAfterMaxSteps) {
  // delta 10 capped at the global 2: D = u / 2.
  EXPECT_DOUBLE_EQ(D(
                       7, [](uint64_t) { return 10.0; }, 2.0),
                   3.5);
  // delta 0.5 for 4 levels (b_4 = 2), then the tail with delta = global 4:
  // u = 10 gives 4 + (10 - 2) / 4 = 6.
  EXPECT_DOUBLE_EQ(D(
                       10, [](uint64_t) { return 0.5; }, 4.0, 4),
                   6.0);
  EXPECT_DOUBLE_EQ(D(
                       -10, [](uint64_t) { return 0.5; }, 4.0, 4),
                   -6.0);
  // Inside the first levels the tail is irrelevant.
  EXPECT_DOUBLE_EQ(D(
                       1.25, [](uint64_t) { return 0.5; }, 4.0, 4),
                   2.5);
  // All-zero delta: everything beyond 0 goes to the tail.
  EXPECT_DOUBLE_EQ(D(
                       3, [](uint64_t) { return 0.0; }, 1.0, 5),
                   8.0);
}

TEST(DampeningTest, StaysFiniteForHugeScores) {
  const double d = D(
      1e300, [](uint64_t) { return 1e-300; }, 1.0, 1000);
  EXPECT_TRUE(std::isfinite(d));
  EXPECT_GT(d, 1e299);
}

TEST(DampeningTest, RejectsBadInput) {
  const auto one = [](uint64_t) { return 1.0; };
  EXPECT_THAT(
      Dampen(std::nan(""), one, 1, 10),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
  EXPECT_THAT(Dampen(1, one, 0, 10),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("global sensitivity")));
  EXPECT_THAT(
      Dampen(
          5, [](uint64_t t) { return t == 2 ? -1.0 : 1.0; }, 1, 10),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at distance 2")));
  EXPECT_THAT(
      Dampen(
          5, [](uint64_t) { return std::nan(""); }, 1, 10),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("non-negative")));
}

// The breakpoints are exact sums of the (rounded) deltas: D agrees with a
// reference in exact rationals (GMP) to 2^-30 in D units at levels up to
// 10^5, for a constant delta of 0.1 (not a dyadic number: a running double
// sum of it drifts by about 2e-8 over 10^5 terms, 2^-22 in D units, which
// the proof of local dampening cannot afford) and for the rate
// sensitivities 1 / max(C - t, 1).
TEST(DampeningTest, BreakpointsAreExactSums) {
  auto tenth = [](uint64_t) { return 0.1; };
  auto rate = [](uint64_t t) {
    return 1.0 / static_cast<double>(
                     std::max<int64_t>(200'000 - static_cast<int64_t>(t), 1));
  };
  std::mt19937_64 rng(5);
  std::vector<uint64_t> levels = {0, 1, 1000, 50'000, 99'999};
  for (int i = 0; i < 20; ++i) levels.push_back(rng() % 100'000);
  std::sort(levels.begin(), levels.end());
  for (const std::function<double(uint64_t)>& delta :
       {std::function<double(uint64_t)>(tenth),
        std::function<double(uint64_t)>(rate)}) {
    mpq_class b = 0;  // b_t in exact rationals
    uint64_t t = 0;
    for (uint64_t level : levels) {
      for (; t < level; ++t) b += mpq_class(delta(t));
      // u inside level t: b_t + 0.37 delta_t, rounded to a double.
      const mpq_class d_t(delta(t));
      const double u = mpq_class(b + mpq_class(0.37) * d_t).get_d();
      const mpq_class reference =
          mpq_class(static_cast<double>(t)) + (mpq_class(u) - b) / d_t;
      ASSERT_OK_AND_ASSIGN(const double d,
                           Dampen(u, delta, /*global=*/1.0, 100'000));
      EXPECT_NEAR(d, reference.get_d(), std::ldexp(1.0, -30)) << "level " << t;
    }
  }
}

}  // namespace
}  // namespace dpq::core::selection
