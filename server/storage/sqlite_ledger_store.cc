#include "server/storage/sqlite_ledger_store.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "server/storage/ledger_store_errors.h"
#include "server/storage/sqlite_database.h"

namespace dpq::server::storage {

using ::dpq::core::ledger::AmountUnits;
using ::dpq::core::ledger::BudgetState;
using ::dpq::core::ledger::ChargeUnits;
using ::dpq::core::ledger::EntryState;
using ::dpq::core::ledger::FromUnits;
using ::dpq::core::ledger::kMaxUnits;
using ::dpq::core::ledger::LedgerEntry;
using ::dpq::core::ledger::LedgerFilter;
using ::dpq::core::ledger::Reservation;
using ::dpq::core::ledger::ReserveRequest;

namespace {

// The whole schema of version 1. Created in one transaction.
constexpr char kSchemaV1[] = R"sql(
CREATE TABLE IF NOT EXISTS budgets (
  buyer_id   TEXT NOT NULL,
  dataset_id TEXT NOT NULL,
  granted    REAL NOT NULL CHECK (granted >= 0),
  PRIMARY KEY (buyer_id, dataset_id)
);
CREATE TABLE IF NOT EXISTS caps (
  dataset_id TEXT PRIMARY KEY NOT NULL,
  cap        REAL NOT NULL CHECK (cap > 0)
);
CREATE TABLE IF NOT EXISTS entries (
  entry_id      INTEGER PRIMARY KEY AUTOINCREMENT,
  buyer_id      TEXT NOT NULL,
  dataset_id    TEXT NOT NULL,
  request_id    TEXT NOT NULL,
  fingerprint   BLOB NOT NULL,
  operation     TEXT NOT NULL,
  neighbouring  TEXT NOT NULL,
  epsilon       REAL NOT NULL CHECK (epsilon > 0),
  state         TEXT NOT NULL
                CHECK (state IN ('reserved', 'committed', 'refunded')),
  created_at_us INTEGER NOT NULL,
  settled_at_us INTEGER,
  answer        BLOB,
  FOREIGN KEY (buyer_id, dataset_id) REFERENCES budgets (buyer_id, dataset_id)
);
-- A request id names one live (reserved or committed) request per buyer;
-- refunded entries stay as history.
CREATE UNIQUE INDEX IF NOT EXISTS entries_by_request
  ON entries (buyer_id, request_id)
  WHERE state IN ('reserved', 'committed');
-- Covering indexes for the budget and cap sums.
CREATE INDEX IF NOT EXISTS entries_by_budget
  ON entries (buyer_id, dataset_id, state, epsilon);
CREATE INDEX IF NOT EXISTS entries_by_dataset
  ON entries (dataset_id, state, epsilon);
-- RecoverPending.
CREATE INDEX IF NOT EXISTS entries_reserved
  ON entries (entry_id) WHERE state = 'reserved';
)sql";

// Version 1 -> 2: running totals in budgets and a datasets table (the old
// caps plus totals); indexes for listing by buyer/dataset and partial
// indexes over the in-flight (reserved) entries only, for re-summing
// `reserved` and for RecoverPending. The totals are filled by kReconcileSql.
constexpr char kMigrateV1ToV2[] = R"sql(
ALTER TABLE budgets ADD COLUMN spent REAL NOT NULL DEFAULT 0.0;
ALTER TABLE budgets ADD COLUMN reserved REAL NOT NULL DEFAULT 0.0;
CREATE TABLE datasets (
  dataset_id TEXT PRIMARY KEY NOT NULL,
  cap        REAL NOT NULL DEFAULT 0.0 CHECK (cap >= 0),
  spent      REAL NOT NULL DEFAULT 0.0,
  reserved   REAL NOT NULL DEFAULT 0.0
);
INSERT INTO datasets (dataset_id, cap) SELECT dataset_id, cap FROM caps;
DROP TABLE caps;
DROP INDEX IF EXISTS entries_by_budget;
DROP INDEX IF EXISTS entries_by_dataset;
DROP INDEX IF EXISTS entries_reserved;
CREATE INDEX entries_by_buyer ON entries (buyer_id, dataset_id, entry_id);
CREATE INDEX entries_by_dataset_id ON entries (dataset_id, entry_id);
CREATE INDEX entries_in_flight ON entries (buyer_id, dataset_id, epsilon)
  WHERE state = 'reserved';
CREATE INDEX entries_in_flight_by_dataset ON entries (dataset_id, epsilon)
  WHERE state = 'reserved';
)sql";

// Version 2 -> 3: exact amounts and charged entries without an answer.
// Every epsilon becomes an INTEGER number of units of 10^-12 (rounded to
// nearest: version 2 compared with a relative tolerance of 10^-12 anyway),
// and entries may be 'charged' (the charge stands, no answer recorded yet).
// SQLite cannot change a column's type, so the tables are rebuilt (foreign
// keys are off during the migration; see Open) and the totals recomputed
// by kReconcileSql.
constexpr char kMigrateV2ToV3[] = R"sql(
CREATE TABLE budgets_v3 (
  buyer_id   TEXT NOT NULL,
  dataset_id TEXT NOT NULL,
  granted    INTEGER NOT NULL CHECK (granted >= 0),
  spent      INTEGER NOT NULL DEFAULT 0,
  reserved   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (buyer_id, dataset_id)
);
INSERT INTO budgets_v3 (buyer_id, dataset_id, granted)
  SELECT buyer_id, dataset_id, CAST(ROUND(granted * 1e12) AS INTEGER)
  FROM budgets;
CREATE TABLE datasets_v3 (
  dataset_id TEXT PRIMARY KEY NOT NULL,
  cap        INTEGER NOT NULL DEFAULT 0 CHECK (cap >= 0),
  spent      INTEGER NOT NULL DEFAULT 0,
  reserved   INTEGER NOT NULL DEFAULT 0
);
INSERT INTO datasets_v3 (dataset_id, cap)
  SELECT dataset_id, CAST(ROUND(cap * 1e12) AS INTEGER) FROM datasets;
