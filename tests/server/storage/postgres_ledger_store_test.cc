#include "server/storage/postgres_ledger_store.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/storage/postgres_database.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/core/ledger/test_util.h"
#include "tests/testing/postgres_cluster.h"
#include "tests/testing/postgres_test_environment.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::storage {
namespace {

using ::dpq::core::ledger::BudgetState;
using ::dpq::core::ledger::EntryState;
using ::dpq::core::ledger::LedgerEntry;
using ::dpq::core::ledger::LedgerStore;
using ::dpq::core::ledger::QuantizedEpsilon;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::ReserveRequest;
using ::dpq::core::ledger::testing::ChargedReleaseTest;
using ::dpq::core::ledger::testing::Filter;
using ::dpq::core::ledger::testing::LedgerConcurrencyTest;
using ::dpq::core::ledger::testing::LedgerStoreHarness;
using ::dpq::core::ledger::testing::LedgerStoreParam;
using ::dpq::core::ledger::testing::LedgerStoreTest;
using ::dpq::core::ledger::testing::Request;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::PostgresCluster;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TestCluster;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::SizeIs;

// One cluster per test process, a database per test
// (tests/testing/postgres_test_environment.h).
const ::testing::Environment* const kPostgres =
    ::dpq::testing::AddPostgresTestEnvironment(
        {.durable = false, .max_connections = 150});

// A pool and a ledger store on `dsn`.
absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> OpenStore(
    const std::string& dsn, const std::string& replica_id,
    absl::Duration lease = absl::Seconds(15)) {
  PgPool::Options options;
  options.size = 16;
  absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Open(dsn, options);
  if (!pool.ok()) return pool.status();
  PostgresLedgerOptions ledger;
  ledger.replica_id = replica_id;
  ledger.lease = lease;
  return PostgresLedgerStore::Open(std::shared_ptr<PgPool>(*std::move(pool)),
                                   ledger);
}

// ---------------------------------------------------------------------------
// The store-agnostic suites (tests/core/ledger), on a fresh database.

// Every Open is a new pool and store with the same replica id: a restart
// of one replica (or a second process of it).
class PostgresLedgerStoreHarness final : public LedgerStoreHarness {
 public:
  PostgresLedgerStoreHarness() {
    if (TestCluster() == nullptr) {
      dsn_ = absl::FailedPreconditionError("No PostgreSQL cluster started.");
    } else {
      dsn_ = TestCluster()->CreateDatabase();
    }
  }

  absl::StatusOr<std::unique_ptr<LedgerStore>> Open() override {
    if (!dsn_.ok()) return dsn_.status();
    absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> store =
        OpenStore(*dsn_, "replica-a");
    if (!store.ok()) return store.status();
    return std::unique_ptr<LedgerStore>(*std::move(store));
  }

 private:
  absl::StatusOr<std::string> dsn_;
};

std::unique_ptr<LedgerStoreHarness> MakePostgresHarness() {
  return std::make_unique<PostgresLedgerStoreHarness>();
}

LedgerStoreParam PostgresParam() {
  return {"PostgresLedgerStore", &MakePostgresHarness};
}

INSTANTIATE_TEST_SUITE_P(Postgres, LedgerStoreTest,
                         ::testing::Values(PostgresParam()));
INSTANTIATE_TEST_SUITE_P(Postgres, ChargedReleaseTest,
                         ::testing::Values(PostgresParam()));
INSTANTIATE_TEST_SUITE_P(Postgres, LedgerConcurrencyTest,
                         ::testing::Values(PostgresParam()));

// ---------------------------------------------------------------------------
// What only the PostgreSQL store does: replicas, leases, outages.

// Waits up to `timeout` for `done`, polling.
template <typename Condition>
bool Eventually(Condition done, absl::Duration timeout = absl::Seconds(10)) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    if (done()) return true;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return done();
}

// The state of the entry with `request_id` (any buyer).
EntryState StateOf(LedgerStore& store, const std::string& request_id) {
  absl::StatusOr<std::vector<LedgerEntry>> entries =
      store.ListEntries(Filter("", "", 1000));
  EXPECT_TRUE(entries.ok()) << entries.status();
  if (entries.ok()) {
    for (const LedgerEntry& e : *entries) {
      if (e.request_id == request_id) return e.state;
    }
  }
  ADD_FAILURE() << "no entry " << request_id;
  return EntryState::kRefunded;
}

class PostgresLedgerStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(TestCluster(), nullptr);
    ASSERT_OK_AND_ASSIGN(dsn_, TestCluster()->CreateDatabase());
  }

  // A replica's store on this test's database.
  std::unique_ptr<PostgresLedgerStore> Replica(
      const std::string& replica_id, absl::Duration lease = absl::Seconds(15)) {
    absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> store =
        OpenStore(dsn_, replica_id, lease);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  // One command on this test's database, outside any store.
  absl::StatusOr<PgResult> Sql(const std::string& sql) {
    if (admin_ == nullptr) {
      absl::StatusOr<std::unique_ptr<PgPool>> pool = PgPool::Open(dsn_);
      if (!pool.ok()) return pool.status();
      admin_ = *std::move(pool);
    }
    return admin_->Exec(sql);
  }

  std::string dsn_;
  std::unique_ptr<PgPool> admin_;
};

TEST_F(PostgresLedgerStoreTest, OpenValidatesItsOptions) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> pool, PgPool::Open(dsn_));
  std::shared_ptr<PgPool> shared(std::move(pool));
  PostgresLedgerOptions options;
  EXPECT_THAT(PostgresLedgerStore::Open(shared, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("replica_id must not be empty")));
  options.replica_id = "a";
  options.lease = absl::Milliseconds(1);
  EXPECT_THAT(PostgresLedgerStore::Open(shared, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("lease must be at least")));
  options.lease = absl::Seconds(15);
  EXPECT_THAT(PostgresLedgerStore::Open(nullptr, options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pool")));
  EXPECT_OK(PostgresLedgerStore::Open(shared, options).status());
}

TEST_F(PostgresLedgerStoreTest, AmountsAreExactUnitsAndIncarnationsAreNew) {
  std::unique_ptr<PostgresLedgerStore> first = Replica("a");
  ASSERT_NE(first, nullptr);
  ASSERT_OK(first->Grant("alice", "hospital", 0.3).status());
  ASSERT_OK_AND_ASSIGN(PgResult r, Sql("SELECT granted FROM ledger_budgets"));
  EXPECT_EQ(r.Get(0, 0), "300000000000");
  std::unique_ptr<PostgresLedgerStore> second = Replica("a");
  ASSERT_NE(second, nullptr);
  EXPECT_GT(second->incarnation(), first->incarnation());
  EXPECT_EQ(second->replica_id(), "a");
  ASSERT_OK_AND_ASSIGN(r, Sql("SELECT version FROM dpq_schema "
                              "WHERE component = 'ledger'"));
  EXPECT_EQ(r.Get(0, 0), "1");
}

TEST_F(PostgresLedgerStoreTest, RefusesANewerSchemaVersion) {
  ASSERT_NE(Replica("a"), nullptr);
  ASSERT_OK(Sql("UPDATE dpq_schema SET version = 99 WHERE component = 'ledger'")
                .status());
  EXPECT_THAT(OpenStore(dsn_, "a"),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("99")));
}

