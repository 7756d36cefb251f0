#include "server/storage/sqlite_ledger_store.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/ledger/ledger_store_suites.h"
#include "tests/core/ledger/test_util.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::storage {
namespace {

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
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---------------------------------------------------------------------------
// The store-agnostic suites (tests/core/ledger), on a ledger file.

// A ledger file in a fresh directory; every Open is a new connection to it.
class SqliteLedgerStoreHarness final : public LedgerStoreHarness {
 public:
  absl::StatusOr<std::unique_ptr<LedgerStore>> Open() override {
    return SqliteLedgerStore::Open(dir_.Sub("ledger.db"));
  }

 private:
  TempDir dir_;
};

std::unique_ptr<LedgerStoreHarness> MakeSqliteHarness() {
  return std::make_unique<SqliteLedgerStoreHarness>();
}

LedgerStoreParam SqliteParam() {
  return {"SqliteLedgerStore", &MakeSqliteHarness};
}

INSTANTIATE_TEST_SUITE_P(Sqlite, LedgerStoreTest,
                         ::testing::Values(SqliteParam()));
INSTANTIATE_TEST_SUITE_P(Sqlite, ChargedReleaseTest,
                         ::testing::Values(SqliteParam()));
INSTANTIATE_TEST_SUITE_P(Sqlite, LedgerConcurrencyTest,
                         ::testing::Values(SqliteParam()));

// ---------------------------------------------------------------------------
// What only the SQLite store does: its file, schema version, batches.

// Runs one SQL query on the file with a separate connection; returns the
// first column of the first row as text.
std::string QueryText(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string result;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(stmt, 0);
      if (text != nullptr) result = reinterpret_cast<const char*>(text);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return result;
}

class SqliteLedgerStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<SqliteLedgerStore>> store =
        SqliteLedgerStore::Open(path());
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }

  std::string path() const { return dir_.Sub("ledger.db"); }

  TempDir dir_;
  std::unique_ptr<SqliteLedgerStore> store_;
};

TEST_F(SqliteLedgerStoreTest, DatabaseIsWalPrivateAndVersioned) {
  ASSERT_OK(store_->Grant("alice", "hospital", 1).status());
  EXPECT_EQ(QueryText(path(), "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(QueryText(path(), "PRAGMA user_version"),
            std::to_string(SqliteLedgerStore::kSchemaVersion));
  // Exact integer units of 10^-12 epsilon.
  EXPECT_EQ(QueryText(path(), "SELECT granted FROM budgets"), "1000000000000");
  struct stat info;
  ASSERT_EQ(::stat(path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  EXPECT_EQ(store_->path(), path());
}

// The reserving transaction numbers each entry after its buyer's last one,
// also when one transaction carries several reservations of one buyer.
TEST_F(SqliteLedgerStoreTest, EntriesAreNumberedWithinOneBatch) {
  ASSERT_OK(store_->Grant("alice", "hospital", 10).status());
  ASSERT_OK(store_->Grant("alice", "tax", 10).status());
  ASSERT_OK(store_->Grant("bob", "hospital", 10).status());
  ASSERT_OK(store_->Reserve(Request("a1", 1, "alice", "hospital")).status());
  const std::vector<ReserveRequest> batch = {
      Request("b1", 1, "bob", "hospital"), Request("a2", 1, "alice", "tax"),
      Request("b2", 1, "bob", "hospital"),
      Request("a3", 1, "alice", "hospital")};
  const SqliteLedgerStore::BatchStats before = store_->batch_stats();
  for (const absl::StatusOr<Reservation>& r : store_->ReserveAll(batch)) {
    ASSERT_OK(r.status());
  }
  EXPECT_EQ(store_->batch_stats().batches - before.batches, 1);

  ASSERT_OK_AND_ASSIGN(const std::vector<LedgerEntry> entries,
                       store_->ListEntries(Filter("")));
  std::vector<std::string> numbers;
  for (const LedgerEntry& e : entries) {
    numbers.push_back(e.buyer_id + "#" + std::to_string(e.buyer_seq) + " " +
                      e.request_id);
  }
  EXPECT_THAT(numbers, ElementsAre("alice#3 a3", "bob#2 b2", "alice#2 a2",
                                   "bob#1 b1", "alice#1 a1"));
}

TEST(SqliteLedgerStoreOpenTest, RefusesANewerSchemaVersion) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  { ASSERT_OK(SqliteLedgerStore::Open(path).status()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  EXPECT_THAT(SqliteLedgerStore::Open(path),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("has schema version 99, newer than")));
}

TEST(SqliteLedgerStoreOpenTest, RefusesAFileThatIsNotADatabase) {
  TempDir dir;
  const std::string path = dir.Sub("ledger.db");
  std::ofstream(path) << "this is not a SQLite database, just some text that "
                         "is long enough to have a header\n";
  EXPECT_THAT(SqliteLedgerStore::Open(path),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(path)));
}

TEST(SqliteLedgerStoreOpenTest, FailsClearlyInAMissingDirectory) {
  TempDir dir;
  const std::string path = dir.Sub("no/such/dir/ledger.db");
  EXPECT_THAT(
      SqliteLedgerStore::Open(path),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("Cannot create the ledger database '" + path + "'")));
  EXPECT_THAT(SqliteLedgerStore::Open(""),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("path")));
}

TEST(SqliteLedgerStoreOpenTest, InMemoryLedgerWorks) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SqliteLedgerStore> store,
                       SqliteLedgerStore::Open(":memory:"));
  ASSERT_OK(store->Grant("alice", "hospital", 1).status());
  ASSERT_OK_AND_ASSIGN(const Reservation r, store->Reserve(Request("r", 1)));
  EXPECT_OK(store->Commit(*r.entry_id, "a"));
  EXPECT_THAT(store->Reserve(Request("s", 1)),
              StatusIs(absl::StatusCode::kResourceExhausted, ::testing::_));
}

}  // namespace
}  // namespace dpq::server::storage
