#include "core/cube/cuboid_release.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/cube/data_cube.h"
#include "core/cube/release_strategy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/cube/cube_test_util.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using testing::Example21Specs;
using testing::ExpectConsistent;
using testing::Figure1Table;
using ::testing::HasSubstr;
using testing::TinySchemaForStrategy;

class CuboidReleaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    schema_ = *BuildCubeSchema(table_, Example21Specs());
    options_.epsilon = 1.0;
    // Example 4.1's background knowledge.
    options_.public_exact_cuboids = {{"Sex", "Age"}, {"Age", "Salary"}};
  }
  table::Table table_ = Figure1Table();
  CubeSchema schema_;
  CuboidReleaseOptions options_;
};

TEST_F(CuboidReleaseTest, ReleasedCuboidsSatisfyTheExactCuboids) {
  SeededUrbg urbg(7);
  ASSERT_OK_AND_ASSIGN(
      CuboidRelease r,
      ReleaseCuboids(table_, schema_,
                     {{"Sex", "Age", "Salary"}, {"Salary", "Sex"}}, options_,
                     urbg));
  ASSERT_EQ(r.cuboids.size(), 2u);
  EXPECT_EQ(r.sensitivity, 4);  // Example 4.1
  EXPECT_EQ(r.epsilon_spent, 1.0);
  // The base cuboid matches both exact cuboids; {Salary, Sex} matches what
  // they imply on it: {Sex} and {Salary} (and the total).
  ExpectConsistent(table_, schema_, r.cuboids[0], {"Sex", "Age"});
  ExpectConsistent(table_, schema_, r.cuboids[0], {"Age", "Salary"});
  ExpectConsistent(table_, schema_, r.cuboids[1], {"Sex"});
  ExpectConsistent(table_, schema_, r.cuboids[1], {"Salary"});
  EXPECT_EQ(r.cuboids[1].dimensions,
            (std::vector<std::string>{"Salary", "Sex"}));
  EXPECT_EQ(r.cuboids[1].cells[1].values,
            (std::vector<std::string>{"0-10k", "F"}));
}

TEST_F(CuboidReleaseTest, BothStrategiesAreConsistent) {
  // {Sex, Salary} + the base cuboid: per cuboid costs var(8) * (4 + 28)
  // free directions, base var(4) * (7 * 4 + 28): base. {Sex} and {Salary}
  // are public, so the second request noises only {Sex, Salary}: a tie,
  // which goes to per cuboid.
  struct Case {
    std::vector<std::vector<std::string>> request;
    ReleaseStrategy expected;
  };
  for (const Case& c : std::vector<Case>{
           {{{"Sex", "Salary"}, {"Age", "Sex", "Salary"}},
            ReleaseStrategy::kBaseCuboid},
           {{{"Sex", "Salary"}, {"Salary"}, {"Sex"}, {"Salary", "Sex"}},
            ReleaseStrategy::kPerCuboid}}) {
    SeededUrbg urbg(8);
    ASSERT_OK_AND_ASSIGN(
        CuboidRelease r,
        ReleaseCuboids(table_, schema_, c.request, options_, urbg));
    EXPECT_EQ(r.strategy, c.expected);
    for (const Cuboid& cuboid : r.cuboids) {
      for (const std::string& d : cuboid.dimensions) {
        ExpectConsistent(table_, schema_, cuboid, {d});
      }
      ExpectConsistent(table_, schema_, cuboid, {});
    }
  }
}

TEST_F(CuboidReleaseTest, PublicCuboidsAreReturnedExactlyAndFree) {
  SeededUrbg urbg(9);
  ASSERT_OK_AND_ASSIGN(
      CuboidRelease r,
      ReleaseCuboids(table_, schema_, {{"Age"}, {"Salary", "Age"}}, options_,
                     urbg));
  EXPECT_EQ(r.epsilon_spent, 0);
  EXPECT_EQ(r.noise_stddev, (std::vector<double>{0, 0}));
  ASSERT_OK_AND_ASSIGN(Cuboid exact,
                       ComputeExactCuboid(table_, schema_, {"Age"}));
  for (size_t i = 0; i < exact.cells.size(); ++i) {
    EXPECT_EQ(r.cuboids[0].cells[i].count, exact.cells[i].count);
  }
}

TEST_F(CuboidReleaseTest, ReportsTheNoiseStddevOfTheDiscreteLaplace) {
  SeededUrbg urbg(10);
  options_.public_exact_cuboids.clear();  // sensitivity 1
  options_.epsilon = 0.5;
  ASSERT_OK_AND_ASSIGN(
      CuboidRelease r,
      ReleaseCuboids(table_, schema_, {{"Sex"}}, options_, urbg));
  EXPECT_EQ(r.sensitivity, 1);
  // Scale 2: variance 2p / (1 - p)^2 with p = exp(-1/2).
  const double p = std::exp(-0.5);
  EXPECT_NEAR(r.noise_stddev[0], std::sqrt(2 * p / ((1 - p) * (1 - p))), 1e-12);
}

TEST_F(CuboidReleaseTest, SameSeedSameAnswerOtherSeedOtherAnswer) {
  auto release = [&](uint64_t seed) {
    SeededUrbg urbg(seed);
    return ReleaseCuboids(table_, schema_, {{"Sex", "Salary"}}, options_, urbg)
        ->cuboids[0];
  };
  const Cuboid a = release(1), b = release(1), c = release(2);
  bool differs = false;
  for (size_t i = 0; i < a.cells.size(); ++i) {
    EXPECT_EQ(a.cells[i].count, b.cells[i].count);
    differs = differs || a.cells[i].count != c.cells[i].count;
  }
  EXPECT_TRUE(differs);
}