// One ledger_reserve call carrying several reservations, as the group
// commit sends them: each is checked against what the ones before it
// left and numbered after them, and one refused does not affect the
// others.
TEST_F(PostgresLedgerStoreTest, OneBatchChecksAndNumbersEachReservation) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 2).status());
  ASSERT_OK(a->Grant("alice", "tax", 10).status());
  ASSERT_OK(a->Grant("bob", "hospital", 10).status());
  ASSERT_OK(a->Reserve(Request("a1", 1, "alice", "hospital")).status());
  const auto item = [](const std::string& buyer, const std::string& dataset,
                       const std::string& request_id, const char* units) {
    return absl::StrCat("ROW('", buyer, "', '", dataset, "', '", request_id,
                        "', '\\x01'::BYTEA, 'op', 'tuple', ", units,
                        ")::ledger_reserve_item");
  };
  ASSERT_OK_AND_ASSIGN(
      const PgResult r,
      Sql(absl::StrCat(
          "SELECT o_outcome, o_remaining FROM ledger_reserve(ARRAY[",
          item("bob", "hospital", "b1", "1000000000000"), ", ",
          item("alice", "tax", "a2", "1000000000000"), ", ",
          item("alice", "hospital", "a3", "1500000000000"), ", ",
          item("bob", "hospital", "b2", "1000000000000"), ", ",
          item("bob", "hospital", "b1", "1000000000000"), ", ",
          item("alice", "hospital", "a4", "1000000000000"), "], ",
          a->incarnation(), ")")));
  ASSERT_EQ(r.rows(), 6);
  std::vector<std::string> outcomes;
  for (int row = 0; row < r.rows(); ++row) {
    outcomes.push_back(absl::StrCat(r.Get(row, 0), " ", r.Get(row, 1)));
  }
  EXPECT_THAT(outcomes,
              ElementsAre("reserved 9000000000000", "reserved 9000000000000",
                          "exhausted 1000000000000", "reserved 8000000000000",
                          "in_progress 8000000000000", "reserved 0"));
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       a->ListEntries(Filter("")));
  std::vector<std::string> numbers;
  for (const LedgerEntry& e : entries) {
    numbers.push_back(e.buyer_id + "#" + std::to_string(e.buyer_seq) + " " +
                      e.request_id);
  }
  EXPECT_THAT(numbers, ElementsAre("alice#3 a4", "bob#2 b2", "alice#2 a2",
                                   "bob#1 b1", "alice#1 a1"));
}

