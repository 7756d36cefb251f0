#include "core/table/cell_parser.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// The fast parsers must agree with the general ones on every input: the
// same acceptance and, for doubles, the same bits.
void ExpectSameInt64(const std::string& text) {
  int64_t expected = -1;
  int64_t actual = -1;
  const bool ok = ParseInt64(text, &expected);
  ASSERT_EQ(ParseInt64Fast(text, &actual), ok) << "'" << text << "'";
  if (!ok) return;
  EXPECT_EQ(actual, expected) << "'" << text << "'";
}

void ExpectSameDouble(const std::string& text) {
  double expected = -1;
  double actual = -1;
  const bool ok = ParseFiniteDouble(text, &expected);
  ASSERT_EQ(ParseFiniteDoubleFast(text, &actual), ok) << "'" << text << "'";
  if (!ok) return;
  uint64_t expected_bits = 0;
  uint64_t actual_bits = 0;
  std::memcpy(&expected_bits, &expected, 8);
  std::memcpy(&actual_bits, &actual, 8);
  EXPECT_EQ(actual_bits, expected_bits) << "'" << text << "'";
}

const std::vector<std::string>& EdgeCases() {
  static const auto* cases =
      new std::vector<std::string>{"",
                                   " ",
                                   "-",
                                   "+",
                                   "0",
                                   "-0",
                                   "+0",
                                   "00",
                                   "007",
                                   "-007",
                                   "42",
                                   " 42",
                                   "42 ",
                                   "+42",
                                   "--1",
                                   "+-1",
                                   "1-",
                                   "1.",
                                   ".5",
                                   "-.5",
                                   "1.0",
                                   "-0.0",
                                   "0.000",
                                   "6.25",
                                   "6.8863635",
                                   "1e3",
                                   "1E-3",
                                   "12a",
                                   "0x10",
                                   "1 2",
                                   "\t5",
                                   "nan",
                                   "NaN",
                                   "inf",
                                   "1.2.3",
                                   "123456789012345",
                                   "1234567890123456",
                                   "-123456789012345",
                                   "99999999999999.9",
                                   "0.123456789012345",
                                   "0.1234567890123456",
                                   "9223372036854775807",
                                   "-9223372036854775808",
                                   "9223372036854775808",
                                   "-9223372036854775809",
                                   "99999999999999999999",
                                   std::string("1\0", 2),
                                   "1e400"};
  return *cases;
}

TEST(ParseFastTest, AgreesWithTheGeneralParsersOnEdgeCases) {
  for (const std::string& text : EdgeCases()) {
    ExpectSameInt64(text);
    ExpectSameDouble(text);
  }
}

TEST(ParseFastTest, AgreesWithTheGeneralParsersOnRandomNumbers) {
  std::mt19937_64 rng(7);
  const std::string alphabet = "0123456789-.+ e";
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    if (i % 2 == 0) {
      // Plain decimals of up to 17 digits, the fast path and its edges.
      if (rng() % 3 == 0) text += '-';
      text += std::to_string(rng() % 100000000000ULL);
      if (rng() % 2 == 0) {
        text += '.';
        const int digits = 1 + static_cast<int>(rng() % 9);
        for (int d = 0; d < digits; ++d) text += char('0' + rng() % 10);
      }
    } else {
      const int length = static_cast<int>(rng() % 8);
      for (int k = 0; k < length; ++k)
        text += alphabet[rng() % alphabet.size()];
    }
    ExpectSameInt64(text);
    ExpectSameDouble(text);
  }
}

}  // namespace
}  // namespace dpq::core::table::internal
