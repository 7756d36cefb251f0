// The AccountsStore contract, for every store (accounts_store_suites.h).
#include "server/auth/accounts_store.h"

#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/token.h"
#include "tests/server/auth/accounts_store_suites.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::auth::testing {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Optional;

std::string Hash(const std::string& token) {
  return core::util::Sha256Hex(token);
}

// Matches Authenticate's answer naming `id`, or none for "".
auto Authenticates(const std::string& id) {
  return IsOkAndHolds(Optional(Field(&Principal::id, id)));
}
auto AuthenticatesNobody() { return IsOkAndHolds(Eq(std::nullopt)); }

TEST_P(AccountsStoreTest, CreateAuthenticateRevoke) {
  const absl::Time before = absl::Now() - absl::Seconds(1);
  ASSERT_OK_AND_ASSIGN(const Account alice,
                       store_->Create("alice", Role::kBuyer, Hash("t1")));
  EXPECT_EQ(alice.id, "alice");
  EXPECT_EQ(alice.role, Role::kBuyer);
  EXPECT_FALSE(alice.revoked);
  EXPECT_GE(alice.created_at, before);
  EXPECT_LE(alice.created_at, absl::Now() + absl::Seconds(1));
  // What Create returns is what Get reads back.
  ASSERT_OK_AND_ASSIGN(const Account read, store_->Get("alice"));
  EXPECT_EQ(read.created_at, alice.created_at);
  EXPECT_EQ(read.role, Role::kBuyer);

  EXPECT_THAT(store_->Authenticate(Hash("t1")), Authenticates("alice"));
  EXPECT_THAT(store_->Authenticate(Hash("t2")), AuthenticatesNobody());

  ASSERT_OK(store_->Revoke("alice"));
  EXPECT_THAT(store_->Authenticate(Hash("t1")), AuthenticatesNobody());
  ASSERT_OK_AND_ASSIGN(const Account revoked, store_->Get("alice"));
  EXPECT_TRUE(revoked.revoked);
  // Idempotent.
  EXPECT_OK(store_->Revoke("alice"));
}

TEST_P(AccountsStoreTest, AuthenticateReturnsTheRole) {
  ASSERT_OK(store_->Create(kAdminId, Role::kAdmin, Hash("a")).status());
  ASSERT_OK(store_->Create("bob", Role::kBuyer, Hash("b")).status());
  EXPECT_THAT(store_->Authenticate(Hash("a")),
              IsOkAndHolds(Optional(Field(&Principal::role, Role::kAdmin))));
  EXPECT_THAT(store_->Authenticate(Hash("b")),
              IsOkAndHolds(Optional(Field(&Principal::role, Role::kBuyer))));
}

TEST_P(AccountsStoreTest, RevokingOneLeavesTheOthers) {
  ASSERT_OK(store_->Create("alice", Role::kBuyer, Hash("t1")).status());
  ASSERT_OK(store_->Create("bob", Role::kBuyer, Hash("t2")).status());
  ASSERT_OK(store_->Revoke("alice"));
  EXPECT_THAT(store_->Authenticate(Hash("t1")), AuthenticatesNobody());
  EXPECT_THAT(store_->Authenticate(Hash("t2")), Authenticates("bob"));
}

TEST_P(AccountsStoreTest, Errors) {
  ASSERT_OK(store_->Create("alice", Role::kBuyer, Hash("t1")).status());
  EXPECT_THAT(store_->Create("alice", Role::kBuyer, Hash("t2")),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("A principal named 'alice' already exists")));
  // The refused token was not added.
  EXPECT_THAT(store_->Authenticate(Hash("t2")), AuthenticatesNobody());
  EXPECT_THAT(
      store_->Revoke("bob"),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("No buyer named 'bob'")));
  EXPECT_THAT(store_->Get("bob"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("'bob'")));
}

TEST_P(AccountsStoreTest, RevokedIdsStayTaken) {
  ASSERT_OK(store_->Create("alice", Role::kBuyer, Hash("t1")).status());
  ASSERT_OK(store_->Revoke("alice"));
  EXPECT_THAT(store_->Create("alice", Role::kBuyer, Hash("t2")),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("alice")));
  EXPECT_THAT(store_->Authenticate(Hash("t2")), AuthenticatesNobody());
}

TEST_P(AccountsStoreTest, ListsOneRoleSortedByIdWithRevokedOnes) {
  ASSERT_OK(store_->Create("carol", Role::kBuyer, Hash("c")).status());
  ASSERT_OK(store_->Create(kAdminId, Role::kAdmin, Hash("a")).status());
  ASSERT_OK(store_->Create("bob", Role::kBuyer, Hash("b")).status());
  ASSERT_OK(store_->Revoke("carol"));
  ASSERT_OK_AND_ASSIGN(const std::vector<Account> buyers,
                       store_->List(Role::kBuyer));
  EXPECT_THAT(buyers, ElementsAre(Field(&Account::id, "bob"),
                                  Field(&Account::id, "carol")));
  EXPECT_FALSE(buyers[0].revoked);
  EXPECT_TRUE(buyers[1].revoked);
  EXPECT_THAT(store_->List(Role::kAdmin),
              IsOkAndHolds(ElementsAre(Field(&Account::id, kAdminId))));
}