CREATE TABLE entries_v3 (
  entry_id      INTEGER PRIMARY KEY AUTOINCREMENT,
  buyer_id      TEXT NOT NULL,
  dataset_id    TEXT NOT NULL,
  request_id    TEXT NOT NULL,
  fingerprint   BLOB NOT NULL,
  operation     TEXT NOT NULL,
  neighbouring  TEXT NOT NULL,
  epsilon       INTEGER NOT NULL CHECK (epsilon > 0),
  state         TEXT NOT NULL
                CHECK (state IN ('reserved', 'committed', 'charged',
                                 'refunded')),
  created_at_us INTEGER NOT NULL,
  settled_at_us INTEGER,
  answer        BLOB,
  FOREIGN KEY (buyer_id, dataset_id) REFERENCES budgets (buyer_id, dataset_id)
);
INSERT INTO entries_v3
  SELECT entry_id, buyer_id, dataset_id, request_id, fingerprint, operation,
         neighbouring, MAX(1, CAST(ROUND(epsilon * 1e12) AS INTEGER)), state,
         created_at_us, settled_at_us, answer
  FROM entries;
DROP TABLE entries;
DROP TABLE budgets;
DROP TABLE datasets;
ALTER TABLE budgets_v3 RENAME TO budgets;
ALTER TABLE datasets_v3 RENAME TO datasets;
ALTER TABLE entries_v3 RENAME TO entries;
-- A request id names one live (reserved, committed or charged) request per
-- buyer; refunded entries stay as history.
CREATE UNIQUE INDEX entries_by_request ON entries (buyer_id, request_id)
  WHERE state IN ('reserved', 'committed', 'charged');
CREATE INDEX entries_by_buyer ON entries (buyer_id, dataset_id, entry_id);
CREATE INDEX entries_by_dataset_id ON entries (dataset_id, entry_id);
CREATE INDEX entries_in_flight ON entries (buyer_id, dataset_id, epsilon)
  WHERE state = 'reserved';
CREATE INDEX entries_in_flight_by_dataset ON entries (dataset_id, epsilon)
  WHERE state = 'reserved';
)sql";

// Version 3 -> 4: per-buyer entry numbers. entry_id is global, so showing
// it to a buyer would reveal how many entries the other buyers made in
// between (docs/security.md, item 8); buyers and admins see buyer_seq instead:
// 1, 2, 3, ... over all of one buyer's entries, on every dataset, in the order
// of entry_id. Existing entries are numbered here; new ones get
// MAX(buyer_seq) + 1 of their buyer in the transaction that reserves them
// (kReserveInsertSql). The unique index makes (buyer_id, buyer_seq) the
// entry's public name and answers that MAX from the index.
constexpr char kMigrateV3ToV4[] = R"sql(
ALTER TABLE entries ADD COLUMN buyer_seq INTEGER NOT NULL DEFAULT 0;
UPDATE entries SET buyer_seq = numbered.seq
  FROM (SELECT entry_id,
               ROW_NUMBER() OVER (PARTITION BY buyer_id ORDER BY entry_id)
                 AS seq
        FROM entries) AS numbered
  WHERE entries.entry_id = numbered.entry_id;
CREATE UNIQUE INDEX entries_by_buyer_seq ON entries (buyer_id, buyer_seq);
)sql";

// Recomputes every total from the entries (migration; O(entries), once).
// Charged entries, answered or not, are spent.
constexpr char kReconcileSql[] = R"sql(
INSERT OR IGNORE INTO datasets (dataset_id) SELECT dataset_id FROM budgets;
UPDATE budgets SET
  spent = COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
                    WHERE e.buyer_id = budgets.buyer_id
                      AND e.dataset_id = budgets.dataset_id
                      AND e.state IN ('committed', 'charged')), 0),
  reserved = COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
                       WHERE e.buyer_id = budgets.buyer_id
                         AND e.dataset_id = budgets.dataset_id
                         AND e.state = 'reserved'), 0);
UPDATE datasets SET
  spent = COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
                    WHERE e.dataset_id = datasets.dataset_id
                      AND e.state IN ('committed', 'charged')), 0),
  reserved = COALESCE((SELECT SUM(e.epsilon) FROM entries AS e
                       WHERE e.dataset_id = datasets.dataset_id
                         AND e.state = 'reserved'), 0);
)sql";

constexpr char kReadBudgetSql[] =
    "SELECT granted, spent, reserved FROM budgets "
    "WHERE buyer_id = ?1 AND dataset_id = ?2";
constexpr char kReadDatasetSql[] =
    "SELECT cap, spent, reserved FROM datasets WHERE dataset_id = ?1";
constexpr char kEnsureDatasetSql[] =
    "INSERT OR IGNORE INTO datasets (dataset_id) VALUES (?1)";
// ?1 buyer, ?2 dataset, ?3 spent delta (units).
constexpr char kUpdateBudgetTotalsSql[] = R"sql(
UPDATE budgets SET spent = spent + ?3,
  reserved = COALESCE((SELECT SUM(epsilon) FROM entries
                       WHERE buyer_id = ?1 AND dataset_id = ?2
                         AND state = 'reserved'), 0)
WHERE buyer_id = ?1 AND dataset_id = ?2
)sql";
// ?1 dataset, ?2 spent delta (units).
constexpr char kUpdateDatasetTotalsSql[] = R"sql(
UPDATE datasets SET spent = spent + ?2,
  reserved = COALESCE((SELECT SUM(epsilon) FROM entries
                       WHERE dataset_id = ?1 AND state = 'reserved'), 0)
WHERE dataset_id = ?1
)sql";

