// The exact certificate behind the cover bound: rationals recovered from
// doubles (core/measures/rational_recovery.h) and LP optima certified by a
// primal and a dual solution in integers (certified_packing_lp.h).
#include "core/measures/certified_packing_lp.h"

#include <cstdint>
#include <vector>

#include "core/measures/rational_recovery.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::measures {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Optional;

// numerator / denominator == n / d, crosswise.
bool Equals(const ExactRational& r, int64_t n, int64_t d) {
  return r.numerator * d == static_cast<__int128>(n) * r.denominator;
}

TEST(RationalRecoveryTest, FindsTheCommonDenominator) {
  std::optional<ScaledIntegers> s = RecoverCommonDenominator(
      {1.0 / 3, 2.0 / 3, 0.5, 1.0, 0.0}, 1e-12, int64_t{1} << 40, 1.0);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->denominator, 6);
  EXPECT_THAT(s->numerators, ElementsAre(2, 4, 3, 6, 0));
}

TEST(RationalRecoveryTest, AbsorbsErrorsBelowTheTolerance) {
  std::optional<ScaledIntegers> s = RecoverCommonDenominator(
      {1.0 / 7 + 3e-10, 0.25 - 2e-10, -3.0 / 5 + 1e-10}, 1e-9, 1 << 20, 1.0);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->denominator, 140);
  EXPECT_THAT(s->numerators, ElementsAre(20, 35, -84));
}

TEST(RationalRecoveryTest, RefusesWhatNeedsTooLargeADenominator) {
  // pi has no denominator below 2^20 within 1e-12.
  EXPECT_FALSE(
      RecoverCommonDenominator({3.141592653589793}, 1e-12, 1 << 20, 10.0)
          .has_value());
  // 1/1000003 is read with room for its denominator, not without.
  EXPECT_THAT(RecoverCommonDenominator({1.0 / 1000003}, 1e-15, 1000003, 1.0),
              Optional(Field(&ScaledIntegers::denominator, 1000003)));
  EXPECT_FALSE(RecoverCommonDenominator({1.0 / 1000003}, 1e-15, 1000000, 1.0)
                   .has_value());
  // Nor past denominator * tolerance = 1/4, whatever the caller allows.
  EXPECT_FALSE(
      RecoverCommonDenominator({1.0 / 1000003}, 1e-6 / 3, int64_t{1} << 40, 1.0)
          .has_value());
  EXPECT_FALSE(
      RecoverCommonDenominator({std::nan("")}, 1e-9, 1 << 20, 1.0).has_value());
  EXPECT_FALSE(RecoverCommonDenominator({2.0}, 1e-9, 1 << 20, 1.0).has_value());
}

// Each test's LPs are gone by TearDown, which frees the thread's GLPK
// environment (LeakSanitizer reports it otherwise).
class CertifiedPackingLpTest : public ::testing::Test {
 protected:
  void TearDown() override { CertifiedPackingLp::FreeThreadEnvironment(); }
};

// max y1 + y2 + y3 over a triangle's edges: 3/2 at y = 1/2; with the
// triangle row, 1.
TEST_F(CertifiedPackingLpTest, TriangleLpIsExact) {
  CertifiedPackingLp lp;
  EXPECT_EQ(lp.AddColumns(3, 1), 1);
  lp.AddRow({{1, 1}, {2, 1}}, 1);
  lp.AddRow({{1, 1}, {3, 1}}, 1);
  lp.AddRow({{2, 1}, {3, 1}}, 1);
  ASSERT_OK_AND_ASSIGN(CertifiedPackingLp::Bounds edges,
                       lp.Maximize("the test LP"));
  EXPECT_TRUE(edges.exact());
  EXPECT_TRUE(Equals(edges.lower, 3, 2));
  EXPECT_EQ(edges.primal.denominator, 2);
  EXPECT_THAT(edges.primal.numerators, ElementsAre(1, 1, 1));
  lp.AddRow({{1, 1}, {2, 1}, {3, 1}}, 1);
  ASSERT_OK_AND_ASSIGN(CertifiedPackingLp::Bounds triangle,
                       lp.Maximize("the test LP"));
  EXPECT_TRUE(triangle.exact());
  EXPECT_TRUE(Equals(triangle.lower, 1, 1));
}

