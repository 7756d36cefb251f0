// Group commit and running totals of the SQLite ledger: operations batched
// into one transaction are checked one by one against the totals left by
// the ones before them, one failing operation does not affect the others,
// many threads end with totals exactly equal to the sums over the entries,
// and a version 1 database is migrated with its totals computed once.
#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/storage/sqlite_ledger_store.h"
#include "tests/core/ledger/test_util.h"
#include "tests/server/storage/test_util.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

using ::dpq::core::ledger::BudgetState;
using ::dpq::core::ledger::LedgerEntry;
using ::dpq::core::ledger::LedgerFilter;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::ReserveRequest;

using ::dpq::core::ledger::testing::Filter;
using ::dpq::server::storage::testing::kTotalsMismatchSql;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;

ReserveRequest Request(const std::string& buyer, const std::string& dataset,
                       const std::string& request_id, double epsilon) {
  ReserveRequest request;
  request.buyer_id = buyer;
  request.dataset_id = dataset;
  request.request_id = request_id;
  request.fingerprint = "fp " + request_id;
  request.operation = "MeasureInconsistency MI optimized";
  request.neighbouring = "tuple";
  request.epsilon = epsilon;
  return request;
}

std::unique_ptr<SqliteLedgerStore> OpenOrDie(const std::string& path) {
  absl::StatusOr<std::unique_ptr<SqliteLedgerStore>> store =
      SqliteLedgerStore::Open(path);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// Runs SQL on the file with a separate connection (several statements
// allowed); returns the first column of the first row of the last one.
std::string Sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string result = "<error>";
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    const char* tail = sql.c_str();
    while (tail != nullptr && *tail != '\0') {
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v2(db, tail, -1, &stmt, &tail) != SQLITE_OK) {
        result = std::string("<error: ") + sqlite3_errmsg(db) + ">";
        break;
      }
      if (stmt == nullptr) break;  // trailing whitespace
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        const unsigned char* text = sqlite3_column_text(stmt, 0);
        result = text != nullptr ? reinterpret_cast<const char*>(text) : "";
      } else if (rc == SQLITE_DONE) {
        result = "";
      } else {
        result = std::string("<error: ") + sqlite3_errmsg(db) + ">";
      }
      sqlite3_finalize(stmt);
    }
  }
  sqlite3_close(db);
  return result;
}

