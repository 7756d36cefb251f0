// The embedded SQLite ledger (design.md 5.6, 5.7, 6): one database file in
// the server's data directory, WAL journal, synchronous=FULL, so every state
// change returned by a method is on disk before the method returns and
// survives kill -9 and power loss.
//
// Schema (version kSchemaVersion, kept in PRAGMA user_version):
//   budgets(buyer_id, dataset_id, granted)        PRIMARY KEY (buyer, dataset)
//   caps(dataset_id, cap)                          one row per capped dataset
//   entries(entry_id, buyer_id, dataset_id, request_id, fingerprint,
//           operation, neighbouring, epsilon, state, created_at_us,
//           settled_at_us, answer)
// `spent` and `reserved` are never stored: they are sums over the committed
// and reserved entries, so there is one source of truth and nothing can
// drift. (buyer_id, request_id) is unique among reserved and committed
// entries; refunded entries stay as history and free their request_id.
//
// Floating point: epsilons are doubles and their sums carry rounding error
// (0.1 + 0.1 + 0.1 > 0.3). A reservation is accepted if it exceeds the
// remaining budget by at most kRelativeTolerance * granted (and likewise for
// the cap), i.e. by rounding noise, never by a real amount: with granted
// 0.3, three requests of 0.1 fit, a fourth does not.
//
// Thread-safe: one connection guarded by a mutex; each method is one short
// transaction (BEGIN IMMEDIATE for writes) and nothing slow runs under the
// lock. Several processes may open the same file: writers wait for each
// other (busy timeout kBusyTimeout) instead of failing.
#ifndef DPQ_CORE_LEDGER_SQLITE_LEDGER_STORE_H_
#define DPQ_CORE_LEDGER_SQLITE_LEDGER_STORE_H_

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
#include "core/ledger/ledger.h"

struct sqlite3;

namespace dpq::core::ledger {

class SqliteLedgerStore final : public LedgerStore {
 public:
  // The schema version this code writes and reads.
  static constexpr int kSchemaVersion = 1;
  // How long a write waits for another process holding the database.
  static constexpr absl::Duration kBusyTimeout = absl::Seconds(10);
  // Relative slack for floating-point sums, see the file comment.
  static constexpr double kRelativeTolerance = 1e-12;

  // Opens (creating if absent, with mode 0600) the ledger database at
  // `db_path`, switches it to WAL with synchronous=FULL and foreign keys,
  // and creates the schema if the file is new. ":memory:" gives a private
  // in-memory ledger (tests only: not durable).
  // Errors: kInvalidArgument for an empty path; kFailedPrecondition if the
  // file cannot be opened, is not a SQLite database, or has a newer schema
  // version; kInternal for other SQLite errors.
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
  absl::StatusOr<BudgetState> Grant(const std::string& buyer_id,
                                    const std::string& dataset_id,
                                    double epsilon) override;
  absl::StatusOr<BudgetState> SetGranted(const std::string& buyer_id,
                                         const std::string& dataset_id,
                                         double granted) override;
  // A cap below what is already spent and reserved is accepted: it only
  // refuses further reservations on the dataset.
  absl::Status SetDatasetCap(const std::string& dataset_id,
                             double cap) override;
  absl::StatusOr<std::pair<double, double>> DatasetCapAndSpent(
      const std::string& dataset_id) override;
  absl::StatusOr<BudgetState> GetBudget(const std::string& buyer_id,
                                        const std::string& dataset_id) override;
  absl::StatusOr<std::vector<BudgetState>> ListBudgets(
      const LedgerFilter& filter) override;
  // A retry is recognised by (buyer_id, request_id): it is the same request
  // iff dataset_id, fingerprint and epsilon are all equal.
  absl::StatusOr<Reservation> Reserve(const ReserveRequest& request) override;
  absl::Status Commit(int64_t entry_id, const std::string& answer) override;
  absl::Status Refund(int64_t entry_id) override;
  absl::StatusOr<int64_t> RecoverPending() override;
  // Includes refunded entries (with their state) and recorded answers.
  absl::StatusOr<std::vector<LedgerEntry>> ListEntries(
      const LedgerFilter& filter) override;

 private:
  SqliteLedgerStore(std::string path, sqlite3* db);

  // Moves a reserved entry to `new_state` ("committed" or "refunded").
  absl::Status Settle(int64_t entry_id, const char* new_state,
                      const std::string* answer);

  const std::string path_;
  absl::Mutex mu_;
  sqlite3* const db_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_SQLITE_LEDGER_STORE_H_
