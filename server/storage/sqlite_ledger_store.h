// The embedded SQLite ledger, a LedgerStore (core/ledger/ledger.h; the
// charge rules it keeps are in docs/privacy.md, section 3): one database
// file in the server's data directory, opened with SqliteDatabase
// (sqlite_database.h: mode 0600, WAL journal, synchronous=FULL), so every
// state change returned by a method is on disk before the method returns
// and survives kill -9 and power loss.
//
// Schema (version kSchemaVersion, kept in PRAGMA user_version):
//   budgets(buyer_id, dataset_id, granted, spent, reserved)
//                                   PRIMARY KEY (buyer, dataset)
//   datasets(dataset_id, cap, spent, reserved)   cap 0 = none
//   entries(entry_id, buyer_id, dataset_id, request_id, fingerprint,
//           operation, neighbouring, epsilon, state, created_at_us,
//           settled_at_us, answer, buyer_seq)
//                                   UNIQUE (buyer_id, buyer_seq)
// Every amount is an INTEGER number of units of 10^-12 epsilon
// (core/ledger/epsilon_units.h), so sums are exact. States: reserved,
// committed (with answer), charged (no answer yet; spent), refunded.
// The entries are the source of truth; `spent` and `reserved` in budgets and
// datasets are totals over them kept in the same transaction as every entry
// change, so that a reservation reads O(1) rows instead of summing the
// buyer's whole history. `spent` is a running sum (it only grows);
// `reserved` is re-summed over the in-flight entries of the row (a partial
// index holds only those, so the cost is the number of concurrent requests)
// whenever a reservation is settled, so it never drifts and is exactly 0 when
// nothing is in flight. Version 1 databases (no totals) are migrated at Open:
// the totals are computed once from the entries. (buyer_id, request_id) is
// unique among reserved and committed entries; refunded entries stay as
// history and free their request_id.
//
// Group commit: Reserve, Commit and Refund of concurrent callers are written
// by one leader thread in one transaction (one fsync); each caller returns
// only when that transaction is durable. Inside the batch every operation
// runs in order under its own savepoint and is checked against the totals
// left by the ones before it, so one failing operation (budget exhausted,
// unknown entry, ...) does not affect the others. If the transaction itself
// fails, every operation of the batch fails and nothing of it is stored.
//
// Exactness: a charge is the request's epsilon rounded UP to whole units, a
// grant or cap the nearest whole units, and a reservation fits iff its
// units are at most the remaining units: with granted 0.3, three requests
// of 0.1 fit exactly, a fourth does not, and no tolerance ever lets the
// total exceed the grant. Version 2 databases (REAL amounts) are migrated
// at Open.
//
// Entry numbers: entry_id is a global AUTOINCREMENT handle (internal: it
// would tell a buyer how many entries other buyers made); buyer_seq numbers
// each buyer's entries 1, 2, 3, ... over every dataset, assigned in the
// reserving transaction. Version 3 databases get buyer_seq at Open,
// numbered by entry_id within each buyer.
//
// Thread-safe: one connection guarded by a mutex, with its prepared
// statements cached; each write is one short transaction (BEGIN IMMEDIATE)
// and nothing slow runs under the lock. Several processes may open the same
// file: writers wait for each other (busy timeout kBusyTimeout) instead of
// failing.
//
// The store-agnostic behaviour is tested for every LedgerStore by the
// suites in tests/core/ledger (ledger_store_suites.h), instantiated for
// this store in tests/server/storage/sqlite_ledger_store_test.cc.
#ifndef DPQ_SERVER_STORAGE_SQLITE_LEDGER_STORE_H_
#define DPQ_SERVER_STORAGE_SQLITE_LEDGER_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/ledger/ledger.h"
#include "server/storage/ledger_snapshot.h"

namespace dpq::server::storage {

class SqliteDatabase;

class SqliteLedgerStore final : public core::ledger::LedgerStore {
 public:
  // The schema version this code writes and reads.
  static constexpr int kSchemaVersion = 4;
  // How long a write waits for another process holding the database.
  static constexpr absl::Duration kBusyTimeout = absl::Seconds(10);

  // Opens (creating if absent, with mode 0600) the ledger database at
  // `db_path`, switches it to WAL with synchronous=FULL and foreign keys,
  // creates the schema if the file is new and migrates an older one. ":memory:"
  // gives a private in-memory ledger (tests only: not durable). Errors:
  // kInvalidArgument for an empty path; kFailedPrecondition if the file cannot
  // be created or opened, is not a SQLite database, or has a newer schema
  // version; kUnavailable if another process kept it locked for longer than
  // kBusyTimeout; kInternal for other SQLite errors.
  static absl::StatusOr<std::unique_ptr<SqliteLedgerStore>> Open(
      const std::string& db_path);

  SqliteLedgerStore(const SqliteLedgerStore&) = delete;
  SqliteLedgerStore& operator=(const SqliteLedgerStore&) = delete;
  ~SqliteLedgerStore() override;

  // The path given to Open.
  const std::string& path() const { return path_; }

