#include "core/table/cell_parser.h"

#include <cstdint>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::core::table::internal {
namespace {

TEST(ParseInt64Test, AcceptsSignsSpacesAndLeadingZeros) {
  int64_t value = 0;
  ASSERT_TRUE(ParseInt64("42", &value));
  EXPECT_EQ(value, 42);
  ASSERT_TRUE(ParseInt64("  -17 ", &value));
  EXPECT_EQ(value, -17);
  ASSERT_TRUE(ParseInt64("+8", &value));
  EXPECT_EQ(value, 8);
  ASSERT_TRUE(ParseInt64("01907", &value));
  EXPECT_EQ(value, 1907);
}

TEST(ParseInt64Test, AcceptsTheInt64LimitsAndRejectsOverflow) {
  int64_t value = 0;
  ASSERT_TRUE(ParseInt64("9223372036854775807", &value));
  EXPECT_EQ(value, std::numeric_limits<int64_t>::max());
  ASSERT_TRUE(ParseInt64("-9223372036854775808", &value));
  EXPECT_EQ(value, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(ParseInt64("9223372036854775808", &value));
  EXPECT_FALSE(ParseInt64("-9223372036854775809", &value));
  EXPECT_FALSE(ParseInt64("99999999999999999999", &value));
}

TEST(ParseInt64Test, RejectsNonIntegers) {
  int64_t value = 0;
  for (const char* text : {"", " ", "-", "+", "1.0", "1e3", "12a", "0x10",
                           "1 2", "\t5", "--1", "+-1"}) {
    EXPECT_FALSE(ParseInt64(text, &value)) << text;
  }
}

TEST(ParseFiniteDoubleTest, AcceptsDecimalNumbers) {
  double value = 0;
  ASSERT_TRUE(ParseFiniteDouble(" 5.25 ", &value));
  EXPECT_EQ(value, 5.25);
  ASSERT_TRUE(ParseFiniteDouble("-1e3", &value));
  EXPECT_EQ(value, -1000.0);
  ASSERT_TRUE(ParseFiniteDouble("+.5", &value));
  EXPECT_EQ(value, 0.5);
}

TEST(ParseFiniteDoubleTest, RejectsNonFiniteAndNonNumbers) {
  double value = 0;
  for (const char* text :
       {"", "nan", "NaN", "inf", "-Infinity", "1e999", "abc", "1.2.3", "\t1.5",
        "1.5\n", "0x1p3", "0x10", "1,5", "e5", "."}) {
    EXPECT_FALSE(ParseFiniteDouble(text, &value)) << text;
  }
}

TEST(InferenceTest, LeadingZerosAreNotNumbers) {
  EXPECT_TRUE(IsInferableInt64("0"));
  EXPECT_TRUE(IsInferableInt64("-0"));
  EXPECT_TRUE(IsInferableInt64("1907"));
  EXPECT_FALSE(IsInferableInt64("01907"));
  EXPECT_FALSE(IsInferableInt64("-007"));
  EXPECT_FALSE(IsInferableInt64(" 00 "));
  EXPECT_TRUE(IsInferableDouble("0.5"));
  EXPECT_TRUE(IsInferableDouble("0e1"));
  EXPECT_FALSE(IsInferableDouble("01907"));
  EXPECT_FALSE(IsInferableDouble("00.5"));
}

}  // namespace
}  // namespace dpq::core::table::internal