TEST_F(CuboidReleaseTest, RoundingGivesNonNegativeIntegers) {
  SeededUrbg urbg(11);
  options_.non_negative_integral = true;
  options_.epsilon = 0.1;
  ASSERT_OK_AND_ASSIGN(
      CuboidRelease r,
      ReleaseCuboids(table_, schema_, {{"Sex", "Age", "Salary"}}, options_,
                     urbg));
  for (const CuboidCell& cell : r.cuboids[0].cells) {
    EXPECT_GE(cell.count, 0);
    EXPECT_EQ(cell.count, std::round(cell.count));
  }
}

TEST_F(CuboidReleaseTest, BadInputIsRejected) {
  SeededUrbg urbg(12);
  EXPECT_THAT(
      ReleaseCuboids(table_, schema_, {{"Sex", "Height"}}, options_, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'Height'")));
  for (double eps : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    CuboidReleaseOptions o = options_;
    o.epsilon = eps;
    EXPECT_THAT(
        ReleaseCuboids(table_, schema_, {{"Sex"}}, o, urbg),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Epsilon")));
  }
  CuboidReleaseOptions small = options_;
  small.max_cells = 69;  // the base cuboid has 70 cells
  EXPECT_THAT(
      ReleaseCuboids(table_, schema_, {{"Sex", "Age", "Salary"}}, small, urbg),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("69")));
  CuboidReleaseOptions three = options_;
  three.public_exact_cuboids = {{"Sex"}, {"Age"}, {"Salary"}};
  EXPECT_THAT(ReleaseCuboids(table_, schema_, {{"Sex", "Age"}}, three, urbg),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("three or more")));
  CuboidReleaseOptions unknown = options_;
  unknown.public_exact_cuboids = {{"Weight"}};
  EXPECT_THAT(
      ReleaseCuboids(table_, schema_, {{"Sex"}}, unknown, urbg),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'Weight'")));
}

TEST(ReleaseStrategyTest, PicksTheSmallerExpectedError) {
  const CubeSchema s = TinySchemaForStrategy();  // D0, D1 of 10 values, D2 of 2
  // Q empty, {D0} and {D1}: per cuboid noises 20 cells with scale 2/eps,
  // error 2 * 10 * var(2); base noises 100 cells with scale 1/eps, a
  // derived cell sums 10 of them: 2 * 100 * var(1). var(2) ~ 4 var(1).
  ASSERT_OK_AND_ASSIGN(StrategyPlan a,
                       ChooseStrategy(s, {}, {{0}, {1}}, 1, 1, 1000));
  EXPECT_EQ(a.strategy, ReleaseStrategy::kPerCuboid);
  EXPECT_NEAR(a.per_cuboid_error, 20 * DiscreteLaplaceVariance(2), 1e-9);
  EXPECT_NEAR(a.base_cuboid_error, 200 * DiscreteLaplaceVariance(1), 1e-9);
  // {D0, D2}, {D0}, {D2}, {D0, D2}: the union is {D0, D2}: base wins.
  ASSERT_OK_AND_ASSIGN(
      StrategyPlan b,
      ChooseStrategy(s, {}, {{0, 2}, {0}, {2}, {0, 2}}, 1, 1, 1000));
  EXPECT_EQ(b.strategy, ReleaseStrategy::kBaseCuboid);
  EXPECT_EQ(b.base_cuboid_cells, 20u);
  EXPECT_EQ(b.per_cuboid_cells, 32u);
  // With epsilon 1000 both errors are ~0 (a tie goes to per cuboid), but
  // per cuboid needs 32 cells, over the limit of 31: base (20 cells).
  ASSERT_OK_AND_ASSIGN(StrategyPlan c,
                       ChooseStrategy(s, {}, {{0, 2}, {0}, {2}}, 1, 1000, 31));
  EXPECT_EQ(c.strategy, ReleaseStrategy::kBaseCuboid);
  // Both over the limit.
  EXPECT_THAT(
      ChooseStrategy(s, {}, {{0, 1}, {1}}, 1, 1, 19),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("limit of 19")));
}

TEST(ReleaseStrategyTest, ProjectedErrorUnitsCountsTheFreeDirections) {
  const CubeSchema s = TinySchemaForStrategy();
  // Q = {{D0}}: on {D0, D2} the D0-marginal is fixed: 20 - 10 free.
  EXPECT_DOUBLE_EQ(ProjectedErrorUnits(s, {{0}}, {0, 2}, {0, 2}), 10);
  // Q = {{D0}, {D2}} on {D0, D2}: 20 - (10 + 2 - 1) = 9.
  EXPECT_DOUBLE_EQ(ProjectedErrorUnits(s, {{0}, {2}}, {0, 2}, {0, 2}), 9);
  // Derived from U = {D0, D1, D2} (200 cells): times 200 / 20.
  EXPECT_DOUBLE_EQ(ProjectedErrorUnits(s, {{0}, {2}}, {0, 2}, {0, 1, 2}), 90);
  // Q empty: nothing fixed.
  EXPECT_DOUBLE_EQ(ProjectedErrorUnits(s, {}, {1}, {1}), 10);
}

}  // namespace
}  // namespace dpq::core::cube
