#include "core/cube/generic_sensitivity.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/cube/brute_force_sensitivity.h"
#include "tests/core/cube/cube_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using testing::BruteForce;
using testing::ExactCells;
using ::testing::HasSubstr;
using testing::TinySchema;

TEST(GenericSensitivityTest, Example41) {
  // Q = {{Sex, Age}, {Age, Salary}}: 2 min(|Sex|, |Salary|) = 2 * 2 = 4.
  const table::Table t = testing::Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema,
                       BuildCubeSchema(t, testing::Example21Specs()));
  EXPECT_THAT(BaseCuboidSensitivity(schema, {{0, 1}, {1, 2}}), IsOkAndHolds(4));
  // Lemma 4.4: {Sex, Salary} is not computable from Q: the same bound;
  // {Age} is: it is public, sensitivity 0.
  EXPECT_THAT(CuboidSensitivity(schema, {{0, 1}, {1, 2}}, {0, 2}),
              IsOkAndHolds(4));
  EXPECT_THAT(CuboidSensitivity(schema, {{0, 1}, {1, 2}}, {1}),
              IsOkAndHolds(0));
}

TEST(GenericSensitivityTest, ClosedFormsForZeroOneTwoAndNestedCuboids) {
  const CubeSchema s = TinySchema({2, 3, 4, 5});
  EXPECT_THAT(BaseCuboidSensitivity(s, {}), IsOkAndHolds(1));  // unbounded
  EXPECT_THAT(BaseCuboidSensitivity(s, {{1, 2}}), IsOkAndHolds(2));
  EXPECT_THAT(BaseCuboidSensitivity(s, {{0}, {1}}), IsOkAndHolds(4));
  // size({D2}) = 4, size({D0, D1}) = 6: 2 * 4.
  EXPECT_THAT(BaseCuboidSensitivity(s, {{2, 3}, {0, 1, 3}}), IsOkAndHolds(8));
}

TEST(GenericSensitivityTest, NestedAndDuplicateCuboidsReduceToOne) {
  const CubeSchema s = TinySchema({2, 3, 4});
  EXPECT_EQ(ReduceExactCuboids({{0}, {0, 1}, {1, 0}}),
            (std::vector<DimSet>{{0, 1}}));
  EXPECT_THAT(BaseCuboidSensitivity(s, {{0}, {0, 1}}), IsOkAndHolds(2));
  // Three cuboids of which one is implied: {D1}, {D0, D2} remain,
  // 2 min(3, 2 * 4).
  EXPECT_THAT(BaseCuboidSensitivity(s, {{0}, {1}, {0, 2}}), IsOkAndHolds(6));
}

TEST(GenericSensitivityTest, ThreeCuboidsAreRefusedWithTheReason) {
  const CubeSchema s = TinySchema({2, 2, 2});
  EXPECT_THAT(BaseCuboidSensitivity(s, {{0}, {1}, {2}}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("{D0}, {D1}, {D2}")));
}

// The formulas against brute force over all pairs of feasible tables whose
// counts differ by at most k per cell (brute_force_sensitivity.h).
struct FullCase {
  std::vector<size_t> sizes;
  std::vector<DimSet> q;
  int k;
};

TEST(GenericSensitivityTest, FormulasMatchBruteForceOnTinyDomains) {
  const std::vector<FullCase> cases = {
      {{2, 2}, {}, 2},                   // unbounded: 1
      {{2, 3}, {{0}}, 2},                // one cuboid: 2
      {{2, 3}, {{0}, {1}}, 1},           // Lemma 4.1(ii): 4
      {{2, 2, 2}, {{0, 1}, {1, 2}}, 2},  // Example 4.1 shape: 4
      {{2, 2, 3}, {{0, 1}, {1, 2}}, 1},  // 2 min(2, 3) = 4
      {{2, 2, 2}, {{0, 1}, {2}}, 2},     // meet empty: 2 min(4, 2) = 4
      {{2, 2, 2}, {{0}, {0, 1}}, 2},     // nested: 2
      {{3, 3}, {{0}, {1}}, 1},           // 6
  };
  for (const FullCase& c : cases) {
    std::vector<ExactCells> q;
    for (const DimSet& d : c.q) q.push_back({d, {}});
    BruteForce brute(c.sizes, q);
    DimSet all;
    for (size_t d = 0; d < c.sizes.size(); ++d) all.push_back(d);
    ASSERT_OK_AND_ASSIGN(int64_t formula,
                         BaseCuboidSensitivity(TinySchema(c.sizes), c.q));
    EXPECT_EQ(brute.Sensitivity(all, c.k), formula)
        << "case with " << c.q.size() << " cuboids, " << all.size() << " dims";
  }
}

