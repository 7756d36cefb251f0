#include "server/auth/token.h"

#include <set>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::auth {
namespace {

using ::testing::MatchesRegex;

TEST(TokenTest, GeneratedTokensHaveTheDocumentedShape) {
  ASSERT_OK_AND_ASSIGN(const std::string token, GenerateToken());
  EXPECT_EQ(token.size(), kTokenLength);
  EXPECT_THAT(token, MatchesRegex("dpq_[0-9a-f]{64}"));
  EXPECT_TRUE(IsWellFormedToken(token));
}

TEST(TokenTest, GeneratedTokensDiffer) {
  std::set<std::string> tokens;
  for (int i = 0; i < 100; ++i) {
    ASSERT_OK_AND_ASSIGN(const std::string token, GenerateToken());
    tokens.insert(token);
  }
  EXPECT_EQ(tokens.size(), 100u);
}

TEST(TokenTest, RejectsMalformedTokens) {
  const std::string hex64(64, 'a');
  EXPECT_TRUE(IsWellFormedToken("dpq_" + hex64));
  EXPECT_FALSE(IsWellFormedToken(""));
  EXPECT_FALSE(IsWellFormedToken("dpx_" + hex64));
  EXPECT_FALSE(IsWellFormedToken("dpq_" + hex64.substr(1)));
  EXPECT_FALSE(IsWellFormedToken("dpq_" + hex64 + "0"));
  EXPECT_FALSE(IsWellFormedToken("dpq_" + std::string(64, 'A')));
  EXPECT_FALSE(IsWellFormedToken("dpq_" + std::string(63, 'a') + "g"));
}

}  // namespace
}  // namespace dpq::server::auth
