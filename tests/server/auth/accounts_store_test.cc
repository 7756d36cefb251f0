#include "server/auth/accounts_store.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/token.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::auth {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Optional;

class AccountsStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = dpq::testing::MakeTempDir("dpq-accounts");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string db() const { return dir_ + "/accounts.db"; }

  std::string dir_;
};

TEST_F(AccountsStoreTest, CreateAuthenticateRevoke) {
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  ASSERT_OK_AND_ASSIGN(
      const Account alice,
      store->Create("alice", Role::kBuyer, core::util::Sha256Hex("t1")));
  EXPECT_EQ(alice.id, "alice");
  EXPECT_FALSE(alice.revoked);
  EXPECT_THAT(store->Authenticate(core::util::Sha256Hex("t1")),
              Optional(Field(&Principal::id, "alice")));
  EXPECT_FALSE(store->Authenticate(core::util::Sha256Hex("t2")).has_value());

  ASSERT_OK(store->Revoke("alice"));
  EXPECT_FALSE(store->Authenticate(core::util::Sha256Hex("t1")).has_value());
  ASSERT_OK_AND_ASSIGN(const Account revoked, store->Get("alice"));
  EXPECT_TRUE(revoked.revoked);
  // Idempotent.
  EXPECT_OK(store->Revoke("alice"));
}

TEST_F(AccountsStoreTest, Errors) {
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  ASSERT_OK(store->Create("alice", Role::kBuyer, core::util::Sha256Hex("t1"))
                .status());
  EXPECT_THAT(store->Create("alice", Role::kBuyer, core::util::Sha256Hex("t2")),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("alice")));
  EXPECT_THAT(store->Revoke("bob"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("bob")));
  EXPECT_THAT(store->Get("bob"),
              StatusIs(absl::StatusCode::kNotFound, ::testing::_));
  EXPECT_THAT(AccountsStore::Open(dir_ + "/no/such/dir/accounts.db"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Cannot create the accounts database")));
}

TEST_F(AccountsStoreTest, SurvivesReopenAndStoresOnlyHashes) {
  {
    ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
    ASSERT_OK(
        store->Create("bob", Role::kBuyer, core::util::Sha256Hex("dpq_secret"))
            .status());
    ASSERT_OK(
        store->Create("alice", Role::kBuyer, core::util::Sha256Hex("other"))
            .status());
    ASSERT_OK(store->Revoke("alice"));
    ASSERT_OK(store->AppendAudit("admin", "CreateBuyer", "buyer=bob"));
  }
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  EXPECT_THAT(store->Authenticate(core::util::Sha256Hex("dpq_secret")),
              Optional(Field(&Principal::id, "bob")));
  EXPECT_FALSE(store->Authenticate(core::util::Sha256Hex("other")).has_value());
  ASSERT_OK_AND_ASSIGN(const auto buyers, store->List(Role::kBuyer));
  EXPECT_THAT(buyers, ElementsAre(Field(&Account::id, "alice"),
                                  Field(&Account::id, "bob")));
  EXPECT_TRUE(buyers[0].revoked);
  ASSERT_OK_AND_ASSIGN(const auto audit, store->ListAudit(10));
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].action, "CreateBuyer");
  // The token itself is nowhere in the file.
  const std::string bytes = dpq::testing::ReadFileOrEmpty(db()) +
                            dpq::testing::ReadFileOrEmpty(db() + "-wal");
  EXPECT_EQ(bytes.find("dpq_secret"), std::string::npos);
  struct stat info;
  ASSERT_EQ(stat(db().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
}

TEST_F(AccountsStoreTest, AuditIsNewestFirstAndLimited) {
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  for (int i = 0; i < 5; ++i) {
    // StrCat, not "A" + std::to_string(i): GCC 12 at -O3 reports a false
    // -Wrestrict in the inlined operator+ (GCC bug 105329).
    ASSERT_OK(store->AppendAudit("admin", absl::StrCat("A", i), ""));
  }
  ASSERT_OK_AND_ASSIGN(const auto audit, store->ListAudit(2));
  EXPECT_THAT(audit, ElementsAre(Field(&AuditRecord::action, "A4"),
                                 Field(&AuditRecord::action, "A3")));
}

TEST_F(AccountsStoreTest, EnsureAdminTokenCreatesOnceAndNeverOverwrites) {
  const std::string path = dir_ + "/admin.token";
  std::string token;
  {
    ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
    EXPECT_THAT(EnsureAdminToken(*store, path),
                dpq::testing::IsOkAndHolds(true));
    token = std::string(
        absl::StripAsciiWhitespace(dpq::testing::ReadFileOrEmpty(path)));
    EXPECT_TRUE(IsWellFormedToken(token));
    struct stat info;
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0600);
    EXPECT_THAT(store->Authenticate(core::util::Sha256Hex(token)),
                Optional(Field(&Principal::role, Role::kAdmin)));
  }
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  EXPECT_THAT(EnsureAdminToken(*store, path),
              dpq::testing::IsOkAndHolds(false));
  EXPECT_EQ(absl::StripAsciiWhitespace(dpq::testing::ReadFileOrEmpty(path)),
            token);
}

TEST_F(AccountsStoreTest, EnsureAdminTokenAdoptsAFileLeftByACrash) {
  const std::string path = dir_ + "/admin.token";
  ASSERT_OK_AND_ASSIGN(const std::string token, GenerateToken());
  std::ofstream(path) << token << "\n";
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  EXPECT_THAT(EnsureAdminToken(*store, path),
              dpq::testing::IsOkAndHolds(false));
  EXPECT_THAT(store->Authenticate(core::util::Sha256Hex(token)),
              Optional(Field(&Principal::id, "admin")));
}

TEST_F(AccountsStoreTest, EnsureAdminTokenRefusesAGarbageFile) {
  const std::string path = dir_ + "/admin.token";
  std::ofstream(path) << "not a token\n";
  ASSERT_OK_AND_ASSIGN(auto store, AccountsStore::Open(db()));
  EXPECT_THAT(EnsureAdminToken(*store, path),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("admin.token")));
}

}  // namespace
}  // namespace dpq::server::auth
