#include "core/ledger/epsilon_units.h"

#include <cmath>
#include <cstdint>
#include <ios>
#include <limits>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::ledger {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

TEST(EpsilonUnitsTest, ChargesRoundUpAndAmountsToNearest) {
  // double(0.1) is a little above 0.1: charged as is, it needs one more
  // unit; quantised, exactly 10^11 units.
  EXPECT_THAT(ChargeUnits(0.1), IsOkAndHolds(100'000'000'001));
  EXPECT_THAT(ChargeUnits(QuantizedEpsilon(0.1)),
              IsOkAndHolds(100'000'000'000));
  EXPECT_THAT(AmountUnits(0.1, "x"), IsOkAndHolds(100'000'000'000));
  EXPECT_THAT(ChargeUnits(0.25), IsOkAndHolds(250'000'000'000));
  EXPECT_THAT(ChargeUnits(1e-300), IsOkAndHolds(1));
  EXPECT_EQ(FromUnits(100'000'000'000), 0.1);
}

TEST(EpsilonUnitsTest, QuantisedEpsilonIsNeverAboveItsUnits) {
  std::mt19937_64 rng(5);
  // Up to 1000 epsilon a double resolves every unit (ulp(4503) ~ 10^-12);
  // above, ChargeUnits still rounds up, so the charge covers the spend.
  std::uniform_real_distribution<double> log_eps(-6, 3);
  for (int i = 0; i < 100000; ++i) {
    const double eps = std::pow(10.0, log_eps(rng));
    const double q = QuantizedEpsilon(eps);
    const int64_t units = static_cast<int64_t>(std::nearbyint(eps * 1e12));
    // q <= units / 10^12 exactly, and the charge of q is exactly `units`.
    ASSERT_LE(std::fma(q, 1e12, -static_cast<double>(units)), 0) << eps;
    ASSERT_THAT(ChargeUnits(q), IsOkAndHolds(units)) << eps;
    // And q is as large as that allows (one ulp more is above).
    ASSERT_GT(std::fma(std::nextafter(q, INFINITY), 1e12,
                       -static_cast<double>(units)),
              0)
        << eps;
  }
}

// The exact ceiling of epsilon * 10^12, for epsilon >= 2^52 / 10^12
// (about 4504), where p = fl(epsilon * 10^12) is an integer: the product is
// exactly p + e with e = fma(epsilon, 10^12, -p), |e| <= 1, and ceil(p + e)
// = p + ceil(e). An independent reference for ChargeUnits there.
int64_t ReferenceCeilUnits(double epsilon) {
  const double p = epsilon * 1e12;
  const double e = std::fma(epsilon, 1e12, -p);
  return static_cast<int64_t>(p) + static_cast<int64_t>(std::ceil(e));
}

// Above epsilon ~9007 (2^53 units) adjacent doubles of the product are 2
// apart; ChargeUnits must still charge the exact ceiling (docs/privacy.md
// 5.1: it used to add 1 in double, a tie rounded back to even, a unit
// short).
TEST(EpsilonUnitsTest, ChargeIsTheExactCeilingAboveTwoToTheFiftyThreeUnits) {
  // The audit's example: 13233.456 * 10^12 is 13233456000000000.13...
  EXPECT_THAT(ChargeUnits(13233.456), IsOkAndHolds(13'233'456'000'000'001));
  EXPECT_EQ(ReferenceCeilUnits(13233.456), 13'233'456'000'000'001);
  std::mt19937_64 rng(30);
  std::uniform_real_distribution<double> log_eps(std::log10(4504.0),
                                                 std::log10(9e6));
  for (int i = 0; i < 200000; ++i) {
    const double eps = std::pow(10.0, log_eps(rng));
    ASSERT_THAT(ChargeUnits(eps), IsOkAndHolds(ReferenceCeilUnits(eps)))
        << std::hexfloat << eps;
  }
  // Every double just above 9007 (first spacing of 2 units), one per ulp.
  double eps = 9007.2;
  for (int i = 0; i < 20000; ++i, eps = std::nextafter(eps, INFINITY)) {
    ASSERT_THAT(ChargeUnits(eps), IsOkAndHolds(ReferenceCeilUnits(eps)))
        << std::hexfloat << eps;
  }
  EXPECT_THAT(ChargeUnits(9e6), IsOkAndHolds(kMaxUnits));
}

// Below 2^53 units the ceiling u is a double, so fma decides it exactly:
// u - 1 < epsilon * 10^12 <= u.
TEST(EpsilonUnitsTest, ChargeIsTheExactCeilingAtEveryScale) {
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<double> log_eps(-15, std::log10(9000.0));
  for (int i = 0; i < 200000; ++i) {
    const double eps = std::pow(10.0, log_eps(rng));
    ASSERT_OK_AND_ASSIGN(const int64_t u, ChargeUnits(eps));
    const double units = static_cast<double>(u);
    ASSERT_LE(std::fma(eps, 1e12, -units), 0) << std::hexfloat << eps;
    if (u > 1) {
      ASSERT_GT(std::fma(eps, 1e12, -(units - 1)), 0) << std::hexfloat << eps;
    }
  }
  EXPECT_THAT(ChargeUnits(std::numeric_limits<double>::denorm_min()),
              IsOkAndHolds(1));
  EXPECT_THAT(ChargeUnits(1e-12), IsOkAndHolds(1));
  EXPECT_THAT(ChargeUnits(1), IsOkAndHolds(1'000'000'000'000));
}

TEST(EpsilonUnitsTest, ExactSumsShowNoDrift) {
  // The example: 20 - 1 - 1 - 1 - 0.9 - 0.5 in doubles is
  // 15.600000000000001; in units it is 15.6.
  int64_t remaining = *AmountUnits(20, "granted");
  for (double spent : {1.0, 1.0, 1.0, 0.9, 0.5}) {
    remaining -= *ChargeUnits(QuantizedEpsilon(spent));
  }
  EXPECT_EQ(FromUnits(remaining), 15.6);
}

TEST(EpsilonUnitsTest, DecimalIsExactWithoutTrailingZeros) {
  EXPECT_EQ(UnitsDecimal(15'600'000'000'000), "15.6");
  EXPECT_EQ(UnitsDecimal(3'000'000'000'000), "3");
  EXPECT_EQ(UnitsDecimal(1), "0.000000000001");
  EXPECT_EQ(UnitsDecimal(0), "0");
  EXPECT_EQ(UnitsDecimal(-500'000'000'000), "-0.5");
  EXPECT_EQ(UnitsDecimal(-1), "-0.000000000001");
  EXPECT_EQ(UnitsDecimal(100'000'000'001), "0.100000000001");
  EXPECT_EQ(UnitsDecimal(1'010'000'000'000), "1.01");
  EXPECT_EQ(UnitsDecimal(kMaxUnits), "9000000");
  EXPECT_EQ(UnitsDecimal(std::numeric_limits<int64_t>::max()),
            "9223372.036854775807");
  EXPECT_EQ(UnitsDecimal(std::numeric_limits<int64_t>::min()),
            "-9223372.036854775808");
}

TEST(EpsilonUnitsTest, RejectsWhatNoBudgetCanHold) {
  EXPECT_THAT(ChargeUnits(0), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("finite and positive")));
  EXPECT_THAT(ChargeUnits(NAN),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nan")));
  EXPECT_THAT(ChargeUnits(1e7), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("at most 9000000")));
  EXPECT_THAT(AmountUnits(-1, "granted"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("granted must be finite and at least 0")));
  // A grant of 1e-13 was accepted and stored as 0 (a cap of 1e-13 would
  // have removed the cap).
  for (const double tiny : {1e-13, 4.9e-13, 5e-13, 1e-300}) {
    EXPECT_THAT(AmountUnits(tiny, "epsilon"),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("would be stored as 0")))
        << tiny;
  }
  EXPECT_THAT(AmountUnits(0, "cap"), IsOkAndHolds(0));
  EXPECT_THAT(AmountUnits(6e-13, "cap"), IsOkAndHolds(1));
  EXPECT_THAT(AmountUnits(1e-12, "cap"), IsOkAndHolds(1));
  // Invalid values pass through quantisation unchanged (and are refused by
  // validation).
  EXPECT_TRUE(std::isnan(QuantizedEpsilon(NAN)));
  EXPECT_EQ(QuantizedEpsilon(-1), -1);
}

}  // namespace
}  // namespace dpq::core::ledger