// The issue's race: one buyer's budget, 40 threads split across two
// replicas, each asking for 0.1 once; 2.5 affords exactly 25 of them.
TEST_F(PostgresLedgerStoreTest,
       FortyThreadsOnTwoReplicasSpendExactlyTheBudget) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  std::unique_ptr<PostgresLedgerStore> b = Replica("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 2.5).status());
  constexpr int kThreads = 40;
  absl::Barrier start(kThreads);
  std::atomic<int> committed{0}, exhausted{0}, other{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      PostgresLedgerStore& store = t % 2 == 0 ? *a : *b;
      start.Block();
      absl::StatusOr<Reservation> r =
          store.Reserve(Request(absl::StrCat("r", t), 0.1));
      if (!r.ok()) {
        (r.status().code() == absl::StatusCode::kResourceExhausted ? exhausted
                                                                   : other)++;
        return;
      }
      if (store.Commit(*r->entry_id, absl::StrCat("answer ", t)).ok()) {
        ++committed;
      } else {
        ++other;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(committed.load(), 25);
  EXPECT_EQ(exhausted.load(), 15);
  EXPECT_EQ(other.load(), 0);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       b->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 2.5);  // exactly
  EXPECT_EQ(budget.reserved, 0);
  ASSERT_OK_AND_ASSIGN(PgResult r,
                       Sql("SELECT SUM(epsilon), COUNT(*), "
                           "COUNT(DISTINCT buyer_seq), MAX(buyer_seq) "
                           "FROM ledger_entries WHERE state = 'committed'"));
  EXPECT_EQ(r.Get(0, 0), "2500000000000");
  EXPECT_EQ(r.Get(0, 1), "25");
  EXPECT_EQ(r.Get(0, 2), "25");
  EXPECT_EQ(r.Get(0, 3), "25");
}

TEST_F(PostgresLedgerStoreTest, DatasetCapHoldsOverBuyersOnTwoReplicas) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  std::unique_ptr<PostgresLedgerStore> b = Replica("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 5).status());
  ASSERT_OK(b->Grant("bob", "hospital", 5).status());
  ASSERT_OK(b->SetDatasetCap("hospital", 1));
  constexpr int kThreads = 24;
  absl::Barrier start(kThreads);
  std::atomic<int> committed{0}, capped{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      PostgresLedgerStore& store = t % 2 == 0 ? *a : *b;
      const std::string buyer = t % 3 == 0 ? "alice" : "bob";
      start.Block();
      absl::StatusOr<Reservation> r =
          store.Reserve(Request(absl::StrCat("r", t), 0.1, buyer));
      if (!r.ok()) {
        EXPECT_THAT(r.status(), StatusIs(absl::StatusCode::kResourceExhausted,
                                         HasSubstr("Dataset cap reached")));
        ++capped;
        return;
      }
      EXPECT_OK(store.Commit(*r->entry_id, "answer"));
      ++committed;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(committed.load(), 10);
  EXPECT_EQ(capped.load(), kThreads - 10);
  EXPECT_THAT(a->DatasetCapAndSpent("hospital"), IsOkAndHolds(Pair(1.0, 1.0)));
}

// Two reservations of one request id on different datasets (different
// budget rows, so not queued on one lock) from two replicas: one wins,
// the other is told the id is taken.
TEST_F(PostgresLedgerStoreTest, OneRequestIdOnTwoDatasetsRacesToOneEntry) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  std::unique_ptr<PostgresLedgerStore> b = Replica("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 100).status());
  ASSERT_OK(a->Grant("alice", "tax", 100).status());
  constexpr int kRounds = 30;
  for (int i = 0; i < kRounds; ++i) {
    absl::Barrier start(2);
    absl::StatusOr<Reservation> on_hospital, on_tax;
    const std::string id = absl::StrCat("r", i);
    std::thread t1([&] {
      start.Block();
      on_hospital = a->Reserve(Request(id, 1, "alice", "hospital"));
    });
    std::thread t2([&] {
      start.Block();
      on_tax = b->Reserve(Request(id, 1, "alice", "tax"));
    });
    t1.join();
    t2.join();
    ASSERT_NE(on_hospital.ok(), on_tax.ok())
        << on_hospital.status() << " / " << on_tax.status();
    const absl::Status& loser =
        on_hospital.ok() ? on_tax.status() : on_hospital.status();
    EXPECT_THAT(loser, StatusIs(absl::StatusCode::kAlreadyExists,
                                HasSubstr("'" + id + "'")));
  }
  EXPECT_THAT(a->ListEntries(Filter("alice", "", 1000)),
              IsOkAndHolds(SizeIs(kRounds)));
}

// A replica that dies (stops renewing) leaves reservations behind: once
// its lease expired another replica's sweep charges them (the charge
// stands, docs/privacy.md 3), and a retry resumes at no further cost.
TEST_F(PostgresLedgerStoreTest, ExpiredLeaseIsChargedByAnotherReplica) {
  // a renews every 2/3 s, b sweeps every 1/3 s.
  std::unique_ptr<PostgresLedgerStore> a = Replica("a", absl::Seconds(2));
  std::unique_ptr<PostgresLedgerStore> b = Replica("b", absl::Seconds(1));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 1).status());
  ASSERT_OK_AND_ASSIGN(const Reservation held, a->Reserve(Request("r1", 0.25)));
  ASSERT_OK_AND_ASSIGN(const Reservation live, b->Reserve(Request("r2", 0.25)));
  // While a renews, nothing of its is charged, also after its first lease.
  absl::SleepFor(absl::Milliseconds(2500));
  EXPECT_EQ(StateOf(*b, "r1"), EntryState::kReserved);
  a.reset();  // dies: no more renewals
  EXPECT_TRUE(
      Eventually([&] { return StateOf(*b, "r1") == EntryState::kCharged; }));
  EXPECT_EQ(StateOf(*b, "r2"), EntryState::kReserved);  // b's own, live
  ASSERT_OK_AND_ASSIGN(BudgetState budget, b->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0.25);
  EXPECT_EQ(budget.reserved, 0.25);
  // The retry (on the surviving replica) resumes r1 without a new charge.
  ASSERT_OK_AND_ASSIGN(const Reservation resumed,
                       b->Reserve(Request("r1", 0.25)));
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.entry_id, held.entry_id);
  ASSERT_OK(b->Commit(*resumed.entry_id, "answer r1"));
  ASSERT_OK(b->Commit(*live.entry_id, "answer r2"));
  ASSERT_OK_AND_ASSIGN(budget, b->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 0.5);
  EXPECT_EQ(budget.reserved, 0);
  // The dead incarnation's row is gone once it holds nothing.
  EXPECT_TRUE(Eventually([&] {
    absl::StatusOr<PgResult> r = Sql("SELECT COUNT(*) FROM ledger_replicas");
    return r.ok() && r->Get(0, 0) == "1";
  }));
}

