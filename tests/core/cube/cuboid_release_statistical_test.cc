// Theorem 6.1 (consistency keeps the estimates unbiased and lowers their
// variance) and the error model behind the strategy choice, by seeded
// simulation. False-failure probabilities (normal approximation of means of
// 4000 i.i.d. runs; the fourth moments are finite) are stated per check.
#include <cmath>
#include <string>
#include <vector>

#include "core/cube/consistency.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"
#include "core/cube/release_strategy.h"
#include "core/dp/discrete_laplace.h"
#include "gtest/gtest.h"
#include "tests/core/cube/cube_test_util.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::SeededUrbg;

constexpr int kRuns = 4000;

// A (2 values) x B (3) x C (2) table with uneven counts.
table::Table SmallTable() {
  std::vector<std::vector<std::string>> rows;
  int i = 0;
  for (const char* a : {"a0", "a1"}) {
    for (const char* b : {"b0", "b1", "b2"}) {
      for (const char* c : {"c0", "c1"}) {
        for (int k = 0; k < (i * 7) % 5; ++k) rows.push_back({a, b, c});
        ++i;
      }
    }
  }
  return testing::StringTable({"A", "B", "C"}, rows);
}

// Its complete domains, declared closed (no "other" cell): 2 x 3 x 2.
std::vector<DimensionSpec> SmallSpecs() {
  return {testing::Spec("A", {}, {"a0", "a1"}, true),
          testing::Spec("B", {}, {"b0", "b1", "b2"}, true),
          testing::Spec("C", {}, {"c0", "c1"}, true)};
}

TEST(CuboidReleaseStatisticalTest, ConsistentCellsAreUnbiasedWithLessVariance) {
  const table::Table t = SmallTable();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, SmallSpecs()));
  CuboidReleaseOptions options;
  options.epsilon = 1;
  options.public_exact_cuboids = {{"A", "B"}, {"B", "C"}};
  ASSERT_OK_AND_ASSIGN(Cuboid truth,
                       ComputeExactCuboid(t, schema, {"A", "B", "C"}));
  const size_t n = truth.cells.size();
  ASSERT_EQ(n, 12u);
  std::vector<double> sum(n, 0), sum_sq(n, 0);
  SeededUrbg urbg(61);
  double raw_variance = 0;
  for (int run = 0; run < kRuns; ++run) {
    ASSERT_OK_AND_ASSIGN(
        CuboidRelease r,
        ReleaseCuboids(t, schema, {{"A", "B", "C"}}, options, urbg));
    raw_variance = r.noise_stddev[0] * r.noise_stddev[0];
    for (size_t i = 0; i < n; ++i) {
      const double err = r.cuboids[0].cells[i].count - truth.cells[i].count;
      sum[i] += err;
      sum_sq[i] += err * err;
    }
  }
  // Sensitivity 2 min(|A|, |C|) = 4, scale 4: raw variance ~31.8. The
  // projection keeps a fraction 1 - (1/2 + 1/2 - 1/4) = 1/4 of it per cell.
  EXPECT_NEAR(raw_variance, DiscreteLaplaceVariance(4), 1e-9);
  const double expected_variance = raw_variance / 4;
  const double mean_sd = std::sqrt(expected_variance / kRuns);
  double pooled = 0;
  for (size_t i = 0; i < n; ++i) {
    const double mean = sum[i] / kRuns;
    // Unbiased: |mean error| <= 5 sd; P(false failure) ~ 5.7e-7 per cell,
    // < 1e-5 for the 12 cells.
    EXPECT_LT(std::abs(mean), 5 * mean_sd) << "cell " << i;
    const double variance = sum_sq[i] / kRuns - mean * mean;
    // Below the raw noise variance in every cell (true ratio 1/4; failing
    // needs a 4x overestimate: far beyond 20 sd).
    EXPECT_LT(variance, raw_variance) << "cell " << i;
    pooled += variance / n;
  }
  // And the predicted amount: relative sd of the pooled estimate is at most
  // sqrt((kurtosis - 1) / 4000) ~ 0.035 even if the cells were perfectly
  // correlated; 20% is > 5 sd, P(false failure) < 1e-6.
  EXPECT_NEAR(pooled / expected_variance, 1.0, 0.2);
  RecordProperty("variance_ratio_to_raw",
                 std::to_string(pooled / raw_variance));
}

TEST(CuboidReleaseStatisticalTest, DerivedCuboidErrorMatchesTheStrategyModel) {
  // U = A x B x C (2 x 3 x 2) noised with scale 4, projected onto the exact
  // {A, B}, {B, C}, then summed to R = {A, C}: ProjectedErrorUnits predicts
  // a total squared error of (12 / 4) * (4 - (2 + 2 - 1)) = 3 variances.
  const table::Table t = SmallTable();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, SmallSpecs()));
  ASSERT_OK_AND_ASSIGN(DenseCuboid truth,
                       ComputeDenseCuboid(t, schema, {0, 1, 2}, 100));
  const std::vector<DenseCuboid> exact = {AggregateCuboid(truth, {0, 1}),
                                          AggregateCuboid(truth, {1, 2})};
  const DenseCuboid truth_r = AggregateCuboid(truth, {0, 2});
  const double units =
      ProjectedErrorUnits(schema, {{0, 1}, {1, 2}}, {0, 2}, {0, 1, 2});
  EXPECT_DOUBLE_EQ(units, 3);
  ASSERT_OK_AND_ASSIGN(dp::DiscreteLaplace noise,
                       dp::DiscreteLaplace::Create(4));
  SeededUrbg urbg(62);
  double total = 0;
  for (int run = 0; run < kRuns; ++run) {
    DenseCuboid x = truth;
    for (double& c : x.counts) c += static_cast<double>(noise.Sample(urbg));
    ASSERT_OK(ProjectOntoExactCuboids(x, exact));
    const DenseCuboid r = AggregateCuboid(x, {0, 2});
    for (size_t i = 0; i < r.counts.size(); ++i) {
      total +=
          (r.counts[i] - truth_r.counts[i]) * (r.counts[i] - truth_r.counts[i]);
    }
  }
  // Relative sd of the mean ~ sqrt(2.5 / 4000) = 0.025: 15% is 6 sd,
  // P(false failure) ~ 2e-9.
  const double ratio = total / kRuns / (units * DiscreteLaplaceVariance(4));
  EXPECT_NEAR(ratio, 1.0, 0.15);
  RecordProperty("measured_to_predicted_error", std::to_string(ratio));
}

}  // namespace
}  // namespace dpq::core::cube