// A new entry, numbered after its buyer's last one (kMigrateV3ToV4). Runs
// inside the reserving write transaction, so no other writer can take the
// same number.
constexpr char kReserveInsertSql[] = R"sql(
INSERT INTO entries (buyer_id, dataset_id, request_id, fingerprint,
  operation, neighbouring, epsilon, state, created_at_us, buyer_seq)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'reserved', ?8,
  (SELECT COALESCE(MAX(buyer_seq), 0) + 1 FROM entries WHERE buyer_id = ?1))
)sql";

constexpr char kEntryColumns[] =
    "entry_id, buyer_id, dataset_id, request_id, fingerprint, operation, "
    "neighbouring, epsilon, state, created_at_us, settled_at_us, answer, "
    "buyer_seq";

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

// Reads one row selected with kEntryColumns.
absl::StatusOr<LedgerEntry> ReadEntry(const SqliteStatement& s) {
  LedgerEntry entry;
  entry.entry_id = s.Int64(0);
  entry.buyer_id = s.Text(1);
  entry.dataset_id = s.Text(2);
  entry.request_id = s.Text(3);
  entry.fingerprint = s.Blob(4);
  entry.operation = s.Text(5);
  entry.neighbouring = s.Text(6);
  entry.epsilon_units = s.Int64(7);
  entry.epsilon = FromUnits(entry.epsilon_units);
  ASSIGN_OR_RETURN(entry.state, ParseEntryState(s.Text(8)));
  entry.created_at = absl::FromUnixMicros(s.Int64(9));
  if (!s.IsNull(10)) entry.settled_at = absl::FromUnixMicros(s.Int64(10));
  entry.answer = s.Blob(11);
  entry.buyer_seq = s.Int64(12);
  return entry;
}

// The budget of (buyer, dataset); zeros if never granted.
absl::StatusOr<BudgetState> ReadBudget(SqliteDatabase& db,
                                       const std::string& buyer_id,
                                       const std::string& dataset_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                   db.Cached(kReadBudgetSql));
  RETURN_IF_ERROR(s->BindText(1, buyer_id));
  RETURN_IF_ERROR(s->BindText(2, dataset_id));
  ASSIGN_OR_RETURN(const bool row, s->Step());
  BudgetState budget;
  budget.buyer_id = buyer_id;
  budget.dataset_id = dataset_id;
  if (row) budget.SetUnits(s->Int64(0), s->Int64(1), s->Int64(2));
  return budget;
}

// A budget row in units.
struct BudgetUnits {
  int64_t granted = 0;
  int64_t spent = 0;
  int64_t reserved = 0;
  int64_t remaining() const { return granted - spent - reserved; }
};

absl::StatusOr<BudgetUnits> ReadBudgetUnits(SqliteDatabase& db,
                                            const std::string& buyer_id,
                                            const std::string& dataset_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                   db.Cached(kReadBudgetSql));
  RETURN_IF_ERROR(s->BindText(1, buyer_id));
  RETURN_IF_ERROR(s->BindText(2, dataset_id));
  ASSIGN_OR_RETURN(const bool row, s->Step());
  BudgetUnits units;
  if (row) {
    units.granted = s->Int64(0);
    units.spent = s->Int64(1);
    units.reserved = s->Int64(2);
  }
  return units;
}

struct DatasetTotals {  // units
  int64_t cap = 0;      // 0: none
  int64_t spent = 0;
  int64_t reserved = 0;
};

absl::StatusOr<DatasetTotals> ReadDatasetTotals(SqliteDatabase& db,
                                                const std::string& dataset_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                   db.Cached(kReadDatasetSql));
  RETURN_IF_ERROR(s->BindText(1, dataset_id));
  ASSIGN_OR_RETURN(const bool row, s->Step());
  DatasetTotals totals;
  if (row) {
    totals.cap = s->Int64(0);
    totals.spent = s->Int64(1);
    totals.reserved = s->Int64(2);
  }
  return totals;
}

absl::Status EnsureDatasetRow(SqliteDatabase& db,
                              const std::string& dataset_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                   db.Cached(kEnsureDatasetSql));
  RETURN_IF_ERROR(s->BindText(1, dataset_id));
  return s->Run();
}

// Creates the schema if the database is new, migrates older versions (in
// one transaction), refuses newer ones.
absl::Status EnsureSchema(SqliteDatabase& db, const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db.Begin(/*immediate=*/true));
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> version,
                   db.Prepare("PRAGMA user_version"));
  ASSIGN_OR_RETURN(const bool row, version->Step());
  const int64_t current = row ? version->Int64(0) : 0;
  version.reset();
  if (current > SqliteLedgerStore::kSchemaVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Ledger database '", path, "' has schema version ", current,
        ", newer than the version this program supports (",
        SqliteLedgerStore::kSchemaVersion, "); use a newer dpq-server."));
  }
  if (current == SqliteLedgerStore::kSchemaVersion) return absl::OkStatus();
  // A new file gets version 1 and then the same migrations as an old one,
  // so that they are exercised on every new ledger.
  if (current < 1) {
    RETURN_IF_ERROR(db.Exec(kSchemaV1, "creating the ledger schema"));
  }
  if (current < 2) {
    RETURN_IF_ERROR(db.Exec(kMigrateV1ToV2,
                            "migrating the ledger schema from version 1 to 2"));
  }
  if (current < 3) {
    RETURN_IF_ERROR(db.Exec(kMigrateV2ToV3,
                            "migrating the ledger schema from version 2 to 3"));
    RETURN_IF_ERROR(
        db.Exec(kReconcileSql, "computing the ledger's budget totals"));
  }
  RETURN_IF_ERROR(db.Exec(kMigrateV3ToV4,
                          "migrating the ledger schema from version 3 to 4"));
  {
    // The rebuilt tables must still satisfy every foreign key.
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> check,
                     db.Prepare("PRAGMA foreign_key_check"));
    ASSIGN_OR_RETURN(const bool violation, check->Step());
    if (violation) {
      return absl::DataLossError(absl::StrCat(
          "Ledger database '", path,
          "' has entries without a budget row; it was not migrated."));
    }
  }
  RETURN_IF_ERROR(db.Exec(
      absl::StrCat("PRAGMA user_version = ", SqliteLedgerStore::kSchemaVersion),
      "setting the schema version"));
  return tx->Commit();
}

