#include "core/util/text_check.h"

#include <string>

#include "gtest/gtest.h"

namespace dpq::core::util {
namespace {

TEST(FindInvalidUtf8Test, AcceptsAsciiAndWellFormedSequences) {
  EXPECT_EQ(FindInvalidUtf8(""), std::nullopt);
  EXPECT_EQ(FindInvalidUtf8("plain ascii, longer than eight bytes"),
            std::nullopt);
  // 2-, 3- and 4-byte sequences at the edges of their ranges.
  EXPECT_EQ(FindInvalidUtf8("\xC2\x80 \xDF\xBF \xE0\xA0\x80 \xED\x9F\xBF "
                            "\xEE\x80\x80 \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF"),
            std::nullopt);
  EXPECT_EQ(FindInvalidUtf8("Z\xC3\xBCrich M\xC3\xBCnchen \xE2\x82\xAC"),
            std::nullopt);
}

TEST(FindInvalidUtf8Test, FindsTheFirstIllFormedByte) {
  // The finding's Latin-1 CSV.
  EXPECT_EQ(FindInvalidUtf8("a,b\n\xff\xfe,2\n1,3\n"), 4u);
  // Past the 8-byte ASCII fast path.
  EXPECT_EQ(FindInvalidUtf8("0123456789abcdef\x80"), 16u);
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("\xE0\x80\xAF"), 0u);      // overlong
  EXPECT_EQ(FindInvalidUtf8("\xED\xA0\x80"), 0u);      // surrogate
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // > U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("\xF5\x80\x80\x80"), 0u);  // bad lead
  EXPECT_EQ(FindInvalidUtf8("ab\xC3"), 2u);            // truncated
  EXPECT_EQ(FindInvalidUtf8("ab\xE2\x82"), 2u);        // truncated
  EXPECT_EQ(FindInvalidUtf8("\xC3\xBC\xBC"), 2u);      // stray continuation
}

TEST(ReplaceInvalidUtf8Test, ReplacesEachBadByteAndKeepsTheRest) {
  EXPECT_EQ(ReplaceInvalidUtf8("a\xff\xfe"
                               "b\xC3\xBC"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b\xC3\xBC");
  EXPECT_EQ(ReplaceInvalidUtf8("ok"), "ok");
  EXPECT_EQ(FindInvalidUtf8(ReplaceInvalidUtf8("\xE2\x82 \xF0\x90")),
            std::nullopt);
}

TEST(DecodeUtf8Test, DecodesEachLength) {
  const std::string text = "A\xc2\x9b\xe2\x89\xa0\xf0\x9f\x98\x80";
  EXPECT_EQ(DecodeUtf8(text, 0, 1), U'A');
  EXPECT_EQ(DecodeUtf8(text, 1, 2), char32_t{0x9B});
  EXPECT_EQ(DecodeUtf8(text, 3, 3), char32_t{0x2260});
  EXPECT_EQ(DecodeUtf8(text, 6, 4), char32_t{0x1F600});
}

TEST(FindControlCharacterTest, FindsC0DelAndC1) {
  auto esc = FindControlCharacter("clean \x1b[2J");
  ASSERT_TRUE(esc.has_value());
  EXPECT_EQ(esc->offset, 6u);
  EXPECT_EQ(esc->code_point, 0x1Bu);
  auto del = FindControlCharacter("x\x7f");
  ASSERT_TRUE(del.has_value());
  EXPECT_EQ(del->code_point, 0x7Fu);
  // U+009B (CSI) encoded as C2 9B; U+00A0 and U+00FC are not controls.
  auto csi = FindControlCharacter(
      "\xC2\xA0\xC3\xBC\xC2\x9B"
      "2J");
  ASSERT_TRUE(csi.has_value());
  EXPECT_EQ(csi->offset, 4u);
  EXPECT_EQ(csi->code_point, 0x9Bu);
  EXPECT_EQ(FindControlCharacter("M\xC3\xBCnchen \xE2\x82\xAC"), std::nullopt);
}

TEST(FindControlCharacterTest, AllowedCharactersPass) {
  EXPECT_EQ(FindControlCharacter("a -> b\r\nc -> d\t# x\n", "\t\r\n"),
            std::nullopt);
  auto lf = FindControlCharacter("one\nfake row");
  ASSERT_TRUE(lf.has_value());
  EXPECT_EQ(lf->offset, 3u);
  EXPECT_EQ(CodePointName(lf->code_point), "U+000A");
}

TEST(PositionOfTest, CountsLinesAndCodePoints) {
  const std::string text = "a,b\nM\xC3\xBC,\xff";
  const TextPosition pos = PositionOf(text, text.size() - 1);
  EXPECT_EQ(pos.line, 2u);
  EXPECT_EQ(pos.character, 4u);  // M, ü, comma, then the bad byte
  EXPECT_EQ(PositionOf(text, 0).line, 1u);
  EXPECT_EQ(PositionOf(text, 0).character, 1u);
}

}  // namespace
}  // namespace dpq::core::util