// K4's four triangle rows: 3 Y <= 4, attained at y = 1/3 (not a double).
TEST_F(CertifiedPackingLpTest, FourThirdsIsExact) {
  CertifiedPackingLp lp;
  lp.AddColumns(4, 1);
  for (int a = 1; a <= 4; ++a) {
    std::vector<std::pair<int, int32_t>> row;
    for (int b = 1; b <= 4; ++b) {
      if (b != a) row.emplace_back(b, 1);
    }
    lp.AddRow(row, 1);
  }
  ASSERT_OK_AND_ASSIGN(CertifiedPackingLp::Bounds o,
                       lp.Maximize("the test LP"));
  EXPECT_TRUE(o.exact());
  EXPECT_TRUE(Equals(o.lower, 4, 3));
  EXPECT_FALSE(Equals(o.lower, 13333333333, 10000000000));
}

// Columns with objective 0 (the z of a block part) count in the rows, not
// in the value: a block of parts {y1, y2} and {y3}, built as clique_lp_bound
// builds it, allows y1 = y2 = 1 (one part) and then y3 = 0.
TEST_F(CertifiedPackingLpTest, ZeroObjectiveColumnsBindThroughRows) {
  CertifiedPackingLp lp;
  lp.AddColumns(3, 1);                // y1, y2, y3
  const int z = lp.AddColumns(1, 0);  // z of part {y1, y2}
  lp.AddRow({{1, 1}, {z, -1}}, 0);
  lp.AddRow({{2, 1}, {z, -1}}, 0);
  lp.AddRow({{z, 1}, {3, 1}}, 1);  // the block: z + y3 <= 1
  ASSERT_OK_AND_ASSIGN(CertifiedPackingLp::Bounds o,
                       lp.Maximize("the test LP"));
  EXPECT_TRUE(o.exact());
  EXPECT_TRUE(Equals(o.upper, 2, 1));
}

// An optimum whose denominator (the product of two primes near 2^31) is
// beyond what a double carries is refused, not rounded.
TEST_F(CertifiedPackingLpTest, RefusesAnOptimumItCannotCertify) {
  CertifiedPackingLp lp;
  lp.AddColumns(2, 1);
  lp.AddRow({{1, 2147483647}}, 1);  // x1 <= 1 / (2^31 - 1)
  lp.AddRow({{2, 2147483629}}, 1);  // x2 <= 1 / 2147483629
  EXPECT_THAT(lp.Maximize("the test LP"),
              StatusIs(absl::StatusCode::kInternal,
                       HasSubstr("could not be certified")));
}

// The edge rows of the squared cycle C_n^2 (y_i + y_{i+1} <= 1 and y_i +
// y_{i+2} <= 1) at a size that takes the interior point method first.
void SquaredCycleEdges(int n, CertifiedPackingLp& lp) {
  lp.AddColumns(n, 1);
  for (int i = 0; i < n; ++i) {
    lp.AddRow({{i + 1, 1}, {(i + 1) % n + 1, 1}}, 1);
    lp.AddRow({{i + 1, 1}, {(i + 2) % n + 1, 1}}, 1);
  }
}

// Bounds from the interior point method enclose the optimum the simplex
// certifies exactly (n / 2 at y = 1/2).
TEST_F(CertifiedPackingLpTest, InteriorPointBoundsEncloseTheOptimum) {
  constexpr int kN = 6000;
  CertifiedPackingLp bounded, exact;
  SquaredCycleEdges(kN, bounded);
  SquaredCycleEdges(kN, exact);
  ASSERT_OK_AND_ASSIGN(
      CertifiedPackingLp::Bounds b,
      bounded.Maximize("the test LP", CertifiedPackingLp::Precision::kBounds));
  ASSERT_OK_AND_ASSIGN(CertifiedPackingLp::Bounds e,
                       exact.Maximize("the test LP"));
  EXPECT_TRUE(e.exact());
  EXPECT_TRUE(Equals(e.lower, kN / 2, 1));
  // lower <= n/2 <= upper, crosswise, and the primal read exactly.
  EXPECT_LE(b.lower.numerator,
            static_cast<__int128>(kN / 2) * b.lower.denominator);
  EXPECT_GE(b.upper.numerator,
            static_cast<__int128>(kN / 2) * b.upper.denominator);
  EXPECT_EQ(b.primal.numerators.size(), static_cast<size_t>(kN));
}

}  // namespace
}  // namespace dpq::core::measures