TEST_F(PostgresLedgerStoreTest, RecoverPendingChargesOnlyItsOwnReplica) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  std::unique_ptr<PostgresLedgerStore> b = Replica("b");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 5).status());
  ASSERT_OK(a->Reserve(Request("from-a", 1)).status());
  ASSERT_OK_AND_ASSIGN(const Reservation from_b,
                       b->Reserve(Request("from-b", 1)));
  a.reset();
  std::unique_ptr<PostgresLedgerStore> restarted = Replica("a");
  ASSERT_NE(restarted, nullptr);
  EXPECT_THAT(restarted->RecoverPending(), IsOkAndHolds(1));
  EXPECT_EQ(StateOf(*b, "from-a"), EntryState::kCharged);
  EXPECT_EQ(StateOf(*b, "from-b"), EntryState::kReserved);
  EXPECT_THAT(restarted->RecoverPending(), IsOkAndHolds(0));
  EXPECT_OK(b->Commit(*from_b.entry_id, "answer"));
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       b->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 2);
  EXPECT_EQ(budget.reserved, 0);
}

// A reservation this incarnation wrote but whose outcome it lost (the
// connection broke before the answer came back) is held by no call: the
// sweep charges it once it is kOrphanAge old; one a call still holds is
// left alone, however old.
TEST_F(PostgresLedgerStoreTest, SweepChargesOwnReservationsNoCallHolds) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(const Reservation held, a->Reserve(Request("held", 1)));
  // What a Reserve whose reply was lost leaves behind.
  ASSERT_OK(
      Sql(absl::StrCat("SELECT * FROM ledger_reserve(ARRAY[ROW('alice', "
                       "'hospital', 'lost', '\\x00'::BYTEA, 'op', 'tuple', "
                       "1000000000000)::ledger_reserve_item], ",
                       a->incarnation(), ")"))
          .status());
  EXPECT_THAT(a->RenewAndSweep(), IsOkAndHolds(0));  // young
  ASSERT_OK(Sql("UPDATE ledger_entries "
                "SET created_at = created_at - INTERVAL '1 hour'")
                .status());
  EXPECT_THAT(a->RenewAndSweep(), IsOkAndHolds(1));
  EXPECT_EQ(StateOf(*a, "lost"), EntryState::kCharged);
  EXPECT_EQ(StateOf(*a, "held"), EntryState::kReserved);
  EXPECT_THAT(a->RenewAndSweep(), IsOkAndHolds(0));  // never twice
  ASSERT_OK(a->Commit(*held.entry_id, "answer"));
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       a->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 2);
  EXPECT_EQ(budget.reserved, 0);
}

// How many lock requests of this database wait (pg_locks).
int WaitingLocks(PgPool& pool) {
  absl::StatusOr<PgResult> r =
      pool.Exec("SELECT COUNT(*) FROM pg_locks WHERE NOT granted");
  if (!r.ok()) return -1;
  absl::StatusOr<int64_t> n = r->GetInt64(0, 0);
  return n.ok() ? static_cast<int>(*n) : -1;
}

// A row is stamped when it is written, not when its transaction began
// (that can be long before, after a wait for locks).
TEST_F(PostgresLedgerStoreTest, EntriesAreStampedWhenWritten) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> pool, PgPool::Open(dsn_));
  ASSERT_OK_AND_ASSIGN(PgPool::Lease conn, pool->Acquire());
  ASSERT_OK(conn->Exec("BEGIN").status());
  ASSERT_OK(conn->Exec("SELECT pg_sleep(0.3)").status());
  ASSERT_OK(
      conn->Exec(absl::StrCat("SELECT * FROM ledger_reserve(ARRAY[ROW('alice', "
                              "'hospital', 'late', '\\x00'::BYTEA, 'op', "
                              "'tuple', 1000000000000)::ledger_reserve_item], ",
                              a->incarnation(), ")"))
          .status());
  ASSERT_OK_AND_ASSIGN(
      const PgResult r,
      conn->Exec("SELECT created_at - now() >= INTERVAL '0.25 s' "
                 "FROM ledger_entries WHERE request_id = 'late'"));
  ASSERT_OK(conn->Exec("COMMIT").status());
  ASSERT_EQ(r.rows(), 1);
  EXPECT_THAT(r.GetBool(0, 0), IsOkAndHolds(true));
}