// For RunInBatch's wait: the op is done, or no batch is being written.
struct WaitState {
  const bool* done;
  const bool* leader_busy;
};
bool DoneOrNoLeader(WaitState* state) {
  return *state->done || !*state->leader_busy;
}

}  // namespace

struct SqliteLedgerStore::WriteOp {
  enum class Kind { kReserve, kCommit, kCharge, kRefund };
  Kind kind = Kind::kReserve;
  const ReserveRequest* request = nullptr;  // kReserve
  int64_t units = 0;                        // kReserve: the charge
  int64_t entry_id = 0;                     // kCommit, kCharge, kRefund
  const std::string* answer = nullptr;      // kCommit
  // Set by the batch writer; read by the caller once `done`.
  absl::StatusOr<Reservation> result = Reservation();
  bool done = false;  // guarded by the store's queue_mu_
};

SqliteLedgerStore::SqliteLedgerStore(std::string path,
                                     std::unique_ptr<SqliteDatabase> db,
                                     std::unique_ptr<SqliteDatabase> read_db)
    : path_(std::move(path)),
      db_(std::move(db)),
      read_db_(std::move(read_db)) {}

SqliteLedgerStore::~SqliteLedgerStore() = default;

absl::StatusOr<std::unique_ptr<SqliteLedgerStore>> SqliteLedgerStore::Open(
    const std::string& db_path) {
  SqliteDatabase::Options options;
  options.name = "ledger database";
  options.busy_timeout = kBusyTimeout;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db,
                   SqliteDatabase::Open(db_path, options));
  // Foreign keys only after the schema: a migration rebuilds tables, which
  // SQLite allows only with foreign keys off (it checks them itself).
  RETURN_IF_ERROR(EnsureSchema(*db, db_path));
  RETURN_IF_ERROR(
      db->Exec("PRAGMA foreign_keys = ON", "enabling foreign keys"));
  std::unique_ptr<SqliteDatabase> read_db;
  if (db_path != ":memory:") {
    ASSIGN_OR_RETURN(read_db, SqliteDatabase::Open(db_path, options));
    RETURN_IF_ERROR(read_db->Exec("PRAGMA query_only = ON",
                                  "making the read connection read-only"));
  }
  return std::unique_ptr<SqliteLedgerStore>(
      new SqliteLedgerStore(db_path, std::move(db), std::move(read_db)));
}

absl::StatusOr<BudgetState> SqliteLedgerStore::ReadBudgetLocked(
    const std::string& buyer_id, const std::string& dataset_id) {
  return ReadBudget(*db_, buyer_id, dataset_id);
}

absl::StatusOr<BudgetState> SqliteLedgerStore::Grant(
    const std::string& buyer_id, const std::string& dataset_id,
    double epsilon) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  RETURN_IF_ERROR(core::dp::ValidateEpsilon(epsilon, "epsilon"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(epsilon, "epsilon"));
  absl::MutexLock lock(&db_mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/true));
  ASSIGN_OR_RETURN(const BudgetUnits before,
                   ReadBudgetUnits(*db_, buyer_id, dataset_id));
  if (units > kMaxUnits - before.granted) {
    return GrantOverflowError(buyer_id, dataset_id);
  }
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("INSERT INTO budgets (buyer_id, dataset_id, granted) "
                    "VALUES (?1, ?2, ?3) ON CONFLICT (buyer_id, dataset_id) "
                    "DO UPDATE SET granted = granted + excluded.granted"));
    RETURN_IF_ERROR(s->BindText(1, buyer_id));
    RETURN_IF_ERROR(s->BindText(2, dataset_id));
    RETURN_IF_ERROR(s->BindInt64(3, units));
    RETURN_IF_ERROR(s->Run());
  }
  RETURN_IF_ERROR(EnsureDatasetRow(*db_, dataset_id));
  ASSIGN_OR_RETURN(BudgetState budget, ReadBudgetLocked(buyer_id, dataset_id));
  RETURN_IF_ERROR(tx->Commit());
  return budget;
}

absl::StatusOr<BudgetState> SqliteLedgerStore::SetGranted(
    const std::string& buyer_id, const std::string& dataset_id,
    double granted) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(granted, "granted"));
  absl::MutexLock lock(&db_mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/true));
  ASSIGN_OR_RETURN(BudgetState budget, ReadBudgetLocked(buyer_id, dataset_id));
  ASSIGN_OR_RETURN(const BudgetUnits before,
                   ReadBudgetUnits(*db_, buyer_id, dataset_id));
  if (units < before.spent + before.reserved) {
    return GrantBelowUsedError(buyer_id, dataset_id, granted, before.spent,
                               before.reserved);
  }
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("INSERT INTO budgets (buyer_id, dataset_id, granted) "
                    "VALUES (?1, ?2, ?3) ON CONFLICT (buyer_id, dataset_id) "
                    "DO UPDATE SET granted = excluded.granted"));
    RETURN_IF_ERROR(s->BindText(1, buyer_id));
    RETURN_IF_ERROR(s->BindText(2, dataset_id));
    RETURN_IF_ERROR(s->BindInt64(3, units));
    RETURN_IF_ERROR(s->Run());
  }
  RETURN_IF_ERROR(EnsureDatasetRow(*db_, dataset_id));
  RETURN_IF_ERROR(tx->Commit());
  budget.SetUnits(units, budget.spent_units, budget.reserved_units);
  return budget;
}

