#include "client/utf8.h"

#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

TEST(FirstInvalidUtf8Test, AcceptsAsciiAndWellFormedSequences) {
  EXPECT_EQ(FirstInvalidUtf8(""), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("zip -> city\n"), std::nullopt);
  EXPECT_EQ(FirstInvalidUtf8("Z\xc3\xbcrich \xe2\x89\xa0 \xf0\x9f\x98\x80"),
            std::nullopt);
  // Controls are valid UTF-8 (escaping them is output's job).
  EXPECT_EQ(FirstInvalidUtf8(std::string("a\x1b[2J\0b", 7)), std::nullopt);
}

TEST(FirstInvalidUtf8Test, FindsTheFirstBadByte) {
  EXPECT_EQ(FirstInvalidUtf8("a,b\n\xff\xfe,2\n"), 4u);        // Latin-1 bytes
  EXPECT_EQ(FirstInvalidUtf8("ab\x80"), 2u);                   // continuation
  EXPECT_EQ(FirstInvalidUtf8("ab\xc3"), 2u);                   // truncated
  EXPECT_EQ(FirstInvalidUtf8("\xc0\xaf"), 0u);                 // overlong '/'
  EXPECT_EQ(FirstInvalidUtf8("\xe0\x80\xaf"), 0u);             // overlong
  EXPECT_EQ(FirstInvalidUtf8("x\xed\xa0\x80"), 1u);            // surrogate
  EXPECT_EQ(FirstInvalidUtf8("\xf4\x90\x80\x80"), 0u);         // > U+10FFFF
  EXPECT_EQ(FirstInvalidUtf8("\xc3\xa9\xe9"), 2u);             // é then Latin-1
}

TEST(DecodeUtf8Test, DecodesEachLength) {
  const std::string text = "A\xc2\x9b\xe2\x89\xa0\xf0\x9f\x98\x80";
  EXPECT_EQ(DecodeUtf8(text, 0, 1), U'A');
  EXPECT_EQ(DecodeUtf8(text, 1, 2), char32_t{0x9B});
  EXPECT_EQ(DecodeUtf8(text, 3, 3), char32_t{0x2260});
  EXPECT_EQ(DecodeUtf8(text, 6, 4), char32_t{0x1F600});
}

TEST(CheckUtf8ValueTest, NamesTheFlagAndTheByte) {
  EXPECT_TRUE(CheckUtf8Value("--description", "Zürich").ok());
  EXPECT_THAT(CheckUtf8Value("--description", "ab\xff"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--description is not valid UTF-8: byte 3 is 0xff."));
}

TEST(CheckUtf8FileTest, GivesLineAndColumnInCodePoints) {
  EXPECT_TRUE(CheckUtf8File("--constraints", "dc.txt", "a -> b\n").ok());
  EXPECT_THAT(
      CheckUtf8File("--constraints", "dc.txt", "a -> b\n\xc3\xa9 -> \xff\n"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "dc.txt:2:6: not valid UTF-8 (byte 0xff); --constraints files "
               "must be UTF-8 text."));
  EXPECT_THAT(CheckUtf8File("--nodes", "n.txt", "\xfe"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("n.txt:1:1: not valid UTF-8 (byte 0xfe)")));
}

}  // namespace
}  // namespace dpq::client
