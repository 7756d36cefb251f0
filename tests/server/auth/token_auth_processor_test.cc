#include "server/auth/token_auth_processor.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "server/auth/token.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::auth {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kMethod[] = "/dpq.v1.BuyerService/GetBudget";

class TokenAuthProcessorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = dpq::testing::MakeTempDir("dpq-auth");
    ASSERT_OK_AND_ASSIGN(accounts_, AccountsStore::Open(dir_ + "/a.db"));
    ASSERT_OK_AND_ASSIGN(token_, GenerateToken());
    ASSERT_OK(
        accounts_->Create("alice", Role::kBuyer, core::util::Sha256Hex(token_))
            .status());
    processor_ = std::make_unique<TokenAuthProcessor>(accounts_.get());
  }
  void TearDown() override {
    processor_.reset();
    accounts_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::string dir_;
  std::unique_ptr<AccountsStore> accounts_;
  std::unique_ptr<TokenAuthProcessor> processor_;
  std::string token_;
};

TEST_F(TokenAuthProcessorTest, ValidTokenYieldsThePrincipal) {
  ASSERT_OK_AND_ASSIGN(auto principal,
                       processor_->Authenticate(kMethod, "Bearer " + token_));
  ASSERT_TRUE(principal.has_value());
  EXPECT_EQ(principal->id, "alice");
  EXPECT_EQ(principal->role, Role::kBuyer);
  EXPECT_EQ(PrincipalPropertyValue(*principal), "buyer:alice");
  // The scheme is case-insensitive (RFC 7235).
  EXPECT_OK(processor_->Authenticate(kMethod, "bearer " + token_).status());
}

TEST_F(TokenAuthProcessorTest, MissingTokenIsUnauthenticated) {
  EXPECT_THAT(processor_->Authenticate(kMethod, std::nullopt),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Missing bearer token")));
}

TEST_F(TokenAuthProcessorTest, WrongOrMalformedTokenIsUnauthenticated) {
  ASSERT_OK_AND_ASSIGN(const std::string other, GenerateToken());
  EXPECT_THAT(processor_->Authenticate(kMethod, "Bearer " + other),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Unknown or revoked")));
  EXPECT_THAT(processor_->Authenticate(kMethod, "Basic abc"),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("expected 'Bearer <token>'")));
  EXPECT_THAT(processor_->Authenticate(kMethod, "Bearer dpq_123"),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Malformed bearer token")));
}

TEST_F(TokenAuthProcessorTest, ErrorsNeverEchoTheToken) {
  ASSERT_OK_AND_ASSIGN(const std::string other, GenerateToken());
  absl::StatusOr<std::optional<Principal>> result =
      processor_->Authenticate(kMethod, "Bearer " + other);
  EXPECT_THAT(std::string(result.status().message()),
              Not(HasSubstr(other.substr(4))));
}

TEST_F(TokenAuthProcessorTest, RevocationTakesEffectImmediately) {
  ASSERT_OK(processor_->Authenticate(kMethod, "Bearer " + token_).status());
  ASSERT_OK(accounts_->Revoke("alice"));
  EXPECT_THAT(processor_->Authenticate(kMethod, "Bearer " + token_),
              StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
}

TEST_F(TokenAuthProcessorTest, HealthAndReflectionNeedNoToken) {
  EXPECT_TRUE(IsUnauthenticatedMethod("/grpc.health.v1.Health/Check"));
  EXPECT_TRUE(IsUnauthenticatedMethod(
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"));
  EXPECT_FALSE(IsUnauthenticatedMethod("/dpq.v1.AdminService/ListBuyers"));
  ASSERT_OK_AND_ASSIGN(
      auto principal,
      processor_->Authenticate("/grpc.health.v1.Health/Check", std::nullopt));
  EXPECT_FALSE(principal.has_value());
}

TEST_F(TokenAuthProcessorTest, BindsAConnectionToOnePrincipal) {
  std::vector<std::string> connection;  // the connection's property values
  auto existing = [&] { return connection; };
  auto add = [&](const std::string& value) { connection.push_back(value); };
  const Principal alice{"alice", Role::kBuyer};
  ASSERT_OK(processor_->BindToConnection(alice, existing, add));
  ASSERT_OK(processor_->BindToConnection(alice, existing, add));
  EXPECT_EQ(connection, std::vector<std::string>{"buyer:alice"});
  EXPECT_THAT(processor_->BindToConnection(Principal{"admin", Role::kAdmin},
                                           existing, add),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("separate channel")));
  EXPECT_THAT(processor_->BindToConnection(Principal{"bob", Role::kBuyer},
                                           existing, add),
              StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
  EXPECT_EQ(connection.size(), 1u);
}

TEST_F(TokenAuthProcessorTest, UnknownMethodStillNeedsAToken) {
  EXPECT_THAT(processor_->Authenticate("", std::nullopt),
              StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
}

}  // namespace
}  // namespace dpq::server::auth