TEST(LedgerBatchTest, OneBatchChecksEachReservationAgainstTheOnesBefore) {
  TempDir dir;
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(dir.Sub("ledger.db"));
  ASSERT_NE(store, nullptr);
  ASSERT_OK(store->Grant("alice", "tax", 3).status());
  ASSERT_OK(store->Grant("bob", "tax", 1).status());
  const SqliteLedgerStore::BatchStats before = store->batch_stats();

  std::vector<ReserveRequest> requests = {
      Request("alice", "tax", "r1", 1),     // ok: 2 left
      Request("alice", "tax", "r2", 2.5),   // exhausted (2 left)
      Request("alice", "tax", "r3", 1),     // ok: 1 left
      Request("alice", "tax", "r1", 1),     // r1 is in progress: aborted
      Request("alice", "tax", "r4", -1),    // invalid
      Request("bob", "tax", "r1", 1),       // request ids are per buyer
      Request("alice", "tax", "r5", 1),     // ok: exactly the last 1
      Request("alice", "tax", "r6", 0.25),  // exhausted (0 left)
  };
  requests[3].fingerprint = requests[0].fingerprint;
  const std::vector<absl::StatusOr<Reservation>> results =
      store->ReserveAll(requests);
  ASSERT_EQ(results.size(), requests.size());
  EXPECT_OK(results[0].status());
  EXPECT_THAT(results[1],
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
  EXPECT_OK(results[2].status());
  EXPECT_THAT(results[3], StatusIs(absl::StatusCode::kAborted, ::testing::_));
  EXPECT_THAT(results[4],
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_OK(results[5].status());
  EXPECT_OK(results[6].status());
  EXPECT_THAT(results[7],
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
  ASSERT_TRUE(results[6].ok());
  EXPECT_EQ(results[6]->remaining, 0);

  // One transaction carried the seven valid operations.
  const SqliteLedgerStore::BatchStats after = store->batch_stats();
  EXPECT_EQ(after.batches - before.batches, 1);
  EXPECT_EQ(after.operations - before.operations, 7);

  ASSERT_OK_AND_ASSIGN(const BudgetState alice,
                       store->GetBudget("alice", "tax"));
  EXPECT_EQ(alice.reserved, 3);
  EXPECT_EQ(alice.spent, 0);
  EXPECT_THAT(store->ListEntries(Filter("alice")),
              ::dpq::testing::IsOkAndHolds(::testing::SizeIs(3)));
  EXPECT_EQ(Sql(dir.Sub("ledger.db"), kTotalsMismatchSql), "0");

  // Settling works on the batch's entries, and the totals follow.
  ASSERT_OK(store->Commit(*results[0]->entry_id, "a1"));
  ASSERT_OK(store->Refund(*results[2]->entry_id));
  ASSERT_OK_AND_ASSIGN(const BudgetState settled,
                       store->GetBudget("alice", "tax"));
  EXPECT_EQ(settled.spent, 1);
  EXPECT_EQ(settled.reserved, 1);
  EXPECT_EQ(Sql(dir.Sub("ledger.db"), kTotalsMismatchSql), "0");
}

TEST(LedgerBatchTest, AFailingSettleInABatchDoesNotFailTheOthers) {
  TempDir dir;
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(dir.Sub("ledger.db"));
  ASSERT_NE(store, nullptr);
  ASSERT_OK(store->Grant("alice", "tax", 100).status());
  // Many threads commit their own reservation while others commit an entry
  // that does not exist or was already committed: whichever batches they
  // share, only the bad ones fail.
  constexpr int kThreads = 32;
  std::vector<int64_t> ids;
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_OK_AND_ASSIGN(
        const Reservation r,
        store->Reserve(Request("alice", "tax", absl::StrCat("q", i), 0.5)));
    ids.push_back(*r.entry_id);
  }
  std::atomic<int> good_failures{0}, bad_successes{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      if (!store->Commit(ids[static_cast<size_t>(i)], "answer").ok()) {
        ++good_failures;
      }
      if (store->Commit(ids[static_cast<size_t>(i)], "again").ok()) {
        ++bad_successes;
      }
      if (store->Refund(1000000 + i).ok()) ++bad_successes;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(good_failures.load(), 0);
  EXPECT_EQ(bad_successes.load(), 0);
  ASSERT_OK_AND_ASSIGN(const BudgetState budget,
                       store->GetBudget("alice", "tax"));
  EXPECT_EQ(budget.spent, 0.5 * kThreads);
  EXPECT_EQ(budget.reserved, 0);
  EXPECT_EQ(Sql(dir.Sub("ledger.db"), kTotalsMismatchSql), "0");
}

// Many threads on two buyers and a capped dataset: reserve, then commit or
// refund (every third), until refused. Epsilons are multiples of 1/4, so
// every sum is exact and the totals must match to the last bit.
TEST(LedgerBatchTest, ManyThreadsEndWithExactTotalsAndNoOverspend) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  ASSERT_OK(store->Grant("alice", "tax", 6).status());
  ASSERT_OK(store->Grant("bob", "tax", 100).status());
  ASSERT_OK(store->Grant("bob", "hospital", 4).status());
  ASSERT_OK(store->SetDatasetCap("tax", 10));  // alice 6 + bob at most 4

  constexpr int kThreads = 48;
  std::atomic<int> committed_quarters_tax{0}, committed_quarters_hospital{0};
  std::atomic<int> other_errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string buyer = t % 2 == 0 ? "alice" : "bob";
      const std::string dataset = t % 4 == 3 ? "hospital" : "tax";
      for (int i = 0;; ++i) {
        const std::string id = absl::StrCat("t", t, "-", i);
        absl::StatusOr<Reservation> r =
            store->Reserve(Request(buyer, dataset, id, 0.25));
        if (!r.ok()) {
          if (r.status().code() != absl::StatusCode::kResourceExhausted) {
            ++other_errors;
          }
          return;
        }
        const absl::Status settled =
            i % 3 == 2 ? store->Refund(*r->entry_id)
                       : store->Commit(*r->entry_id, "answer " + id);
        if (!settled.ok()) ++other_errors;
        if (settled.ok() && i % 3 != 2) {
          ++(dataset == "tax" ? committed_quarters_tax
                              : committed_quarters_hospital);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(other_errors.load(), 0);
  // Everything that could be spent was spent, and not a quarter more.
  EXPECT_EQ(committed_quarters_tax.load(), 40);
  EXPECT_EQ(committed_quarters_hospital.load(), 16);
  ASSERT_OK_AND_ASSIGN(const BudgetState alice,
                       store->GetBudget("alice", "tax"));
  ASSERT_OK_AND_ASSIGN(const BudgetState bob_tax,
                       store->GetBudget("bob", "tax"));
  ASSERT_OK_AND_ASSIGN(const BudgetState bob_hospital,
                       store->GetBudget("bob", "hospital"));
  EXPECT_EQ(alice.spent + bob_tax.spent, 10);
  EXPECT_LE(alice.spent, 6);
  EXPECT_EQ(bob_hospital.spent, 4);
  EXPECT_EQ(alice.reserved + bob_tax.reserved + bob_hospital.reserved, 0);
  ASSERT_OK_AND_ASSIGN(const auto cap_and_spent,
                       store->DatasetCapAndSpent("tax"));
  EXPECT_EQ(cap_and_spent.first, 10);
  EXPECT_EQ(cap_and_spent.second, 10);
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");
  // Exact units of 10^-12 epsilon.
  EXPECT_EQ(Sql(path,
                "SELECT SUM(epsilon) FROM entries WHERE dataset_id = 'tax' "
                "AND state = 'committed'"),
            "10000000000000");
  const SqliteLedgerStore::BatchStats stats = store->batch_stats();
  EXPECT_LE(stats.batches, stats.operations);
  RecordProperty("batches", static_cast<int>(stats.batches));
  RecordProperty("operations", static_cast<int>(stats.operations));
}

// The version 1 schema, as version 1 of the store created it.
constexpr char kSchemaV1[] = R"sql(
CREATE TABLE budgets (buyer_id TEXT NOT NULL, dataset_id TEXT NOT NULL,
  granted REAL NOT NULL CHECK (granted >= 0),
  PRIMARY KEY (buyer_id, dataset_id));
CREATE TABLE caps (dataset_id TEXT PRIMARY KEY NOT NULL,
  cap REAL NOT NULL CHECK (cap > 0));
CREATE TABLE entries (
  entry_id INTEGER PRIMARY KEY AUTOINCREMENT, buyer_id TEXT NOT NULL,
  dataset_id TEXT NOT NULL, request_id TEXT NOT NULL,
  fingerprint BLOB NOT NULL, operation TEXT NOT NULL,
  neighbouring TEXT NOT NULL, epsilon REAL NOT NULL CHECK (epsilon > 0),
  state TEXT NOT NULL
    CHECK (state IN ('reserved', 'committed', 'refunded')),
  created_at_us INTEGER NOT NULL, settled_at_us INTEGER, answer BLOB,
  FOREIGN KEY (buyer_id, dataset_id)
    REFERENCES budgets (buyer_id, dataset_id));
CREATE UNIQUE INDEX entries_by_request ON entries (buyer_id, request_id)
  WHERE state IN ('reserved', 'committed');
CREATE INDEX entries_by_budget ON entries (buyer_id, dataset_id, state,
  epsilon);
CREATE INDEX entries_by_dataset ON entries (dataset_id, state, epsilon);
CREATE INDEX entries_reserved ON entries (entry_id) WHERE state = 'reserved';
INSERT INTO budgets VALUES ('alice', 'tax', 4), ('bob', 'tax', 10),
  ('bob', 'hospital', 2);
INSERT INTO caps VALUES ('tax', 6);
INSERT INTO entries (buyer_id, dataset_id, request_id, fingerprint,
  operation, neighbouring, epsilon, state, created_at_us, settled_at_us,
  answer) VALUES
  ('alice', 'tax', 'a1', 'f', 'op', 'tuple', 1.5, 'committed', 1, 2, 'x'),
  ('alice', 'tax', 'a2', 'f', 'op', 'tuple', 0.5, 'reserved', 3, NULL, NULL),
  ('alice', 'tax', 'a3', 'f', 'op', 'tuple', 2, 'refunded', 4, 5, NULL),
  ('bob', 'tax', 'b1', 'f', 'op', 'tuple', 2.25, 'committed', 6, 7, 'y'),
  ('bob', 'hospital', 'b2', 'f', 'op', 'tuple', 1, 'committed', 8, 9, 'z');
PRAGMA user_version = 1;
)sql";

// Version 1 goes through versions 2 and 3: amounts become exact integer
// units and the totals are recomputed from the entries.
TEST(LedgerMigrationTest, VersionOneGetsTotalsComputedFromItsEntries) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  ASSERT_EQ(Sql(path, kSchemaV1), "");
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Sql(path, "PRAGMA user_version"),
            absl::StrCat(SqliteLedgerStore::kSchemaVersion));
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");

  ASSERT_OK_AND_ASSIGN(const BudgetState alice,
                       store->GetBudget("alice", "tax"));
  EXPECT_EQ(alice.granted, 4);
  EXPECT_EQ(alice.spent, 1.5);
  EXPECT_EQ(alice.reserved, 0.5);
  ASSERT_OK_AND_ASSIGN(const auto tax, store->DatasetCapAndSpent("tax"));
  EXPECT_EQ(tax.first, 6);
  EXPECT_EQ(tax.second, 3.75);
  ASSERT_OK_AND_ASSIGN(const auto hospital,
                       store->DatasetCapAndSpent("hospital"));
  EXPECT_EQ(hospital.first, 0);
  EXPECT_EQ(hospital.second, 1);

  // The migrated cap still binds: 6 - 3.75 - 0.5 = 1.75 left on tax.
  EXPECT_THAT(store->Reserve(Request("bob", "tax", "b3", 2)),
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
  EXPECT_OK(store->Reserve(Request("bob", "tax", "b4", 1.75)).status());
  // The migrated request ids still replay and still block.
  ReserveRequest retry = Request("alice", "tax", "a1", 1.5);
  retry.fingerprint = "f";
  ASSERT_OK_AND_ASSIGN(const Reservation replay, store->Reserve(retry));
  EXPECT_EQ(replay.recorded_answer, "x");

  // Recovery charges the two reservations (their computations may have
  // read the data) and leaves no reserved total.
  EXPECT_THAT(store->RecoverPending(), ::dpq::testing::IsOkAndHolds(2));
  ASSERT_OK_AND_ASSIGN(const BudgetState recovered,
                       store->GetBudget("alice", "tax"));
  EXPECT_EQ(recovered.reserved, 0);
  EXPECT_EQ(recovered.spent, 2);
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");

  // Reopening does not migrate again.
  store.reset();
  store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");
  ASSERT_OK_AND_ASSIGN(const BudgetState reopened,
                       store->GetBudget("bob", "tax"));
  EXPECT_EQ(reopened.spent, 4);  // 2.25 migrated + 1.75 reserved (b4)
  // Every migrated entry got its per-buyer number (version 4), and new
  // ones follow.
  EXPECT_EQ(Sql(path,
                "SELECT group_concat(buyer_id || buyer_seq, ' ') FROM "
                "(SELECT buyer_id, buyer_seq FROM entries "
                "ORDER BY entry_id)"),
            "alice1 alice2 alice3 bob1 bob2 bob3");
}

// A pre-units ledger (version 1, amounts as REAL doubles) whose doubles
// carry float noise: 20 - 1 - 1 - 1 - 0.9 - 0.5 is 15.600000000000001 in
// doubles, and 0.1 + 0.2 is 0.30000000000000004. The migration rounds each
// amount to the nearest unit of 10^-12 and recomputes the totals in units,
// so the budgets come out exact.
TEST(LedgerMigrationTest, VersionOneDoublesBecomeExactUnits) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  const std::string schema(kSchemaV1);
  ASSERT_EQ(Sql(path, schema.substr(0, schema.find("INSERT INTO"))), "");
  ASSERT_EQ(Sql(path, R"sql(
INSERT INTO budgets VALUES ('xavier', 'tax', 20), ('yara', 'tax', 0.3);
INSERT INTO entries (buyer_id, dataset_id, request_id, fingerprint,
  operation, neighbouring, epsilon, state, created_at_us, settled_at_us,
  answer) VALUES
  ('xavier', 'tax', 'x1', 'f', 'op', 'tuple', 1, 'committed', 1, 2, 'a'),
  ('xavier', 'tax', 'x2', 'f', 'op', 'tuple', 1, 'committed', 3, 4, 'b'),
  ('xavier', 'tax', 'x3', 'f', 'op', 'tuple', 1, 'committed', 5, 6, 'c'),
  ('xavier', 'tax', 'x4', 'f', 'op', 'tuple', 0.9, 'committed', 7, 8, 'd'),
  ('xavier', 'tax', 'x5', 'f', 'op', 'tuple', 0.5, 'committed', 9, 10, 'e'),
  ('yara', 'tax', 'y1', 'f', 'op', 'tuple', 0.1, 'committed', 11, 12, 'f'),
  ('yara', 'tax', 'y2', 'f', 'op', 'tuple', 0.2, 'committed', 13, 14, 'g');
PRAGMA user_version = 1;
)sql"),
            "");
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");
  ASSERT_OK_AND_ASSIGN(const BudgetState xavier,
                       store->GetBudget("xavier", "tax"));
  EXPECT_EQ(xavier.granted_units, 20'000'000'000'000);
  EXPECT_EQ(xavier.spent_units, 4'400'000'000'000);
  EXPECT_EQ(xavier.remaining_units(), 15'600'000'000'000);
  EXPECT_EQ(xavier.remaining(), 15.6);
  ASSERT_OK_AND_ASSIGN(const BudgetState yara, store->GetBudget("yara", "tax"));
  EXPECT_EQ(yara.spent_units, 300'000'000'000);
  EXPECT_EQ(yara.remaining_units(), 0);  // exactly spent, no tolerance
  ASSERT_OK_AND_ASSIGN(const core::ledger::DatasetTotals tax,
                       store->GetDatasetTotals("tax"));
  EXPECT_EQ(tax.spent_units, 4'700'000'000'000);
  LedgerFilter filter;
  filter.buyer_id = "xavier";
  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store->ListEntries(filter));
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries[1].epsilon_units, 900'000'000'000);  // newest first
  EXPECT_EQ(entries[1].epsilon, 0.9);
  // Nothing is left for yara: the smallest charge is refused.
  EXPECT_THAT(store->Reserve(Request("yara", "tax", "y3", 1e-12)),
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
}

// The version 3 schema, as version 3 of the store left it (amounts in
// units of 10^-12, totals kept), with entries of two buyers interleaved and
// gaps in entry_id.
constexpr char kSchemaV3[] = R"sql(
CREATE TABLE budgets (buyer_id TEXT NOT NULL, dataset_id TEXT NOT NULL,
  granted INTEGER NOT NULL CHECK (granted >= 0),
  spent INTEGER NOT NULL DEFAULT 0, reserved INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (buyer_id, dataset_id));
CREATE TABLE datasets (dataset_id TEXT PRIMARY KEY NOT NULL,
  cap INTEGER NOT NULL DEFAULT 0 CHECK (cap >= 0),
  spent INTEGER NOT NULL DEFAULT 0, reserved INTEGER NOT NULL DEFAULT 0);
CREATE TABLE entries (
  entry_id INTEGER PRIMARY KEY AUTOINCREMENT, buyer_id TEXT NOT NULL,
  dataset_id TEXT NOT NULL, request_id TEXT NOT NULL,
  fingerprint BLOB NOT NULL, operation TEXT NOT NULL,
  neighbouring TEXT NOT NULL, epsilon INTEGER NOT NULL CHECK (epsilon > 0),
  state TEXT NOT NULL CHECK (state IN ('reserved', 'committed', 'charged',
                                       'refunded')),
  created_at_us INTEGER NOT NULL, settled_at_us INTEGER, answer BLOB,
  FOREIGN KEY (buyer_id, dataset_id)
    REFERENCES budgets (buyer_id, dataset_id));
CREATE UNIQUE INDEX entries_by_request ON entries (buyer_id, request_id)
  WHERE state IN ('reserved', 'committed', 'charged');
CREATE INDEX entries_by_buyer ON entries (buyer_id, dataset_id, entry_id);
CREATE INDEX entries_by_dataset_id ON entries (dataset_id, entry_id);
CREATE INDEX entries_in_flight ON entries (buyer_id, dataset_id, epsilon)
  WHERE state = 'reserved';
CREATE INDEX entries_in_flight_by_dataset ON entries (dataset_id, epsilon)
  WHERE state = 'reserved';
INSERT INTO budgets VALUES
  ('alice', 'tax', 10000000000000, 3000000000000, 0),
  ('alice', 'hospital', 10000000000000, 1000000000000, 0),
  ('bob', 'tax', 10000000000000, 2000000000000, 0);
INSERT INTO datasets VALUES ('tax', 0, 5000000000000, 0),
  ('hospital', 0, 1000000000000, 0);
INSERT INTO entries VALUES
  (3, 'alice', 'tax', 'a1', 'f', 'op', 'tuple', 1000000000000, 'committed',
   1, 2, 'x'),
  (7, 'bob', 'tax', 'b1', 'f', 'op', 'tuple', 1000000000000, 'committed',
   3, 4, 'y'),
  (8, 'alice', 'hospital', 'a2', 'f', 'op', 'tuple', 1000000000000,
   'charged', 5, 6, NULL),
  (9, 'alice', 'tax', 'a3', 'f', 'op', 'tuple', 1000000000000, 'refunded',
   7, 8, NULL),
  (12, 'bob', 'tax', 'b2', 'f', 'op', 'tuple', 1000000000000, 'committed',
   9, 10, 'z'),
  (13, 'alice', 'tax', 'a4', 'f', 'op', 'tuple', 2000000000000, 'committed',
   11, 12, 'w');
PRAGMA user_version = 3;
)sql";

// Version 3 -> 4 numbers the existing entries of each buyer 1, 2, 3, ... in
// entry_id order (docs/security.md, item 8), changes nothing else, and new
// entries continue each buyer's numbering.
TEST(LedgerMigrationTest, VersionThreeGetsPerBuyerEntryNumbers) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  ASSERT_EQ(Sql(path, kSchemaV3), "");
  std::unique_ptr<SqliteLedgerStore> store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Sql(path, "PRAGMA user_version"), "4");
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");

  auto numbers = [](const std::vector<LedgerEntry>& entries) {
    std::vector<std::string> result;
    for (const LedgerEntry& e : entries) {
      result.push_back(absl::StrCat(e.buyer_id, "#", e.buyer_seq, " ",
                                    e.request_id, " (", e.entry_id, ")"));
    }
    return result;
  };
  ASSERT_OK_AND_ASSIGN(std::vector<LedgerEntry> entries,
                       store->ListEntries({}));
  EXPECT_THAT(numbers(entries),
              ::testing::ElementsAre("alice#4 a4 (13)", "bob#2 b2 (12)",
                                     "alice#3 a3 (9)", "alice#2 a2 (8)",
                                     "bob#1 b1 (7)", "alice#1 a1 (3)"));

  // New entries continue each buyer's numbers (and the global handle).
  ASSERT_OK_AND_ASSIGN(const Reservation bob,
                       store->Reserve(Request("bob", "tax", "b3", 1)));
  ASSERT_OK(store->Commit(*bob.entry_id, "v"));
  ASSERT_OK_AND_ASSIGN(const Reservation alice,
                       store->Reserve(Request("alice", "hospital", "a5", 1)));
  ASSERT_OK(store->Commit(*alice.entry_id, "u"));
  ASSERT_OK_AND_ASSIGN(entries, store->ListEntries(Filter("", "", 2)));
  EXPECT_THAT(numbers(entries),
              ::testing::ElementsAre("alice#5 a5 (15)", "bob#3 b3 (14)"));
  // Migrated answers still replay.
  ReserveRequest retry = Request("bob", "tax", "b2", 1);
  retry.fingerprint = "f";
  ASSERT_OK_AND_ASSIGN(const Reservation replay, store->Reserve(retry));
  EXPECT_EQ(replay.recorded_answer, "z");

  // Reopening does not migrate (or renumber) again.
  store.reset();
  store = OpenOrDie(path);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Sql(path,
                "SELECT group_concat(buyer_id || buyer_seq, ' ') FROM "
                "(SELECT buyer_id, buyer_seq FROM entries "
                "ORDER BY entry_id)"),
            "alice1 bob1 alice2 alice3 bob2 alice4 bob3 alice5");
  EXPECT_EQ(Sql(path, kTotalsMismatchSql), "0");
}

}  // namespace
}  // namespace dpq::server::storage
