#include "core/ledger/epsilon_units.h"

#include <cmath>
#include <cstdint>
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
  EXPECT_THAT(ChargeUnits(QuantizedEpsilon(0.1)), IsOkAndHolds(100'000'000'000));
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
  EXPECT_THAT(ChargeUnits(NAN), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("nan")));
  EXPECT_THAT(ChargeUnits(1e7), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("at most 9000000")));
  EXPECT_THAT(AmountUnits(-1, "granted"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("granted must be finite and at least 0")));
  // Invalid values pass through quantisation unchanged (and are refused by
  // validation).
  EXPECT_TRUE(std::isnan(QuantizedEpsilon(NAN)));
  EXPECT_EQ(QuantizedEpsilon(-1), -1);
}

}  // namespace
}  // namespace dpq::core::ledger
