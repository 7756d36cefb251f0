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
