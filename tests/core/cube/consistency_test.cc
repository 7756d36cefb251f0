#include "core/cube/consistency.h"

#include <cmath>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

// A cuboid over dims 0..n-1 of the given sizes with random integer
// "true" counts in [0, 5].
DenseCuboid RandomCuboid(const std::vector<size_t>& sizes,
                         std::mt19937_64& rng) {
  DenseCuboid c;
  size_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    c.dims.push_back(d);
    c.sizes.push_back(sizes[d]);
    n *= sizes[d];
  }
  for (size_t i = 0; i < n; ++i)
    c.counts.push_back(static_cast<double>(rng() % 6));
  return c;
}

DenseCuboid AddNoise(DenseCuboid c, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(0, 3);
  for (double& x : c.counts) x += noise(rng);
  return c;
}

void ExpectMatches(const DenseCuboid& projected, const DenseCuboid& exact) {
  const DenseCuboid agg = AggregateCuboid(projected, exact.dims);
  for (size_t i = 0; i < agg.counts.size(); ++i) {
    EXPECT_NEAR(agg.counts[i], exact.counts[i], 1e-9) << "cell " << i;
  }
}

TEST(ConsistencyTest, OneCuboidClosedFormIsConsistentAndOptimal) {
  std::mt19937_64 rng(1);
  const DenseCuboid truth = RandomCuboid({3, 4, 2}, rng);
  const DenseCuboid exact = AggregateCuboid(truth, {2, 0});
  const DenseCuboid noisy = AddNoise(truth, rng);
  DenseCuboid projected = noisy;
  ASSERT_OK(ProjectOntoExactCuboid(projected, exact));
  ExpectMatches(projected, exact);
  // Optimality (KKT, eq. (7)): the correction is constant on every cell of
  // the exact cuboid, i.e. it lies in the span of the constraints.
  DenseCuboid delta = projected;
  for (size_t i = 0; i < delta.counts.size(); ++i) {
    delta.counts[i] -= noisy.counts[i];
  }
  const DenseCuboid per_cell = AggregateCuboid(delta, {2, 0});
  // Cell (a, b, c) of the 3x4x2 cuboid: index (a * 4 + b) * 2 + c.
  for (size_t a = 0; a < 3; ++a) {
    for (size_t b = 0; b < 4; ++b) {
      for (size_t c = 0; c < 2; ++c) {
        EXPECT_NEAR(delta.counts[(a * 4 + b) * 2 + c],
                    per_cell.counts[c * 3 + a] / 4, 1e-12);
      }
    }
  }
}

// The limit of alternating one-cuboid projections (von Neumann: it
// converges to the projection onto the intersection of the two affine
// sets), as an independent reference for the two-cuboid closed form.
DenseCuboid AlternatingProjections(DenseCuboid x, const DenseCuboid& e1,
                                   const DenseCuboid& e2) {
  for (int it = 0; it < 2000; ++it) {
    EXPECT_TRUE(ProjectOntoExactCuboid(x, e1).ok());
    EXPECT_TRUE(ProjectOntoExactCuboid(x, e2).ok());
  }
  return x;
}

TEST(ConsistencyTest, TwoCuboidsLinearTimeSolutionIsTheLeastSquaresOne) {
  struct Case {
    std::vector<size_t> sizes;
    std::vector<size_t> g1, g2;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4}, {0, 1}, {1, 2}},           // Example 4.1 shape
      {{3, 2, 2, 2}, {0, 1}, {2, 3}},        // empty meet
      {{3, 4, 2}, {2}, {1}},                 // one-dim cuboids, extra dim
      {{3, 4, 2}, {1}, {0, 1}},              // nested
      {{2, 3, 2, 3}, {3, 1, 0}, {2, 1, 3}},  // unsorted, 2-dim meet
  };
  std::mt19937_64 rng(2);
  for (const Case& c : cases) {
    const DenseCuboid truth = RandomCuboid(c.sizes, rng);
    const DenseCuboid e1 = AggregateCuboid(truth, c.g1);
    const DenseCuboid e2 = AggregateCuboid(truth, c.g2);
    const DenseCuboid noisy = AddNoise(truth, rng);
    DenseCuboid projected = noisy;
    ASSERT_OK(ProjectOntoTwoExactCuboids(projected, e1, e2));
    ExpectMatches(projected, e1);
    ExpectMatches(projected, e2);
    const DenseCuboid reference = AlternatingProjections(noisy, e1, e2);
    for (size_t i = 0; i < projected.counts.size(); ++i) {
      EXPECT_NEAR(projected.counts[i], reference.counts[i], 1e-9);
    }
  }
}

TEST(ConsistencyTest, RejectsInconsistentOrForeignExactCuboids) {
  std::mt19937_64 rng(3);
  const DenseCuboid truth = RandomCuboid({2, 3, 2}, rng);
  DenseCuboid e1 = AggregateCuboid(truth, {0});
  const DenseCuboid e2 = AggregateCuboid(truth, {1});
  e1.counts[0] += 1;  // totals now disagree
  DenseCuboid x = truth;
  EXPECT_THAT(
      ProjectOntoTwoExactCuboids(x, e1, e2),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("disagree")));
  DenseCuboid small = AggregateCuboid(truth, {0, 1});
  EXPECT_THAT(ProjectOntoExactCuboid(small, AggregateCuboid(truth, {2})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not all dimensions")));
  EXPECT_THAT(
      ProjectOntoExactCuboids(x, {e2, e2, e2}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at most two")));
}

}  // namespace
}  // namespace dpq::core::cube
