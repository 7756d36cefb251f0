// The words and numbers of dpq's tables (client/format).
#include "client/format.h"

#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::HasSubstr;

TEST(FormatEpsilonTest, ExactFromUnitsElseTheDouble) {
  EXPECT_EQ(FormatEpsilon(15'600'000'000'000, 15.600000000000001), "15.6");
  EXPECT_EQ(FormatEpsilon(1, 1e-12), "0.000000000001");
  EXPECT_EQ(FormatEpsilon(1'234'000'000'000'001, 1234.0), "1234.000000000001");
  EXPECT_EQ(FormatEpsilon(0, 0), "0");
  // A server without the units fields: the double, as FormatReal.
  EXPECT_EQ(FormatEpsilon(0, 0.25), "0.25");
}

TEST(FormatRealTest, SixSignificantDigits) {
  EXPECT_EQ(FormatReal(1), "1");
  EXPECT_EQ(FormatReal(0), "0");
  EXPECT_EQ(FormatReal(-0.0), "0");
  EXPECT_EQ(FormatReal(1.0 / 3), "0.333333");
  EXPECT_EQ(FormatReal(2.5), "2.5");
  EXPECT_EQ(FormatReal(1234567.0), "1.23457e+06");
  EXPECT_EQ(FormatReal(0.1 + 0.2), "0.3");
}

TEST(FormatTimestampTest, Rfc3339UtcOrDash) {
  google::protobuf::Timestamp ts;
  EXPECT_EQ(FormatTimestamp(ts), "-");
  ts.set_seconds(1714564800);  // 2024-05-01T12:00:00Z
  EXPECT_EQ(FormatTimestamp(ts), "2024-05-01T12:00:00Z");
}

TEST(NamesTest, MeasuresTypesStates) {
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_MI), "MI");
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_P), "P");
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_R), "R");
  EXPECT_EQ(MeasureLabel(dpq::v1::MEASURE_MI), "I_MI (conflicting pairs)");
  EXPECT_EQ(ColumnTypeName(dpq::v1::COLUMN_TYPE_DOUBLE), "double");
  EXPECT_EQ(LedgerStateName(dpq::v1::LEDGER_ENTRY_STATE_REFUNDED), "REFUNDED");
}

// What the interval covers, in the words measure and report print.
TEST(IntervalWordsTest, RangeAndNote) {
  dpq::v1::MeasureResult r;
  r.set_measure(dpq::v1::MEASURE_MI);
  r.set_estimate(dpq::v1::ESTIMATE_LOWER_BOUND);
  r.set_lower95(10);
  r.set_upper95(40);
  EXPECT_EQ(IntervalRange(r), "at least 10");
  EXPECT_EQ(IntervalNote(r), "no upper limit known: may undercount");
  r.set_upper_proved(true);
  EXPECT_EQ(IntervalRange(r), "10 to 40");
  EXPECT_EQ(IntervalNote(r), "noise only");  // theta reaches every degree
  r.set_truncated(true);
  EXPECT_EQ(IntervalNote(r), "includes the possible undercount");
  r.set_measure(dpq::v1::MEASURE_R);  // cover_bound: the LP gap
  r.set_truncated(false);
  EXPECT_EQ(IntervalNote(r), "includes the possible undercount");
  r.set_estimate(dpq::v1::ESTIMATE_UPPER_BOUND);
  EXPECT_EQ(IntervalNote(r), "includes the possible overcount");
  r.set_estimate(dpq::v1::ESTIMATE_EXACT);
  EXPECT_EQ(IntervalNote(r), "noise only");
}

TEST(FormatCountTest, IntegersExactlyOthersWithTwoDecimals) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(-0.0), "0");
  EXPECT_EQ(FormatCount(12), "12");
  EXPECT_EQ(FormatCount(-3), "-3");
  EXPECT_EQ(FormatCount(1234567), "1234567");
  EXPECT_EQ(FormatCount(12.345), "12.35");
  EXPECT_EQ(FormatCount(-0.5), "-0.50");
  EXPECT_EQ(FormatCount(1e300), absl::StrFormat("%.2f", 1e300));
  EXPECT_EQ(FormatCount(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatCount(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatCount(std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(KindNameTest, UnspecifiedIsATable) {
  EXPECT_EQ(KindName(v1::DATASET_KIND_UNSPECIFIED), "table");
  EXPECT_EQ(KindName(v1::DATASET_KIND_TABLE), "table");
  EXPECT_EQ(KindName(v1::DATASET_KIND_GRAPH), "graph");
}

TEST(MeasuresListTest, CodesJoined) {
  v1::DatasetInfo info;
  EXPECT_EQ(MeasuresList(info, ","), "");
  info.add_supported_measures(v1::MEASURE_MI);
  info.add_supported_measures(v1::MEASURE_R);
  EXPECT_EQ(MeasuresList(info, ", "), "MI, R");
}

TEST(OrDashTest, EmptyIsADashOtherTextIsEscaped) {
  EXPECT_EQ(OrDash(""), "-");
  EXPECT_EQ(OrDash("a\nb"), "a\\nb");
}

}  // namespace
}  // namespace dpq::client