// The admin's pages of the audit log: by seq, newest first, by action.
TEST_P(AccountsStoreTest, AuditPagesBySeqAndFiltersByAction) {
  for (int i = 0; i < 6; ++i) {
    ASSERT_OK(store_->AppendAudit("admin",
                                  i % 2 == 0 ? "GrantBudget" : "CreateBuyer",
                                  absl::StrCat("n=", i)));
  }
  AuditQuery query;
  query.limit = 2;
  query.action = "GrantBudget";
  ASSERT_OK_AND_ASSIGN(const auto first, store_->ListAudit(query));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].details, "n=4");
  EXPECT_EQ(first[1].details, "n=2");
  EXPECT_GT(first[0].seq, first[1].seq);
  query.before_seq = first[1].seq;
  ASSERT_OK_AND_ASSIGN(const auto second, store_->ListAudit(query));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].details, "n=0");
  query.before_seq = second[0].seq;
  EXPECT_THAT(store_->ListAudit(query), IsOkAndHolds(::testing::IsEmpty()));
  AuditQuery everything;
  everything.limit = 100;
  EXPECT_THAT(store_->ListAudit(everything),
              IsOkAndHolds(::testing::SizeIs(6)));
}

TEST_P(AccountsStoreTest, SurvivesReopen) {
  ASSERT_OK(store_->Create("bob", Role::kBuyer, Hash("dpq_secret")).status());
  ASSERT_OK(store_->Create("alice", Role::kBuyer, Hash("other")).status());
  ASSERT_OK(store_->Revoke("alice"));
  ASSERT_OK(store_->AppendAudit("admin", "CreateBuyer", "buyer=bob"));
  ASSERT_NO_FATAL_FAILURE(Reopen());
  EXPECT_THAT(store_->Authenticate(Hash("dpq_secret")), Authenticates("bob"));
  EXPECT_THAT(store_->Authenticate(Hash("other")), AuthenticatesNobody());
  ASSERT_OK_AND_ASSIGN(const auto buyers, store_->List(Role::kBuyer));
  EXPECT_THAT(buyers, ElementsAre(Field(&Account::id, "alice"),
                                  Field(&Account::id, "bob")));
  EXPECT_TRUE(buyers[0].revoked);
  ASSERT_OK_AND_ASSIGN(const auto audit, store_->ListAudit(10));
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].actor, "admin");
  EXPECT_EQ(audit[0].action, "CreateBuyer");
  EXPECT_EQ(audit[0].details, "buyer=bob");
}

TEST_P(AccountsStoreTest, AuditIsNewestFirstAndLimited) {
  const absl::Time before = absl::Now() - absl::Seconds(1);
  for (int i = 0; i < 5; ++i) {
    // StrCat, not "A" + std::to_string(i): GCC 12 at -O3 reports a false
    // -Wrestrict in the inlined operator+ (GCC bug 105329).
    ASSERT_OK(store_->AppendAudit("admin", absl::StrCat("A", i), ""));
  }
  ASSERT_OK_AND_ASSIGN(const auto audit, store_->ListAudit(2));
  EXPECT_THAT(audit, ElementsAre(Field(&AuditRecord::action, "A4"),
                                 Field(&AuditRecord::action, "A3")));
  EXPECT_GE(audit[0].time, before);
  EXPECT_LE(audit[0].time, absl::Now() + absl::Seconds(1));
  EXPECT_THAT(store_->ListAudit(0), IsOkAndHolds(::testing::IsEmpty()));
  // Any limit, however large, is a limit (not an error).
  EXPECT_THAT(store_->ListAudit(std::numeric_limits<size_t>::max()),
              IsOkAndHolds(::testing::SizeIs(5)));
}

TEST_P(AccountsStoreTest, EnsureAdminTokenCreatesOnceAndNeverOverwrites) {
  const std::string path = dir_ + "/admin.token";
  EXPECT_THAT(EnsureAdminToken(*store_, path), IsOkAndHolds(true));
  const std::string token =
      std::string(absl::StripAsciiWhitespace(ReadFileOrEmpty(path)));
  EXPECT_TRUE(IsWellFormedToken(token));
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  EXPECT_THAT(store_->Authenticate(Hash(token)),
              IsOkAndHolds(Optional(Field(&Principal::role, Role::kAdmin))));

  ASSERT_NO_FATAL_FAILURE(Reopen());
  EXPECT_THAT(EnsureAdminToken(*store_, path), IsOkAndHolds(false));
  EXPECT_EQ(absl::StripAsciiWhitespace(ReadFileOrEmpty(path)), token);
}

TEST_P(AccountsStoreTest, EnsureAdminTokenAdoptsAFileLeftByACrash) {
  const std::string path = dir_ + "/admin.token";
  ASSERT_OK_AND_ASSIGN(const std::string token, GenerateToken());
  std::ofstream(path) << token << "\n";
  EXPECT_THAT(EnsureAdminToken(*store_, path), IsOkAndHolds(false));
  EXPECT_THAT(store_->Authenticate(Hash(token)), Authenticates(kAdminId));
}

TEST_P(AccountsStoreTest, EnsureAdminTokenRefusesAGarbageFile) {
  const std::string path = dir_ + "/admin.token";
  std::ofstream(path) << "not a token\n";
  EXPECT_THAT(EnsureAdminToken(*store_, path),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("admin.token")));
}

}  // namespace
}  // namespace dpq::server::auth::testing
