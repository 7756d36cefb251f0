#include "server/storage/postgres_accounts_store.h"

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/time.h"
#include "core/util/sha256_hex.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/auth/accounts_store.h"
#include "server/auth/token.h"
#include "server/storage/postgres_database.h"
#include "tests/server/auth/accounts_store_suites.h"
#include "tests/testing/files.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

using ::dpq::server::auth::Account;
using ::dpq::server::auth::AccountsStore;
using ::dpq::server::auth::EnsureAdminToken;
using ::dpq::server::auth::kAdminId;
using ::dpq::server::auth::Principal;
using ::dpq::server::auth::Role;
using ::dpq::server::auth::testing::AccountsStoreHarness;
using ::dpq::server::auth::testing::AccountsStoreParam;
using ::dpq::server::auth::testing::AccountsStoreTest;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::dpq::testing::TestCluster;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Optional;

// One cluster per test process, a database per test
// (tests/testing/postgres_test_environment.h).
const ::testing::Environment* const kPostgres =
    ::dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 50});

// A new pool (a replica's own connections) on `dsn`.
absl::StatusOr<std::shared_ptr<PgPool>> NewPool(const std::string& dsn) {
  PgPool::Options options;
  options.size = 4;
  options.acquire_timeout = absl::Seconds(20);
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Open(dsn, options);
  if (!pool.ok()) return pool.status();
  return std::shared_ptr<PgPool>(*std::move(pool));
}

// A store as a replica opens it: its own pool on `dsn`.
absl::StatusOr<std::unique_ptr<PostgresAccountsStore>> OpenReplica(
    const std::string& dsn) {
  absl::StatusOr<std::shared_ptr<PgPool>> pool = NewPool(dsn);
  if (!pool.ok()) return pool.status();
  return PostgresAccountsStore::Open(*std::move(pool));
}

// ---------------------------------------------------------------------------
// The store-agnostic suite (tests/server/auth), on a fresh database.

// A fresh database; every Open is a new pool and store on it.
class PostgresAccountsStoreHarness final : public AccountsStoreHarness {
 public:
  PostgresAccountsStoreHarness() {
    if (TestCluster() == nullptr) return;  // the environment reported why
    absl::StatusOr<std::string> dsn = TestCluster()->CreateDatabase();
    EXPECT_TRUE(dsn.ok()) << dsn.status();
    dsn_ = dsn.value_or("");
  }
  absl::StatusOr<std::unique_ptr<AccountsStore>> Open() override {
    if (dsn_.empty()) return absl::FailedPreconditionError("no database");
    return OpenReplica(dsn_);
  }

 private:
  std::string dsn_;
};

std::unique_ptr<AccountsStoreHarness> MakePostgresHarness() {
  return std::make_unique<PostgresAccountsStoreHarness>();
}

INSTANTIATE_TEST_SUITE_P(Postgres, AccountsStoreTest,
                         ::testing::Values(AccountsStoreParam{
                             "PostgresAccountsStore", &MakePostgresHarness}));

// ---------------------------------------------------------------------------
// Two replicas on one database.

std::string Hash(const std::string& token) {
  return core::util::Sha256Hex(token);
}

auto Authenticates(const std::string& id) {
  return IsOkAndHolds(Optional(Field(&Principal::id, id)));
}
auto AuthenticatesNobody() { return IsOkAndHolds(Eq(std::nullopt)); }

class PostgresAccountsReplicasTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(TestCluster(), nullptr);
    ASSERT_OK_AND_ASSIGN(dsn_, TestCluster()->CreateDatabase());
    ASSERT_OK_AND_ASSIGN(a_, OpenReplica(dsn_));
    ASSERT_OK_AND_ASSIGN(b_, OpenReplica(dsn_));
  }

  std::string dsn_;
  std::unique_ptr<PostgresAccountsStore> a_, b_;
};