absl::Status SqliteLedgerStore::SetDatasetCap(const std::string& dataset_id,
                                              double cap) {
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(cap, "cap"));
  absl::MutexLock lock(&db_mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/true));
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("INSERT INTO datasets (dataset_id, cap) VALUES (?1, "
                    "?2) ON CONFLICT (dataset_id) DO UPDATE SET cap = "
                    "excluded.cap"));
    RETURN_IF_ERROR(s->BindText(1, dataset_id));
    RETURN_IF_ERROR(s->BindInt64(2, units));
    RETURN_IF_ERROR(s->Run());
  }
  return tx->Commit();
}

absl::StatusOr<core::ledger::DatasetTotals> SqliteLedgerStore::GetDatasetTotals(
    const std::string& dataset_id) {
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const DatasetTotals totals,
                   OnReadConnection([&](SqliteDatabase& db) {
                     return ReadDatasetTotals(db, dataset_id);
                   }));
  core::ledger::DatasetTotals out;
  out.cap_units = totals.cap;
  out.spent_units = totals.spent;
  return out;
}

absl::StatusOr<BudgetState> SqliteLedgerStore::GetBudget(
    const std::string& buyer_id, const std::string& dataset_id) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  return OnReadConnection(
      [&](SqliteDatabase& db) { return ReadBudget(db, buyer_id, dataset_id); });
}

absl::StatusOr<std::vector<BudgetState>> SqliteLedgerStore::ListBudgets(
    const LedgerFilter& filter) {
  std::string sql =
      "SELECT buyer_id, dataset_id, granted, spent, reserved FROM budgets "
      "WHERE 1";
  if (!filter.buyer_id.empty()) absl::StrAppend(&sql, " AND buyer_id = ?1");
  if (!filter.dataset_id.empty()) {
    absl::StrAppend(&sql, " AND dataset_id = ?2");
  }
  absl::StrAppend(&sql, " ORDER BY buyer_id, dataset_id");
  return OnReadConnection(
      [&](SqliteDatabase& db) -> absl::StatusOr<std::vector<BudgetState>> {
        ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s, db.Cached(sql));
        if (!filter.buyer_id.empty()) {
          RETURN_IF_ERROR(s->BindText(1, filter.buyer_id));
        }
        if (!filter.dataset_id.empty()) {
          RETURN_IF_ERROR(s->BindText(2, filter.dataset_id));
        }
        std::vector<BudgetState> budgets;
        while (true) {
          ASSIGN_OR_RETURN(const bool row, s->Step());
          if (!row) break;
          BudgetState budget;
          budget.buyer_id = s->Text(0);
          budget.dataset_id = s->Text(1);
          budget.SetUnits(s->Int64(2), s->Int64(3), s->Int64(4));
          budgets.push_back(std::move(budget));
        }
        return budgets;
      });
}

absl::StatusOr<Reservation> SqliteLedgerStore::Reserve(
    const ReserveRequest& request) {
  RETURN_IF_ERROR(CheckReserveRequest(request));
  WriteOp op;
  op.kind = WriteOp::Kind::kReserve;
  op.request = &request;
  ASSIGN_OR_RETURN(op.units, ChargeUnits(request.epsilon));
  RunInBatch(op);
  return std::move(op.result);
}

std::vector<absl::StatusOr<Reservation>> SqliteLedgerStore::ReserveAll(
    absl::Span<const ReserveRequest> requests) {
  std::vector<absl::StatusOr<Reservation>> results(requests.size(),
                                                   Reservation());
  std::vector<WriteOp> ops(requests.size());
  std::vector<WriteOp*> valid;
  for (size_t i = 0; i < requests.size(); ++i) {
    const ReserveRequest& request = requests[i];
    absl::Status status = RequireId(request.buyer_id, "buyer_id");
    if (status.ok()) status = RequireId(request.dataset_id, "dataset_id");
    if (status.ok()) status = RequireId(request.request_id, "request_id");
    if (status.ok()) {
      status = core::dp::ValidateEpsilon(request.epsilon, "epsilon");
    }
    absl::StatusOr<int64_t> units = ChargeUnits(request.epsilon);
    if (status.ok()) status = units.status();
    if (!status.ok()) {
      results[i] = status;
      continue;
    }
    ops[i].kind = WriteOp::Kind::kReserve;
    ops[i].request = &request;
    ops[i].units = *units;
    valid.push_back(&ops[i]);
  }
  if (!valid.empty()) {
    absl::MutexLock lock(&db_mu_);
    WriteBatch(valid);
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    if (ops[i].request != nullptr) results[i] = std::move(ops[i].result);
  }
  return results;
}

SqliteLedgerStore::BatchStats SqliteLedgerStore::batch_stats() {
  absl::MutexLock lock(&db_mu_);
  return stats_;
}

void SqliteLedgerStore::RunInBatch(WriteOp& op) {
  queue_mu_.Lock();
  queue_.push_back(&op);
  WaitState wait{&op.done, &leader_busy_};
  while (true) {
    queue_mu_.Await(absl::Condition(&DoneOrNoLeader, &wait));
    if (op.done) break;
    // No batch is being written and ours is still queued: lead the next
    // batch, which carries everything queued meanwhile.
    leader_busy_ = true;
    std::vector<WriteOp*> batch;
    batch.swap(queue_);
    queue_mu_.Unlock();
    {
      absl::MutexLock db_lock(&db_mu_);
      WriteBatch(batch);
    }
    queue_mu_.Lock();
    for (WriteOp* done : batch) done->done = true;
    leader_busy_ = false;
  }
  queue_mu_.Unlock();
}

