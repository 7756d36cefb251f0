#include "server/metrics/text_format.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"

namespace dpq::server::metrics {
namespace {

TEST(TextFormatTest, EscapesLabelValues) {
  EXPECT_EQ(EscapeLabelValue("plain"), "plain");
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  // Only these three are escaped (the format says so).
  EXPECT_EQ(EscapeLabelValue("tab\there {} ="), "tab\there {} =");
}

TEST(TextFormatTest, EscapesHelpButNotQuotes) {
  EXPECT_EQ(EscapeHelp("a \"quoted\" \\ line\nnext"),
            "a \"quoted\" \\\\ line\\nnext");
}

TEST(TextFormatTest, ScaledDecimalIsExact) {
  EXPECT_EQ(ScaledDecimal(15'600'000'000'000, 12), "15.6");
  EXPECT_EQ(ScaledDecimal(1, 12), "0.000000000001");
  EXPECT_EQ(ScaledDecimal(3'000'000'000'000, 12), "3");
  EXPECT_EQ(ScaledDecimal(0, 12), "0");
  EXPECT_EQ(ScaledDecimal(3, 0), "3");
  EXPECT_EQ(ScaledDecimal(-5, 1), "-0.5");
  EXPECT_EQ(ScaledDecimal(1'500'000'001, 9), "1.500000001");
  EXPECT_EQ(ScaledDecimal(std::numeric_limits<int64_t>::max(), 12),
            "9223372.036854775807");
  EXPECT_EQ(ScaledDecimal(std::numeric_limits<int64_t>::min(), 0),
            "-9223372036854775808");
}

TEST(TextFormatTest, FormatsBoundsShortest) {
  EXPECT_EQ(FormatDouble(0.005), "0.005");
  EXPECT_EQ(FormatDouble(0.0005), "0.0005");
  EXPECT_EQ(FormatDouble(1), "1");
  EXPECT_EQ(FormatDouble(2.5), "2.5");
  EXPECT_EQ(FormatDouble(60), "60");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "+Inf");
}

TEST(TextFormatTest, FormatsLabelsInOrder) {
  EXPECT_EQ(FormatLabels({}), "");
  EXPECT_EQ(FormatLabels({{"method", "A.B"}, {"code", "OK"}}),
            "{method=\"A.B\",code=\"OK\"}");
  EXPECT_EQ(FormatLabels({{"dataset", "x\"y"}}), "{dataset=\"x\\\"y\"}");
}

}  // namespace
}  // namespace dpq::server::metrics