TEST_F(PostgresAccountsReplicasTest,
       ABuyerCreatedViaOneAuthenticatesViaTheOther) {
  ASSERT_OK(a_->Create("alice", Role::kBuyer, Hash("t1")).status());
  EXPECT_THAT(b_->Authenticate(Hash("t1")), Authenticates("alice"));
  EXPECT_THAT(b_->Get("alice"),
              IsOkAndHolds(Field(&Account::role, Role::kBuyer)));
  ASSERT_OK(b_->AppendAudit("admin", "CreateBuyer", "buyer=alice"));
  EXPECT_THAT(a_->ListAudit(10),
              IsOkAndHolds(ElementsAre(
                  Field(&auth::AuditRecord::details, "buyer=alice"))));
}

TEST_F(PostgresAccountsReplicasTest, ARevocationViaOneHoldsViaTheOtherAtOnce) {
  ASSERT_OK(a_->Create("alice", Role::kBuyer, Hash("t1")).status());
  ASSERT_OK(a_->Create("bob", Role::kBuyer, Hash("t2")).status());
  // B has served alice before: nothing it remembers lets her in again.
  ASSERT_THAT(b_->Authenticate(Hash("t1")), Authenticates("alice"));
  ASSERT_OK(a_->Revoke("alice"));
  EXPECT_THAT(b_->Authenticate(Hash("t1")), AuthenticatesNobody());
  EXPECT_THAT(b_->Authenticate(Hash("t2")), Authenticates("bob"));
  EXPECT_THAT(b_->Get("alice"), IsOkAndHolds(Field(&Account::revoked, true)));
}

TEST_F(PostgresAccountsReplicasTest, ConcurrentCreateOfOneIdHasOneWinner) {
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    const std::string id = absl::StrCat("buyer", round);
    absl::Barrier start(2);
    absl::Status results[2];
    PostgresAccountsStore* stores[2] = {a_.get(), b_.get()};
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; ++i) {
      threads.emplace_back([&, i] {
        start.Block();
        results[i] =
            stores[i]
                ->Create(id, Role::kBuyer, Hash(absl::StrCat(id, "-", i)))
                .status();
      });
    }
    for (std::thread& thread : threads) thread.join();
    const int winners = results[0].ok() + results[1].ok();
    ASSERT_EQ(winners, 1) << id << ": " << results[0] << " / " << results[1];
    const int winner = results[0].ok() ? 0 : 1;
    EXPECT_THAT(results[1 - winner],
                StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr(id)));
    // Only the winner's token works, through either replica.
    const std::string won = Hash(absl::StrCat(id, "-", winner));
    const std::string lost = Hash(absl::StrCat(id, "-", 1 - winner));
    EXPECT_THAT(a_->Authenticate(won), Authenticates(id));
    EXPECT_THAT(b_->Authenticate(won), Authenticates(id));
    EXPECT_THAT(a_->Authenticate(lost), AuthenticatesNobody());
  }
  EXPECT_THAT(a_->List(Role::kBuyer), IsOkAndHolds(::testing::SizeIs(kRounds)));
}