void SqliteLedgerStore::WriteBatch(absl::Span<WriteOp* const> batch) {
  ++stats_.batches;
  stats_.operations += static_cast<int64_t>(batch.size());
  const auto fail_all = [&](const absl::Status& status) {
    for (WriteOp* op : batch) op->result = status;
  };
  absl::StatusOr<std::unique_ptr<SqliteTransaction>> tx =
      db_->Begin(/*immediate=*/true);
  if (!tx.ok()) return fail_all(tx.status());
  SqliteDatabase& db = *db_;
  const auto run = [&db](const char* sql) -> absl::Status {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s, db.Cached(sql));
    return s->Run();
  };
  for (WriteOp* op : batch) {
    absl::Status status = run("SAVEPOINT op");
    if (status.ok()) {
      op->result = ApplyLocked(*op);
      // Undo whatever a failed operation wrote before failing.
      if (!op->result.ok()) status = run("ROLLBACK TO op");
      if (status.ok()) status = run("RELEASE op");
    }
    // Some errors (I/O, disk full) make SQLite roll back the whole
    // transaction: then nothing of the batch is stored.
    if (!status.ok() || !db.InTransaction()) {
      return fail_all(status.ok()
                          ? db.LastError("writing a batch of ledger operations")
                          : status);
    }
  }
  const absl::Status commit = (*tx)->Commit();
  if (!commit.ok()) {
    for (WriteOp* op : batch) {
      if (op->result.ok()) op->result = commit;
    }
  }
}

absl::StatusOr<Reservation> SqliteLedgerStore::ApplyLocked(const WriteOp& op) {
  switch (op.kind) {
    case WriteOp::Kind::kReserve:
      return ReserveLocked(*op.request, op.units);
    case WriteOp::Kind::kCommit:
      RETURN_IF_ERROR(CommitLocked(op.entry_id, *op.answer));
      return Reservation();
    case WriteOp::Kind::kCharge:
      RETURN_IF_ERROR(SettleLocked(op.entry_id, kCharged));
      return Reservation();
    case WriteOp::Kind::kRefund:
      RETURN_IF_ERROR(SettleLocked(op.entry_id, kRefunded));
      return Reservation();
  }
  return absl::InternalError("Unknown ledger operation.");
}

absl::StatusOr<Reservation> SqliteLedgerStore::ReserveLocked(
    const ReserveRequest& request, int64_t units) {
  // 1. A live entry with this request id: a retry, a conflict, a request
  //    still in progress, or a charged one to resume.
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached(
            "SELECT entry_id, dataset_id, fingerprint, epsilon, state, answer "
            "FROM entries WHERE buyer_id = ?1 AND request_id = ?2 "
            "AND state IN ('reserved', 'committed', 'charged')"));
    RETURN_IF_ERROR(s->BindText(1, request.buyer_id));
    RETURN_IF_ERROR(s->BindText(2, request.request_id));
    ASSIGN_OR_RETURN(const bool row, s->Step());
    if (row) {
      const int64_t entry_id = s->Int64(0);
      const bool same = s->Text(1) == request.dataset_id &&
                        s->Blob(2) == request.fingerprint &&
                        s->Int64(3) == units;
      const std::string state = s->Text(4);
      if (!same) return RequestIdReusedError(request);
      if (state == kReserved) return StillInProgressError(request);
      Reservation replay;
      if (state == kCharged) {
        replay.entry_id = entry_id;  // resume: charged already
        replay.resumed = true;
      } else {
        replay.recorded_answer = s->Blob(5);
      }
      s.reset();
      ASSIGN_OR_RETURN(
          const BudgetUnits budget,
          ReadBudgetUnits(*db_, request.buyer_id, request.dataset_id));
      replay.remaining_units = std::max<int64_t>(0, budget.remaining());
      replay.remaining = FromUnits(replay.remaining_units);
      return replay;  // Read only.
    }
  }

  // 2. The buyer's budget (its running totals), exactly.
  ASSIGN_OR_RETURN(const BudgetUnits budget,
                   ReadBudgetUnits(*db_, request.buyer_id, request.dataset_id));
  const int64_t remaining = budget.remaining();
  if (units > remaining) {
    if (budget.granted == 0 && budget.spent == 0 && budget.reserved == 0) {
      return NoGrantError(request, units);
    }
    return BudgetExhaustedError(request, std::max<int64_t>(0, remaining),
                                units);
  }

  // 3. The dataset's cap over all buyers.
  ASSIGN_OR_RETURN(const DatasetTotals totals,
                   ReadDatasetTotals(*db_, request.dataset_id));
  if (totals.cap > 0) {
    const int64_t used = totals.spent + totals.reserved;
    if (units > totals.cap - used) {
      return DatasetCapError(request, totals.cap,
                             std::max<int64_t>(0, totals.cap - used),
                             std::max<int64_t>(0, remaining), units);
    }
  }

  // 4. Hold the epsilon.
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                     db_->Cached(kReserveInsertSql));
    RETURN_IF_ERROR(s->BindText(1, request.buyer_id));
    RETURN_IF_ERROR(s->BindText(2, request.dataset_id));
    RETURN_IF_ERROR(s->BindText(3, request.request_id));
    RETURN_IF_ERROR(s->BindBlob(4, request.fingerprint));
    RETURN_IF_ERROR(s->BindText(5, request.operation));
    RETURN_IF_ERROR(s->BindText(6, request.neighbouring));
    RETURN_IF_ERROR(s->BindInt64(7, units));
    RETURN_IF_ERROR(s->BindInt64(8, NowMicros()));
    RETURN_IF_ERROR(s->Run());
  }
  const int64_t entry_id = db_->LastInsertRowId();
  RETURN_IF_ERROR(UpdateTotalsLocked(request.buyer_id, request.dataset_id,
                                     /*spent_delta=*/0));
  Reservation reservation;
  reservation.entry_id = entry_id;
  reservation.remaining_units = remaining - units;
  reservation.remaining = FromUnits(reservation.remaining_units);
  return reservation;
}