// k_Q (docs/privacy.md 1.1, finding 5 of docs/privacy.md 7): the largest number
// of rows added or removed between two induced neighbours under Q is the
// largest L1 distance of their histograms over EVERY attribute, cube
// dimensions or not. The registry computes it from the cube's schema alone
// (BaseCuboidSensitivity over the cube dimensions); brute force over a
// domain with one more attribute, in no exact cuboid (the table's other
// columns), shows the two agree. So a release that is epsilon-DP for one
// row added or removed is k_Q epsilon-DP for induced neighbours.
TEST(GenericSensitivityTest, ChargeMultiplierIsTheRowDistanceOfNeighbours) {
  struct Case {
    std::vector<size_t> cube_sizes;  // the cube's dimensions
    size_t extra_size;               // one more attribute outside the cube
    std::vector<DimSet> q;
    int k;
  };
  const std::vector<Case> cases = {
      {{2}, 2, {{0}}, 2},             // one exact cuboid: 2
      {{3}, 3, {{0}}, 2},             // 2
      {{2, 2}, 2, {{0}, {0, 1}}, 1},  // nested: 2
      {{2, 2}, 2, {{0}, {1}}, 1},     // two: 2 min(2, 2) = 4
      {{2, 3}, 2, {{0}, {1}}, 1},     // 2 min(2, 3) = 4
  };
  for (const Case& c : cases) {
    std::vector<size_t> sizes = c.cube_sizes;
    sizes.push_back(c.extra_size);
    std::vector<ExactCells> q;
    for (const DimSet& d : c.q) q.push_back({d, {}});
    BruteForce brute(sizes, q);
    DimSet all;
    for (size_t d = 0; d < sizes.size(); ++d) all.push_back(d);
    ASSERT_OK_AND_ASSIGN(const int64_t k_q,
                         BaseCuboidSensitivity(TinySchema(c.cube_sizes),
                                               ReduceExactCuboids(c.q)));
    EXPECT_EQ(brute.Sensitivity(all, c.k), k_q)
        << c.q.size() << " exact cuboids over " << c.cube_sizes.size()
        << " cube dimensions";
  }
}

TEST(GenericSensitivityTest, ProjectionPropertyLemma44) {
  // Q = {{D0}, {D1}} on 2 x 2 x 2; S(C_base) = 4.
  BruteForce brute({2, 2, 2}, {{{0}, {}}, {{1}, {}}});
  // [C] has D2, outside every exact cuboid: S(C) = S(C_base).
  EXPECT_EQ(brute.Sensitivity({0, 2}, 2), 4);
  EXPECT_EQ(brute.Sensitivity({2}, 2), 4);
  // [C] within the union: between S/2 and S; our bound S is safe.
  const int64_t s01 = brute.Sensitivity({0, 1}, 2);
  EXPECT_GE(s01, 2);
  EXPECT_LE(s01, 4);
  // Computable from Q: public, 0.
  EXPECT_EQ(brute.Sensitivity({0}, 2), 0);
}

TEST(GenericSensitivityTest, ThreeOneDimCuboidsNeedMoreThanTwoCuboidBounds) {
  // The paper's example: Q = {{A1}, {A2}, {A3}} on 2 x 2 x 2 gives 6, more
  // than any two of them would (4): why |Q| >= 3 is refused.
  BruteForce brute({2, 2, 2}, {{{0}, {}}, {{1}, {}}, {{2}, {}}});
  EXPECT_EQ(brute.Sensitivity({0, 1, 2}, 2), 6);
}

// Exact cells of two cuboids (Definition 4.1, our Lemma 4.3).
TEST(GenericSensitivityTest, ExactCellsCounterexampleToTheDraftsLemma43) {
  // A = {a0, a1, a2}, B = {b0, b1, b2}; exact cells (A=a0) and (B=b0).
  // The draft's 2 max_x min(k1, k2) says 2, but {+(a0,b1), -(a0,b0),
  // +(a1,b0)} are induced neighbours at distance 3.
  const CubeSchema s = TinySchema({3, 3});
  const std::vector<bool> e = {true, false, false};
  EXPECT_THAT(ExactCellsSensitivity(s, {0}, e, {1}, e), IsOkAndHolds(3));
  BruteForce brute({3, 3}, {{{0}, e}, {{1}, e}});
  EXPECT_EQ(brute.Sensitivity({0, 1}, 1), 3);
}

TEST(GenericSensitivityTest, ExactCellsFormulaMatchesBruteForce) {
  // Random exactness patterns on two shapes, each with a free extra
  // dimension (the rest of a row), against brute force with k = 1.
  struct Shape {
    std::vector<size_t> sizes;
    DimSet c1, c2;
  };
  const std::vector<Shape> shapes = {
      {{3, 3}, {0}, {1}}, {{2, 3, 2}, {0}, {1}}, {{2, 2, 2}, {0, 1}, {1, 2}}};
  std::mt19937_64 rng(20261122);
  for (const Shape& sh : shapes) {
    const CubeSchema s = TinySchema(sh.sizes);
    const int trials = sh.sizes.size() == 3 && sh.sizes[1] == 3 ? 3 : 6;
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<bool> e1(CuboidSize(s, sh.c1)), e2(CuboidSize(s, sh.c2));
      for (size_t i = 0; i < e1.size(); ++i) e1[i] = rng() % 2;
      for (size_t i = 0; i < e2.size(); ++i) e2[i] = rng() % 2;
      BruteForce brute(sh.sizes, {{sh.c1, e1}, {sh.c2, e2}});
      DimSet all;
      for (size_t d = 0; d < sh.sizes.size(); ++d) all.push_back(d);
      ASSERT_OK_AND_ASSIGN(int64_t formula,
                           ExactCellsSensitivity(s, sh.c1, e1, sh.c2, e2));
      EXPECT_EQ(brute.Sensitivity(all, 1), formula) << "trial " << trial;
    }
  }
}

TEST(GenericSensitivityTest, ExactCellsOfWholeCuboidsGiveLemma42) {
  const CubeSchema s = TinySchema({2, 3, 4});
  const std::vector<bool> all6(6, true), all12(12, true), none12(12, false);
  EXPECT_THAT(ExactCellsSensitivity(s, {0, 1}, all6, {1, 2}, all12),
              IsOkAndHolds(4));  // 2 min(2, 4)
  // Cells of one cuboid only: Lemma 4.3(i), 2.
  EXPECT_THAT(ExactCellsSensitivity(s, {0, 1}, all6, {1, 2}, none12),
              IsOkAndHolds(2));
  EXPECT_THAT(ExactCellsSensitivity(s, {0, 1}, all6, {1, 2}, all6),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("12")));
}

}  // namespace
}  // namespace dpq::core::cube
