#include "client/request_id.h"

#include <string>

#include "absl/container/flat_hash_set.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/constant_urbg.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

TEST(GenerateRequestIdTest, Is128BitsOfHexAfterPrefix) {
  dpq::testing::ConstantUrbg urbg(0x0123456789abcdefULL);
  EXPECT_EQ(GenerateRequestId(urbg), "dpq-0123456789abcdef0123456789abcdef");
  dpq::testing::ConstantUrbg zero(0);
  EXPECT_EQ(GenerateRequestId(zero), "dpq-00000000000000000000000000000000");
}

TEST(GenerateRequestIdTest, OpenSslIdsAreWellFormedValidAndDistinct) {
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = GenerateRequestId();
    EXPECT_THAT(id, MatchesRegex("dpq-[0-9a-f]{32}"));
    EXPECT_THAT(ValidateRequestId(id), IsOk());
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(GenerateRequestIdTest, SeededIdsDiffer) {
  dpq::testing::SeededUrbg urbg(7);
  EXPECT_NE(GenerateRequestId(urbg), GenerateRequestId(urbg));
}

TEST(ValidateRequestIdTest, AcceptsPrintableAsciiUpTo128) {
  EXPECT_THAT(ValidateRequestId("a"), IsOk());
  EXPECT_THAT(ValidateRequestId("retry 1: ~!@#"), IsOk());
  EXPECT_THAT(ValidateRequestId(std::string(128, 'x')), IsOk());
}

TEST(ValidateRequestIdTest, RejectsEmptyLongAndControlCharacters) {
  EXPECT_THAT(ValidateRequestId(""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--request-id must have 1-128")));
  EXPECT_THAT(ValidateRequestId(std::string(129, 'x')),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("129")));
  EXPECT_THAT(ValidateRequestId("ab\tc"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("character 3 is 0x09")));
  EXPECT_THAT(ValidateRequestId("caf\xc3\xa9"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("printable ASCII")));
}

}  // namespace
}  // namespace dpq::client