absl::Status SqliteLedgerStore::UpdateTotalsLocked(
    const std::string& buyer_id, const std::string& dataset_id,
    int64_t spent_delta) {
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                     db_->Cached(kUpdateBudgetTotalsSql));
    RETURN_IF_ERROR(s->BindText(1, buyer_id));
    RETURN_IF_ERROR(s->BindText(2, dataset_id));
    RETURN_IF_ERROR(s->BindInt64(3, spent_delta));
    RETURN_IF_ERROR(s->Run());
  }
  const bool budget_updated = db_->Changes() == 1;
  RETURN_IF_ERROR(EnsureDatasetRow(*db_, dataset_id));
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                     db_->Cached(kUpdateDatasetTotalsSql));
    RETURN_IF_ERROR(s->BindText(1, dataset_id));
    RETURN_IF_ERROR(s->BindInt64(2, spent_delta));
    RETURN_IF_ERROR(s->Run());
  }
  if (!budget_updated) {
    // The foreign key makes this impossible for a consistent database.
    return absl::InternalError(absl::StrCat(
        "Ledger database has an entry of buyer '", buyer_id, "' on dataset '",
        dataset_id, "' but no budget row for it."));
  }
  return absl::OkStatus();
}

absl::StatusOr<SqliteLedgerStore::EntryStatus>
SqliteLedgerStore::EntryStatusLocked(int64_t entry_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                   db_->Cached("SELECT state, buyer_id, buyer_seq FROM entries "
                               "WHERE entry_id = ?1"));
  RETURN_IF_ERROR(s->BindInt64(1, entry_id));
  ASSIGN_OR_RETURN(const bool row, s->Step());
  EntryStatus status;
  if (!row) {
    status.name = "an unknown ledger entry";
    return status;
  }
  status.state = s->Text(0);
  // The handle entry_id is global: messages name the entry as buyers see
  // it, since they can reach a buyer (charged_release.cc).
  status.name = absl::StrCat("ledger entry ", s->Int64(2), " of buyer '",
                             s->Text(1), "'");
  return status;
}

absl::Status SqliteLedgerStore::SettleLocked(int64_t entry_id,
                                             const char* new_state) {
  std::string buyer_id, dataset_id;
  int64_t units = 0;
  bool settled = false;
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("UPDATE entries SET state = ?2, settled_at_us = ?3 "
                    "WHERE entry_id = ?1 AND state = 'reserved' "
                    "RETURNING buyer_id, dataset_id, epsilon"));
    RETURN_IF_ERROR(s->BindInt64(1, entry_id));
    RETURN_IF_ERROR(s->BindText(2, new_state));
    RETURN_IF_ERROR(s->BindInt64(3, NowMicros()));
    ASSIGN_OR_RETURN(settled, s->Step());
    if (settled) {
      buyer_id = s->Text(0);
      dataset_id = s->Text(1);
      units = s->Int64(2);
      ASSIGN_OR_RETURN(const bool more, s->Step());
      (void)more;  // entry_id is the primary key: one row at most
    }
  }
  if (!settled) {
    ASSIGN_OR_RETURN(const EntryStatus entry, EntryStatusLocked(entry_id));
    const std::string verb =
        std::string(new_state) == kRefunded ? "refund" : "charge";
    return absl::FailedPreconditionError(
        entry.state.empty()
            ? absl::StrCat("Cannot ", verb, " ", entry.name, ".")
            : absl::StrCat("Cannot ", verb, " ", entry.name, ": it is ",
                           entry.state, ", not reserved."));
  }
  return UpdateTotalsLocked(
      buyer_id, dataset_id,
      std::string(new_state) == kCharged ? units : int64_t{0});
}

absl::Status SqliteLedgerStore::CommitLocked(int64_t entry_id,
                                             const std::string& answer) {
  // A reservation: charged now, with its answer.
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached(
            "UPDATE entries SET state = 'committed', settled_at_us = ?2, "
            "answer = ?3 WHERE entry_id = ?1 AND state = 'reserved' "
            "RETURNING buyer_id, dataset_id, epsilon"));
    RETURN_IF_ERROR(s->BindInt64(1, entry_id));
    RETURN_IF_ERROR(s->BindInt64(2, NowMicros()));
    RETURN_IF_ERROR(s->BindBlob(3, answer));
    ASSIGN_OR_RETURN(const bool settled, s->Step());
    if (settled) {
      const std::string buyer_id = s->Text(0);
      const std::string dataset_id = s->Text(1);
      const int64_t units = s->Int64(2);
      ASSIGN_OR_RETURN(const bool more, s->Step());
      (void)more;
      s.reset();
      return UpdateTotalsLocked(buyer_id, dataset_id, units);
    }
  }
  // A resumed entry, charged earlier without an answer: only the answer.
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("UPDATE entries SET state = 'committed', answer = ?2 "
                    "WHERE entry_id = ?1 AND state = 'charged'"));
    RETURN_IF_ERROR(s->BindInt64(1, entry_id));
    RETURN_IF_ERROR(s->BindBlob(2, answer));
    RETURN_IF_ERROR(s->Run());
    if (db_->Changes() == 1) return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(const EntryStatus entry, EntryStatusLocked(entry_id));
  return CommitRefusedError(entry.state, entry.name);
}

absl::Status SqliteLedgerStore::Commit(int64_t entry_id,
                                       const std::string& answer) {
  WriteOp op;
  op.kind = WriteOp::Kind::kCommit;
  op.entry_id = entry_id;
  op.answer = &answer;
  RunInBatch(op);
  return op.result.status();
}

absl::Status SqliteLedgerStore::ChargeWithoutAnswer(int64_t entry_id) {
  WriteOp op;
  op.kind = WriteOp::Kind::kCharge;
  op.entry_id = entry_id;
  RunInBatch(op);
  return op.result.status();
}

