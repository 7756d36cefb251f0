#include "core/util/json_writer.h"

#include <limits>

#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

TEST(JsonWriterTest, KeepsInsertionOrderAndTypes) {
  JsonObjectWriter j;
  j.Add("measure", "MI").Add("exact", false).Add("value", int64_t{-3});
  j.Add("edges", uint64_t{18446744073709551615u}).AddNull("theta");
  j.AddRaw("list", "[1,2]");
  EXPECT_EQ(j.Finish(),
            "{\"measure\":\"MI\",\"exact\":false,\"value\":-3,"
            "\"edges\":18446744073709551615,\"theta\":null,\"list\":[1,2]}");
}

TEST(JsonWriterTest, EmptyObject) {
  EXPECT_EQ(JsonObjectWriter().Finish(), "{}");
}

TEST(JsonWriterTest, DoublesPrintWithoutBinaryNoiseAndNonFiniteAsNull) {
  JsonObjectWriter j;
  j.Add("a", 0.4 - 0.1).Add("b", 1.0).Add("c", 1e-7).Add("d", 2.5e20);
  j.Add("e", std::numeric_limits<double>::quiet_NaN());
  j.Add("f", std::numeric_limits<double>::infinity());
  EXPECT_EQ(j.Finish(),
            "{\"a\":0.3,\"b\":1,\"c\":1e-07,\"d\":2.5e+20,\"e\":null,"
            "\"f\":null}");
}

TEST(JsonWriterTest, QuotesEscapeSpecialCharactersAndKeepUtf8) {
  EXPECT_EQ(JsonQuote("a\"b\\c\nd\te\x01"), "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
  EXPECT_EQ(JsonQuote("t1.A≠t2.A"), "\"t1.A≠t2.A\"");
}

TEST(JsonWriterTest, QuoteEscapesEscDelAndC1Controls) {
  // Raw, these would reach the terminal of whoever prints the JSON.
  EXPECT_EQ(JsonQuote("\x1b[2J\x7f"), "\"\\u001b[2J\\u007f\"");
  EXPECT_EQ(JsonQuote("a\xc2\x9b"
                      "2J\xc2\xa0"),
            "\"a\\u009b2J\xc2\xa0\"");
}

TEST(JsonWriterTest, QuoteReplacesInvalidUtf8SoTheJsonStaysValid) {
  // A Latin-1 cell, a stray continuation byte, a truncated sequence, an
  // overlong '/', a surrogate: one U+FFFD per byte that is not UTF-8.
  EXPECT_EQ(JsonQuote("\xff\xfe,2"), "\"\\ufffd\\ufffd,2\"");
  EXPECT_EQ(JsonQuote("a\x80"), "\"a\\ufffd\"");
  EXPECT_EQ(JsonQuote("\xe2\x89"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonQuote("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonQuote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonQuote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
}

}  // namespace
}  // namespace dpq::core::util