TEST_F(PostgresAccountsReplicasTest, ReplicasStartingTogetherMakeOneAdmin) {
  // Each replica has its own data directory, hence its own token file.
  const TempDir dir("dpq-admin-race");
  ASSERT_FALSE(dir.path().empty());
  const std::string paths[2] = {dir.Sub("a.token"), dir.Sub("b.token")};
  PostgresAccountsStore* stores[2] = {a_.get(), b_.get()};
  absl::Barrier start(2);
  absl::StatusOr<bool> created[2] = {false, false};
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      start.Block();
      created[i] = EnsureAdminToken(*stores[i], paths[i]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_OK(created[0].status());
  ASSERT_OK(created[1].status());
  // One created the admin and kept its file; the other's file is gone, or
  // it found the admin and wrote none.
  ASSERT_EQ(*created[0] + *created[1], 1);
  const int winner = *created[0] ? 0 : 1;
  EXPECT_EQ(ReadFileOrEmpty(paths[1 - winner]), "");
  const std::string token =
      std::string(absl::StripAsciiWhitespace(ReadFileOrEmpty(paths[winner])));
  ASSERT_TRUE(auth::IsWellFormedToken(token));
  EXPECT_THAT(a_->Authenticate(Hash(token)), Authenticates(kAdminId));
  EXPECT_THAT(b_->Authenticate(Hash(token)), Authenticates(kAdminId));
}

// The deployments' way (docs/operations.md): every replica reads the same
// admin token file (a Secret) and they start together: neither fails, and
// the admin is the file's token.
TEST_F(PostgresAccountsReplicasTest, ReplicasSharingATokenFileStartTogether) {
  const TempDir dir("dpq-admin-shared");
  ASSERT_FALSE(dir.path().empty());
  const std::string path = dir.Sub("admin.token");
  const std::string token = "dpq_" + std::string(64, 'a');
  {
    std::ofstream file(path);
    file << token << "\n";
  }
  for (int round = 0; round < 10; ++round) {
    SCOPED_TRACE(round);
    ASSERT_OK_AND_ASSIGN(const std::string dsn,
                         TestCluster()->CreateDatabase());
    ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool_a, NewPool(dsn));
    ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool_b, NewPool(dsn));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<PostgresAccountsStore> a,
                         PostgresAccountsStore::Open(pool_a));
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<PostgresAccountsStore> b,
                         PostgresAccountsStore::Open(pool_b));
    PostgresAccountsStore* stores[2] = {a.get(), b.get()};
    absl::Barrier start(2);
    absl::StatusOr<bool> created[2] = {false, false};
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; ++i) {
      threads.emplace_back([&, i] {
        start.Block();
        created[i] = EnsureAdminToken(*stores[i], path);
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_THAT(created[0], IsOkAndHolds(false));
    EXPECT_THAT(created[1], IsOkAndHolds(false));
    EXPECT_THAT(a->Authenticate(Hash(token)), Authenticates(kAdminId));
  }
}

TEST_F(PostgresAccountsReplicasTest, MigrationsRunOnceAndOwnTheirTables) {
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<PgPool> pool, NewPool(dsn_));
  ASSERT_OK_AND_ASSIGN(
      PgResult tables,
      pool->Exec("SELECT table_name FROM information_schema.tables "
                 "WHERE table_schema = 'public' AND table_name IN "
                 "('principals', 'audit_log') ORDER BY table_name"));
  ASSERT_EQ(tables.rows(), 2);
  EXPECT_EQ(tables.Get(0, 0), "audit_log");
  EXPECT_EQ(tables.Get(1, 0), "principals");
  ASSERT_OK_AND_ASSIGN(
      PgResult version,
      pool->Exec("SELECT version FROM dpq_schema WHERE component = $1",
                 {PgParam::Text("accounts")}));
  ASSERT_EQ(version.rows(), 1);
  EXPECT_EQ(version.Get(0, 0), "1");
}

TEST_F(PostgresAccountsReplicasTest, IdsSortBytewiseWhateverTheCollation) {
  for (const char* id : {"b", "B", "a", "_x"}) {
    ASSERT_OK(a_->Create(id, Role::kBuyer, Hash(id)).status());
  }
  ASSERT_OK_AND_ASSIGN(const std::vector<Account> buyers,
                       b_->List(Role::kBuyer));
  ASSERT_EQ(buyers.size(), 4u);
  EXPECT_EQ(buyers[0].id, "B");
  EXPECT_EQ(buyers[1].id, "_x");
  EXPECT_EQ(buyers[2].id, "a");
  EXPECT_EQ(buyers[3].id, "b");
}

TEST_F(PostgresAccountsReplicasTest, AnUnreachableDatabaseIsUnavailable) {
  ASSERT_OK(a_->Create("alice", Role::kBuyer, Hash("t1")).status());
  ASSERT_OK(TestCluster()->Stop());
  EXPECT_THAT(a_->Authenticate(Hash("t1")),
              StatusIs(absl::StatusCode::kUnavailable,
                       HasSubstr("PostgreSQL is unreachable")));
  EXPECT_THAT(b_->Revoke("alice"),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
  ASSERT_OK(TestCluster()->Restart());
  // Service resumes by itself; nothing was revoked while it was down.
  EXPECT_THAT(a_->Authenticate(Hash("t1")), Authenticates("alice"));
  EXPECT_THAT(b_->Authenticate(Hash("t1")), Authenticates("alice"));
}

}  // namespace
}  // namespace dpq::server::storage