absl::Status SqliteLedgerStore::Refund(int64_t entry_id) {
  WriteOp op;
  op.kind = WriteOp::Kind::kRefund;
  op.entry_id = entry_id;
  RunInBatch(op);
  return op.result.status();
}

absl::StatusOr<int64_t> SqliteLedgerStore::RecoverPending() {
  absl::MutexLock lock(&db_mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/true));
  // The running `reserved` totals are exactly the sums of the reserved
  // entries (kept in the same transactions), so they move to `spent`.
  RETURN_IF_ERROR(
      db_->Exec("UPDATE budgets SET spent = spent + reserved, "
                "reserved = 0 WHERE reserved != 0;"
                "UPDATE datasets SET spent = spent + reserved, "
                "reserved = 0 WHERE reserved != 0;",
                "charging the reserved totals"));
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Cached("UPDATE entries SET state = 'charged', "
                    "settled_at_us = ?1 WHERE state = 'reserved'"));
    RETURN_IF_ERROR(s->BindInt64(1, NowMicros()));
    RETURN_IF_ERROR(s->Run());
  }
  const int64_t charged = db_->Changes();
  RETURN_IF_ERROR(tx->Commit());
  return charged;
}

absl::StatusOr<std::vector<LedgerEntry>> SqliteLedgerStore::ListEntries(
    const LedgerFilter& filter) {
  std::string sql =
      absl::StrCat("SELECT ", kEntryColumns, " FROM entries WHERE 1");
  if (!filter.buyer_id.empty()) absl::StrAppend(&sql, " AND buyer_id = ?1");
  if (!filter.dataset_id.empty()) absl::StrAppend(&sql, " AND dataset_id = ?2");
  const bool before = !filter.buyer_id.empty() && filter.before_buyer_seq > 0;
  if (before) absl::StrAppend(&sql, " AND buyer_seq < ?4");
  const bool before_entry = filter.before_entry_id > 0;
  if (before_entry) absl::StrAppend(&sql, " AND entry_id < ?5");
  absl::StrAppend(&sql, " ORDER BY entry_id DESC LIMIT ?3");
  const int64_t limit =
      filter.limit > static_cast<size_t>(std::numeric_limits<int64_t>::max())
          ? std::numeric_limits<int64_t>::max()
          : static_cast<int64_t>(filter.limit);
  return OnReadConnection(
      [&](SqliteDatabase& db) -> absl::StatusOr<std::vector<LedgerEntry>> {
        ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s, db.Cached(sql));
        if (!filter.buyer_id.empty()) {
          RETURN_IF_ERROR(s->BindText(1, filter.buyer_id));
        }
        if (!filter.dataset_id.empty()) {
          RETURN_IF_ERROR(s->BindText(2, filter.dataset_id));
        }
        RETURN_IF_ERROR(s->BindInt64(3, limit));
        if (before) RETURN_IF_ERROR(s->BindInt64(4, filter.before_buyer_seq));
        if (before_entry) {
          RETURN_IF_ERROR(s->BindInt64(5, filter.before_entry_id));
        }
        std::vector<LedgerEntry> entries;
        while (true) {
          ASSIGN_OR_RETURN(const bool row, s->Step());
          if (!row) break;
          ASSIGN_OR_RETURN(LedgerEntry entry, ReadEntry(*s));
          entries.push_back(std::move(entry));
        }
        return entries;
      });
}

absl::StatusOr<LedgerSnapshot> SqliteLedgerStore::Export() {
  LedgerSnapshot snapshot;
  absl::MutexLock lock(&db_mu_);
  // A read transaction: one snapshot of the three tables (WAL readers do
  // not block writers, nor see their later commits). Rolled back at the end.
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/false));
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> s,
        db_->Prepare("SELECT buyer_id, dataset_id, granted, spent, reserved "
                     "FROM budgets ORDER BY buyer_id, dataset_id"));
    while (true) {
      ASSIGN_OR_RETURN(const bool row, s->Step());
      if (!row) break;
      snapshot.budgets.push_back(LedgerBudgetRecord{
          s->Text(0), s->Text(1), s->Int64(2), s->Int64(3), s->Int64(4)});
    }
  }
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> s,
                     db_->Prepare("SELECT dataset_id, cap FROM datasets "
                                  "ORDER BY dataset_id"));
    while (true) {
      ASSIGN_OR_RETURN(const bool row, s->Step());
      if (!row) break;
      snapshot.datasets.push_back(LedgerDatasetRecord{s->Text(0), s->Int64(1)});
    }
  }
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> s,
      db_->Prepare("SELECT buyer_id, buyer_seq, dataset_id, request_id, "
                   "fingerprint, operation, neighbouring, epsilon, state, "
                   "created_at_us, settled_at_us, answer "
                   "FROM entries ORDER BY entry_id"));
  while (true) {
    ASSIGN_OR_RETURN(const bool row, s->Step());
    if (!row) break;
    LedgerEntryRecord entry;
    entry.buyer_id = s->Text(0);
    entry.buyer_seq = s->Int64(1);
    entry.dataset_id = s->Text(2);
    entry.request_id = s->Text(3);
    entry.fingerprint = s->Blob(4);
    entry.operation = s->Text(5);
    entry.neighbouring = s->Text(6);
    entry.epsilon = s->Int64(7);
    ASSIGN_OR_RETURN(entry.state, ParseEntryState(s->Text(8)));
    entry.created_at = absl::FromUnixMicros(s->Int64(9));
    if (!s->IsNull(10)) entry.settled_at = absl::FromUnixMicros(s->Int64(10));
    if (!s->IsNull(11)) entry.answer = s->Blob(11);
    snapshot.entries.push_back(std::move(entry));
  }
  return snapshot;
}

}  // namespace dpq::server::storage