// An entry whose Reserve call is still under way (its id not yet known to
// the store) is not charged by its own replica's sweep, however old.
TEST_F(PostgresLedgerStoreTest, SweepSparesEntriesOfReserveCallsUnderWay) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->Grant("alice", "hospital", 5).status());
  // The entry of (alice, slow), old, that no call holds...
  ASSERT_OK(
      Sql(absl::StrCat("SELECT * FROM ledger_reserve(ARRAY[ROW('alice', "
                       "'hospital', 'slow', '\\x00'::BYTEA, 'op', 'tuple', "
                       "1000000000000)::ledger_reserve_item], ",
                       a->incarnation(), ")"))
          .status());
  ASSERT_OK(Sql("UPDATE ledger_entries "
                "SET created_at = created_at - INTERVAL '1 hour'")
                .status());
  // ...while a Reserve of (alice, slow) waits for alice's counter row.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> locker, PgPool::Open(dsn_));
  ASSERT_OK_AND_ASSIGN(PgPool::Lease conn, locker->Acquire());
  ASSERT_OK(conn->Exec("BEGIN").status());
  ASSERT_OK(conn->Exec("SELECT 1 FROM ledger_buyers "
                       "WHERE buyer_id = 'alice' FOR UPDATE")
                .status());
  absl::Status retried;
  std::thread call([&] { retried = a->Reserve(Request("slow", 1)).status(); });
  EXPECT_TRUE(Eventually([&] { return WaitingLocks(*locker) == 1; }));
  EXPECT_THAT(a->RenewAndSweep(), IsOkAndHolds(0));
  EXPECT_EQ(StateOf(*a, "slow"), EntryState::kReserved);
  ASSERT_OK(conn->Exec("COMMIT").status());
  call.join();
  EXPECT_FALSE(retried.ok());  // the same request id, still reserved
  // Once no call is under way, the sweep charges it.
  EXPECT_THAT(a->RenewAndSweep(), IsOkAndHolds(1));
  EXPECT_EQ(StateOf(*a, "slow"), EntryState::kCharged);
}

// A budget created (Grant) while a reservation waits for its locks, then
// lowered to zero (SetGranted) before that reservation is written: either
// the reservation fails or SetGranted does, never both succeed. A trigger
// holds the reservation between its read of the budget and its write.
TEST_F(PostgresLedgerStoreTest, SetGrantedOnANewBudgetWaitsForReservations) {
  std::unique_ptr<PostgresLedgerStore> a = Replica("a");
  ASSERT_NE(a, nullptr);
  ASSERT_OK(a->Grant("bob", "hospital", 1).status());  // the dataset row
  ASSERT_OK(Sql("CREATE FUNCTION test_pause() RETURNS TRIGGER "
                "LANGUAGE plpgsql AS $$ BEGIN "
                "PERFORM pg_advisory_lock(7); PERFORM pg_advisory_unlock(7); "
                "RETURN NEW; END $$")
                .status());
  ASSERT_OK(Sql("CREATE TRIGGER test_pause BEFORE INSERT ON ledger_entries "
                "FOR EACH ROW EXECUTE FUNCTION test_pause()")
                .status());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> locker, PgPool::Open(dsn_));
  ASSERT_OK_AND_ASSIGN(PgPool::Lease conn, locker->Acquire());
  ASSERT_OK(conn->Exec("SELECT pg_advisory_lock(7)").status());
  ASSERT_OK(conn->Exec("BEGIN").status());
  ASSERT_OK(conn->Exec("SELECT 1 FROM ledger_datasets "
                       "WHERE dataset_id = 'hospital' FOR UPDATE")
                .status());
  // alice has no budget row when the reservation takes its locks.
  absl::StatusOr<Reservation> reserved;
  std::thread reserve([&] { reserved = a->Reserve(Request("r", 1)); });
  ASSERT_TRUE(Eventually([&] { return WaitingLocks(*locker) == 1; }));
  ASSERT_OK(a->Grant("alice", "hospital", 1).status());
  ASSERT_OK(conn->Exec("COMMIT").status());
  // Now it waits in the trigger, having read alice's budget.
  ASSERT_TRUE(Eventually([&] {
    absl::StatusOr<PgResult> r = locker->Exec(
        "SELECT COUNT(*) FROM pg_locks "
        "WHERE NOT granted AND locktype = 'advisory'");
    return r.ok() && r->Get(0, 0) == "1";
  }));
  std::atomic<bool> set_done{false};
  absl::StatusOr<BudgetState> set;
  std::thread lower([&] {
    set = a->SetGranted("alice", "hospital", 0);
    set_done = true;
  });
  // SetGranted either finished or waits for the reservation's lock.
  ASSERT_TRUE(Eventually(
      [&] { return set_done.load() || WaitingLocks(*locker) == 2; }));
  ASSERT_OK(conn->Exec("SELECT pg_advisory_unlock(7)").status());
  reserve.join();
  lower.join();
  EXPECT_NE(reserved.ok(), set.ok())
      << reserved.status() << " / " << set.status();
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       a->GetBudget("alice", "hospital"));
  EXPECT_LE(budget.spent + budget.reserved, budget.granted);
}

