#include "client/token.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kToken[] =
    "dpq_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

TEST(CleanTokenTest, KeepsAWellFormedToken) {
  EXPECT_THAT(CleanToken(kToken, "--token"), IsOkAndHolds(kToken));
}

TEST(CleanTokenTest, DropsOneTrailingNewline) {
  const std::string token(kToken);
  EXPECT_THAT(CleanToken(token + "\n", "--token"), IsOkAndHolds(token));
  EXPECT_THAT(CleanToken(token + "\r\n", "--token"), IsOkAndHolds(token));
}

TEST(CleanTokenTest, RefusesASecondNewlineWithoutShowingTheToken) {
  const std::string token(kToken);
  const absl::StatusOr<std::string> cleaned =
      CleanToken(token + "\n\n", "DPQ_TOKEN");
  EXPECT_THAT(cleaned,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("DPQ_TOKEN: the token's character 69 "
                                       "is a control character"),
                             Not(HasSubstr("dpq_")), Not(HasSubstr("\n")))));
}

TEST(CleanTokenTest, NamesThePositionAndKindOfABadByteOnly) {
  EXPECT_THAT(CleanToken("dpq_ab\x01"
                         "cd",
                         "--token"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("character 7 is a control character"),
                             Not(HasSubstr("dpq_ab")), Not(HasSubstr("0x01")),
                             Not(HasSubstr("\x01")))));
  EXPECT_THAT(CleanToken("dpq_\xff", "--token"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("character 5 is a non-ASCII byte"),
                             Not(HasSubstr("0xff")), Not(HasSubstr("\xff")))));
  EXPECT_THAT(CleanToken(" dpq_x", "--token"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("character 1 is a space")));
  EXPECT_THAT(CleanToken("dpq_\x7f", "--token"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("character 5 is a control character")));
}

TEST(CleanTokenTest, RefusesAnEmptyToken) {
  EXPECT_THAT(CleanToken("\n", "--token-file 't'"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "--token-file 't' holds no token."));
}

}  // namespace
}  // namespace dpq::client
