#include "server/auth/bearer_auth.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "server/auth/token.h"
#include "server/storage/sqlite_accounts_store.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::auth {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

class BearerAuthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(accounts_,
                         storage::SqliteAccountsStore::Open(dir_.Sub("a.db")));
    ASSERT_OK_AND_ASSIGN(token_, GenerateToken());
    ASSERT_OK(
        accounts_->Create("alice", Role::kBuyer, core::util::Sha256Hex(token_))
            .status());
  }
  void TearDown() override { accounts_.reset(); }

  absl::StatusOr<Principal> Authenticate(
      std::optional<std::string> authorization) {
    return AuthenticateBearer(*accounts_, authorization);
  }

  dpq::testing::TempDir dir_{"dpq-auth"};
  std::unique_ptr<storage::SqliteAccountsStore> accounts_;
  std::string token_;
};

// A store whose database cannot be reached.
class UnreachableAccountsStore final : public AccountsStore {
 public:
  absl::StatusOr<Account> Create(const std::string&, Role,
                                 const std::string&) override {
    return Down();
  }
  absl::Status Revoke(const std::string&) override { return Down(); }
  absl::StatusOr<Account> Get(const std::string&) const override {
    return Down();
  }
  absl::StatusOr<std::vector<Account>> List(Role) const override {
    return Down();
  }
  absl::StatusOr<std::optional<Principal>> Authenticate(
      absl::string_view) const override {
    return Down();
  }
  absl::Status AppendAudit(const std::string&, const std::string&,
                           const std::string&) override {
    return Down();
  }
  absl::StatusOr<std::vector<AuditRecord>> ListAudit(
      const AuditQuery&) const override {
    return Down();
  }

 private:
  static absl::Status Down() {
    return absl::UnavailableError("PostgreSQL is unreachable: test; retry");
  }
};

TEST_F(BearerAuthTest, ValidTokenYieldsThePrincipal) {
  ASSERT_OK_AND_ASSIGN(const Principal principal,
                       Authenticate("Bearer " + token_));
  EXPECT_EQ(principal.id, "alice");
  EXPECT_EQ(principal.role, Role::kBuyer);
  // The scheme is case-insensitive (RFC 7235).
  EXPECT_OK(Authenticate("bearer " + token_).status());
}

TEST_F(BearerAuthTest, EachTokenYieldsItsOwnPrincipal) {
  ASSERT_OK_AND_ASSIGN(const std::string admin, GenerateToken());
  ASSERT_OK(
      accounts_->Create(kAdminId, Role::kAdmin, core::util::Sha256Hex(admin))
          .status());
  // Nothing is remembered between calls: alternating tokens alternate
  // principals.
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK_AND_ASSIGN(const Principal a, Authenticate("Bearer " + token_));
    EXPECT_EQ(a.id, "alice");
    ASSERT_OK_AND_ASSIGN(const Principal b, Authenticate("Bearer " + admin));
    EXPECT_EQ(b.id, kAdminId);
    EXPECT_EQ(b.role, Role::kAdmin);
  }
}

TEST_F(BearerAuthTest, MissingTokenIsUnauthenticated) {
  EXPECT_THAT(Authenticate(std::nullopt),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Missing bearer token")));
}

TEST_F(BearerAuthTest, WrongOrMalformedTokenIsUnauthenticated) {
  ASSERT_OK_AND_ASSIGN(const std::string other, GenerateToken());
  EXPECT_THAT(Authenticate("Bearer " + other),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Unknown or revoked")));
  EXPECT_THAT(Authenticate("Basic abc"),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("expected 'Bearer <token>'")));
  EXPECT_THAT(Authenticate("Bearer dpq_123"),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Malformed bearer token")));
  EXPECT_THAT(Authenticate(""),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("expected 'Bearer <token>'")));
}

TEST_F(BearerAuthTest, ErrorsNeverEchoTheToken) {
  ASSERT_OK_AND_ASSIGN(const std::string other, GenerateToken());
  for (const std::string& value :
       {"Bearer " + other, "Bearer " + other + "x", "Token " + other}) {
    const absl::Status status = Authenticate(value).status();
    EXPECT_FALSE(status.ok()) << value;
    EXPECT_THAT(std::string(status.message()),
                Not(HasSubstr(other.substr(4, 16))));
  }
}

TEST_F(BearerAuthTest, RevocationTakesEffectImmediately) {
  ASSERT_OK(Authenticate("Bearer " + token_).status());
  ASSERT_OK(accounts_->Revoke("alice"));
  EXPECT_THAT(Authenticate("Bearer " + token_),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("Unknown or revoked")));
}

TEST(BearerAuthStoreTest, AnUnreachableStoreFailsTheCallWithItsError) {
  UnreachableAccountsStore accounts;
  ASSERT_OK_AND_ASSIGN(const std::string token, GenerateToken());
  EXPECT_THAT(AuthenticateBearer(accounts, "Bearer " + token),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("PostgreSQL is unreachable")));
  // A malformed token is refused before the store is asked.
  EXPECT_THAT(AuthenticateBearer(accounts, "Bearer x"),
              StatusIs(absl::StatusCode::kUnauthenticated, ::testing::_));
}

}  // namespace
}  // namespace dpq::server::auth