// The database stopped: every method is kUnavailable naming PostgreSQL,
// Health turns kUnavailable; after a restart both recover by themselves.
// Its own cluster, so that stopping it disturbs no other test.
TEST(PostgresLedgerStoreOutageTest, UnavailableWhileDownAndRecoversAfter) {
  ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<PostgresCluster> own,
      PostgresCluster::Start({.durable = false, .max_connections = 30}));
  ASSERT_OK_AND_ASSIGN(const std::string dsn, own->CreateDatabase());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PostgresLedgerStore> store,
                       OpenStore(dsn, "a", absl::Seconds(1)));
  ASSERT_OK(store->Grant("alice", "hospital", 5).status());
  ASSERT_OK_AND_ASSIGN(const Reservation held,
                       store->Reserve(Request("before", 1)));
  EXPECT_OK(store->Health());

  ASSERT_OK(own->Stop());
  EXPECT_TRUE(Eventually([&] { return !store->Health().ok(); }));
  EXPECT_THAT(store->Health(), StatusIs(absl::StatusCode::kUnavailable,
                                        HasSubstr("PostgreSQL")));
  const auto unavailable = [](const absl::Status& status) {
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kUnavailable,
                                 HasSubstr("PostgreSQL")));
  };
  unavailable(store->Reserve(Request("during", 1)).status());
  unavailable(store->Commit(*held.entry_id, "answer"));
  unavailable(store->Refund(*held.entry_id));
  unavailable(store->ChargeWithoutAnswer(*held.entry_id));
  unavailable(store->Grant("alice", "hospital", 1).status());
  unavailable(store->SetGranted("alice", "hospital", 1).status());
  unavailable(store->SetDatasetCap("hospital", 1));
  unavailable(store->DatasetCapAndSpent("hospital").status());
  unavailable(store->GetBudget("alice", "hospital").status());
  unavailable(store->ListBudgets({}).status());
  unavailable(store->ListEntries({}).status());
  unavailable(store->RecoverPending().status());

  ASSERT_OK(own->Restart());
  EXPECT_TRUE(Eventually([&] { return store->Health().ok(); }));
  ASSERT_OK_AND_ASSIGN(const Reservation after,
                       store->Reserve(Request("after", 1)));
  ASSERT_OK(store->Commit(*after.entry_id, "answer"));
  // The reservation whose Commit failed is held by no call any more: the
  // sweep charges it (never refunds it), and charges it once.
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<PgPool> admin, PgPool::Open(dsn));
  ASSERT_OK(admin
                ->Exec("UPDATE ledger_entries "
                       "SET created_at = created_at - INTERVAL '1 hour'")
                .status());
  ASSERT_OK(store->RenewAndSweep().status());
  EXPECT_EQ(StateOf(*store, "before"), EntryState::kCharged);
  EXPECT_THAT(store->RenewAndSweep(), IsOkAndHolds(0));
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store->GetBudget("alice", "hospital"));
  EXPECT_EQ(budget.spent, 2);
  EXPECT_EQ(budget.reserved, 0);
  ASSERT_OK_AND_ASSIGN(const Reservation resumed,
                       store->Reserve(Request("before", 1)));
  EXPECT_TRUE(resumed.resumed);
}

}  // namespace
}  // namespace dpq::server::storage