  // LedgerStore (contracts in ledger.h). SQLite failures are kInternal with
  // the SQLite message, or kUnavailable if the database stayed locked by
  // another process for longer than kBusyTimeout.
  absl::StatusOr<core::ledger::BudgetState> Grant(const std::string& buyer_id,
                                                  const std::string& dataset_id,
                                                  double epsilon) override;
  absl::StatusOr<core::ledger::BudgetState> SetGranted(
      const std::string& buyer_id, const std::string& dataset_id,
      double granted) override;
  // A cap below what is already spent and reserved is accepted: it only
  // refuses further reservations on the dataset.
  absl::Status SetDatasetCap(const std::string& dataset_id,
                             double cap) override;
  absl::StatusOr<core::ledger::DatasetTotals> GetDatasetTotals(
      const std::string& dataset_id) override;
  absl::StatusOr<core::ledger::BudgetState> GetBudget(
      const std::string& buyer_id, const std::string& dataset_id) override;
  absl::StatusOr<std::vector<core::ledger::BudgetState>> ListBudgets(
      const core::ledger::LedgerFilter& filter) override;
  // A retry is recognised by (buyer_id, request_id): it is the same request
  // iff dataset_id, fingerprint and epsilon are all equal.
  absl::StatusOr<core::ledger::Reservation> Reserve(
      const core::ledger::ReserveRequest& request) override;
  absl::Status Commit(int64_t entry_id, const std::string& answer) override;
  absl::Status ChargeWithoutAnswer(int64_t entry_id) override;
  absl::Status Refund(int64_t entry_id) override;
  absl::StatusOr<int64_t> RecoverPending() override;
  // Includes refunded entries (with their state) and recorded answers.
  absl::StatusOr<std::vector<core::ledger::LedgerEntry>> ListEntries(
      const core::ledger::LedgerFilter& filter) override;

  // Every budget, dataset row and entry as stored, read in one transaction
  // (a consistent snapshot even while another process writes), for
  // dpq-server --import-sqlite (sqlite_import.h). Reservations stay
  // reserved here: the caller decides what they become.
  absl::StatusOr<LedgerSnapshot> Export() ABSL_LOCKS_EXCLUDED(db_mu_);

  // Reserves every request in one transaction (one fsync), in order, each
  // checked against the budget and cap left by the ones before it; the
  // result of each is what Reserve would return, and one failing does not
  // affect the others. Reserve uses the same path for concurrent callers;
  // this is for bulk callers and for tests that need a known batch.
  std::vector<absl::StatusOr<core::ledger::Reservation>> ReserveAll(
      absl::Span<const core::ledger::ReserveRequest> requests);

  // Group-commit counters since Open: durable write transactions run for
  // Reserve/Commit/Refund, and the operations they carried.
  struct BatchStats {
    int64_t batches = 0;
    int64_t operations = 0;
  };
  BatchStats batch_stats();

 private:
  struct WriteOp;  // one queued Reserve, Commit or Refund

  SqliteLedgerStore(std::string path, std::unique_ptr<SqliteDatabase> db,
                    std::unique_ptr<SqliteDatabase> read_db);

  // Runs `read(db)` on the read connection (the write one for an in-memory
  // database, which a second connection would not see), under its lock.
  template <typename Read>
  auto OnReadConnection(Read read) ABSL_NO_THREAD_SAFETY_ANALYSIS {
    if (read_db_ != nullptr) {
      absl::MutexLock lock(&read_mu_);
      return read(*read_db_);
    }
    absl::MutexLock lock(&db_mu_);
    return read(*db_);
  }

  // Queues `op` and returns when the batch that carried it is durable (or
  // failed). The first caller that finds no batch running becomes the
  // leader: it writes everything queued so far, then wakes the others.
  void RunInBatch(WriteOp& op) ABSL_LOCKS_EXCLUDED(queue_mu_, db_mu_);
  // Writes `batch` in one transaction, setting each op's result.
  void WriteBatch(absl::Span<WriteOp* const> batch)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  absl::StatusOr<core::ledger::Reservation> ApplyLocked(const WriteOp& op)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  absl::StatusOr<core::ledger::Reservation> ReserveLocked(
      const core::ledger::ReserveRequest& request, int64_t units)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  // Moves a reserved entry to `new_state` ("charged" or "refunded").
  absl::Status SettleLocked(int64_t entry_id, const char* new_state)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  // A reserved entry -> committed with `answer`; a charged one gets the
  // answer (resume); kAborted if it already has one.
  absl::Status CommitLocked(int64_t entry_id, const std::string& answer)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  // An entry's state text ("" if there is no such entry) and its name for
  // messages, by buyer and buyer_seq (never the global handle).
  struct EntryStatus {
    std::string state;
    std::string name;
  };
  absl::StatusOr<EntryStatus> EntryStatusLocked(int64_t entry_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  absl::StatusOr<core::ledger::BudgetState> ReadBudgetLocked(
      const std::string& buyer_id, const std::string& dataset_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);
  // Re-sums `reserved` of the budget and dataset over in-flight entries and
  // adds `spent_delta` to their `spent`.
  absl::Status UpdateTotalsLocked(const std::string& buyer_id,
                                  const std::string& dataset_id,
                                  int64_t spent_delta)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(db_mu_);

  const std::string path_;

  // Group commit queue. Lock order: queue_mu_ is never held while waiting
  // for db_mu_.
  absl::Mutex queue_mu_;
  std::vector<WriteOp*> queue_ ABSL_GUARDED_BY(queue_mu_);
  bool leader_busy_ ABSL_GUARDED_BY(queue_mu_) = false;

  absl::Mutex db_mu_;
  // The connection, with its cached prepared statements.
  const std::unique_ptr<SqliteDatabase> db_ ABSL_PT_GUARDED_BY(db_mu_);
  BatchStats stats_ ABSL_GUARDED_BY(db_mu_);
  // A second connection for the reads (GetBudget, ListBudgets,
  // ListEntries, GetDatasetTotals): in WAL mode it reads the last committed
  // state without waiting for a batch's durable commit on db_, so a buyer's
  // budget read is not queued behind other buyers' releases. Null for
  // ":memory:".
  absl::Mutex read_mu_;
  const std::unique_ptr<SqliteDatabase> read_db_ ABSL_PT_GUARDED_BY(read_mu_);
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_SQLITE_LEDGER_STORE_H_
