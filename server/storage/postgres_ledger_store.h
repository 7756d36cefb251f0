// The PostgreSQL ledger, a LedgerStore (core/ledger/ledger.h; the charge
// rules it keeps are in docs/privacy.md, section 3) for the shared-state
// mode (docs/operations.md): several dpq-server replicas, in one or more
// processes, each with its own PostgresLedgerStore on one database. It keeps
// the SQLite store's guarantees (sqlite_ledger_store.h) across all of them:
//  - a reservation is atomic over every replica: it locks its buyer's and
//    its budget's rows (SELECT ... FOR UPDATE) in the one short
//    transaction that checks the budget and inserts the entry;
//  - idempotency by (buyer, request_id) over every replica, with the same
//    rules (a committed retry replays its answer, one still reserved is
//    kAborted, one charged without answer is resumed, another fingerprint
//    is kAlreadyExists, a refunded one frees its request_id): one buyer's
//    reservations queue on the buyer's row, so each sees the entries of
//    those before it, and a unique index over the live entries backs it;
//  - dataset caps count every buyer on every replica;
//  - exact amounts: BIGINT units of 10^-12 epsilon (epsilon_units.h);
//  - entries are numbered per buyer (buyer_seq 1, 2, 3, ...; the global
//    entry_id is internal) from a counter in the buyer's row.
// The same messages as the SQLite store.
//
// Schema (the "ledger" migrations, postgres_ledger_schema.h):
//   ledger_budgets(buyer_id, dataset_id, granted, used)  used = spent +
//                                                         reserved
//   ledger_datasets(dataset_id, cap)                     cap 0 = none
//   ledger_buyers(buyer_id, last_seq)                    buyer_seq counter
//   ledger_entries(entry_id, buyer_id, buyer_seq, dataset_id, request_id,
//                  fingerprint, operation, neighbouring, epsilon, state,
//                  created_at, settled_at, answer, incarnation)
//   ledger_replicas(incarnation, replica_id, started_at, lease_until)
// `used` is a running total, raised by reservations and lowered by refunds
// in the transaction that changes the entry; committing or charging moves
// epsilon from reserved to spent and leaves it alone. `reserved` is summed
// over the budget's in-flight entries (a partial index holds only those)
// when a budget is read, and spent = used - reserved.
//
// Round trips and contention. Writes on the release path are
// group-committed as in the SQLite store (group_commit.h): the Reserve
// calls waiting in this process are written by one call of the PL/pgSQL
// function ledger_reserve, the Commit calls by one call of ledger_commit;
// each call is one round trip and one short autocommit transaction (one
// WAL flush), its items applied in order, each checked against what the
// ones before it left, one failing without affecting the others. A
// reservation batch locks its rows in a fixed order (buyers, budgets,
// datasets; each sorted), so batches of different replicas queue instead
// of deadlocking. Commits, charges and the sweeps change only entry rows
// (a refund also its budget's), so they never queue behind reservations.
// A dataset's row is locked FOR SHARE while the dataset has no cap, so
// reservations of different buyers on it do not queue on one row; only on
// a capped dataset is it locked FOR UPDATE, and the dataset's total (used,
// summed over its budgets) is then read under that lock. SetDatasetCap
// takes the row FOR UPDATE, so it waits for the reservations that read the
// old cap. Every write is durable when its call returns
// (synchronous_commit as the server has it: on by default).
//
// Replicas and leases. Each Open registers a new incarnation (a row of
// ledger_replicas) of options.replica_id, and every entry records the
// incarnation that reserved it. A background thread renews the lease every
// lease/3 (lease_until = the database's now() + lease, so the replicas'
// clocks do not matter) and sweeps: every reservation of an incarnation
// whose lease has expired (its process died or lost the database) is
// CHARGED without an answer, exactly as RecoverPending charges them, and a
// retry with the same request_id then resumes it at no further cost. They
// are never refunded: whether a computation finished, or its replica died,
// can depend on the private data, so the charge stands (docs/privacy.md 3,
// rule 3). (The feature request asked for expired reservations to be
// refunded; this rule overrides it.)
// The same thread charges this incarnation's own reservations that no call
// holds any more and that are older than kOrphanAge: a Reserve or Commit
// whose outcome was lost with the connection (kUnavailable) leaves such an
// entry behind. Charging is a state change from reserved only, so an entry
// already committed, charged or refunded is never charged (twice).
// RecoverPending, called at start-up, charges what earlier incarnations of
// this replica_id left reserved (and this incarnation's, which holds
// nothing before serving), never another replica's.
//
// Errors: the database unreachable is kUnavailable ("PostgreSQL is
// unreachable: ...; retry", from postgres_database.h) from every method; a
// Reserve that fails so has reserved nothing the caller can use (an entry
// its lost transaction may have written is charged by the sweep above).
// Other database failures are kInternal.
//
// Thread-safe; calls run concurrently on the pool's connections.
#ifndef DPQ_SERVER_STORAGE_POSTGRES_LEDGER_STORE_H_
#define DPQ_SERVER_STORAGE_POSTGRES_LEDGER_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/ledger/ledger.h"
#include "server/storage/group_commit.h"
#include "server/storage/ledger_snapshot.h"
#include "server/storage/postgres_database.h"

namespace dpq::server::storage {

struct PostgresLedgerOptions {
  // This replica's stable name (e.g. the host name): RecoverPending charges
  // what earlier processes with this name left reserved, so two processes
  // running at once must not share it. Non-empty.
  std::string replica_id;
  // How long this process's reservations stay protected without a lease
  // renewal; renewed every lease/3. At least kMinLease.
  absl::Duration lease = absl::Seconds(15);
};

class PostgresLedgerStore final : public core::ledger::LedgerStore {
 public:
  static constexpr absl::Duration kMinLease = absl::Milliseconds(300);
  // A reservation of this incarnation that no call holds is charged by the
  // sweep once it is this old (database clock).
  static constexpr absl::Duration kOrphanAge = absl::Seconds(5);

  // Applies the "ledger" migrations (ApplyMigrations), registers this
  // process as a new incarnation of options.replica_id with a lease, and
  // starts the lease thread. kInvalidArgument for an empty replica_id or a
  // lease below kMinLease; kUnavailable if the database is unreachable;
  // kFailedPrecondition if its ledger schema is newer than this program's.
  static absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> Open(
      std::shared_ptr<PgPool> pool, PostgresLedgerOptions options);

  PostgresLedgerStore(const PostgresLedgerStore&) = delete;
  PostgresLedgerStore& operator=(const PostgresLedgerStore&) = delete;
  // Stops the lease thread. The lease is not given up: reservations still
  // held (none after a clean shutdown) are charged once it expires.
  ~PostgresLedgerStore() override;

  // OK while the database answered the last lease renewal and that was at
  // most two renewal periods (2 * lease/3) ago; else kUnavailable with the
  // reason. For the health service.
  absl::Status Health() const ABSL_LOCKS_EXCLUDED(health_mu_);

  // This process's incarnation (the ledger_replicas row it renews).
  int64_t incarnation() const { return incarnation_; }
  const std::string& replica_id() const { return options_.replica_id; }

  // Runs one lease renewal and sweep now (the lease thread does this every
  // lease/3). Returns how many reservations the sweep charged.
  absl::StatusOr<int64_t> RenewAndSweep()
      ABSL_LOCKS_EXCLUDED(health_mu_, in_flight_mu_);

  // LedgerStore (contracts in ledger.h).
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
      const core::ledger::ReserveRequest& request) override
      ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  absl::Status Commit(int64_t entry_id, const std::string& answer) override
      ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  absl::Status ChargeWithoutAnswer(int64_t entry_id) override
      ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  absl::Status Refund(int64_t entry_id) override
      ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  // Charges the reservations of this replica_id's incarnations up to this
  // one; never those of other replicas (their leases cover them).
  absl::StatusOr<int64_t> RecoverPending() override;
  // Includes refunded entries (with their state) and recorded answers.
  absl::StatusOr<std::vector<core::ledger::LedgerEntry>> ListEntries(
      const core::ledger::LedgerFilter& filter) override;

  // For dpq-server --import-sqlite (sqlite_import.h), on a connection
  // inside the caller's transaction, once the ledger migrations
  // (LedgerMigrations()) are applied; no store needs to be open.
  // HoldsData: true if any budget, entry or dataset cap exists.
  // Import writes `snapshot`: the budgets with their grants, the datasets
  // with their caps, and the entries in order (each gets a new entry_id)
  // with their buyer_seq, request ids, fingerprints, amounts, states,
  // times and answers; then computes every budget's running total from the
  // entries and starts each buyer's counter after its highest buyer_seq.
  // kInvalidArgument for a reserved entry (only a running replica may hold
  // one: the caller settles them first); kFailedPrecondition for rows that
  // clash with existing ones or break a constraint (an entry without its
  // budget); kDataLoss if a budget's totals computed from the entries are
  // not the snapshot's spent and reserved (the source store's running
  // totals disagree with its entries).
  static absl::StatusOr<bool> HoldsData(PgConnection& c);
  static absl::Status Import(PgConnection& c, const LedgerSnapshot& snapshot);

 private:
  PostgresLedgerStore(std::shared_ptr<PgPool> pool,
                      PostgresLedgerOptions options, int64_t incarnation);

  // One command on a pooled connection (autocommit), retried on
  // serialization failures and deadlocks (the command is one statement,
  // so a retry is safe).
  absl::StatusOr<PgResult> Run(absl::string_view sql,
                               absl::Span<const PgParam> params);
  absl::StatusOr<PgResult> Run(absl::string_view sql,
                               std::initializer_list<PgParam> params) {
    return Run(sql, absl::MakeConstSpan(params.begin(), params.size()));
  }
  // Group commit (group_commit.h): the Reserve calls waiting in this
  // process are written by one call of ledger_reserve, the Commit calls by
  // one call of ledger_commit; each sets every op's result.
  struct ReserveOp;
  struct CommitOp;
  void WriteReserves(absl::Span<ReserveOp* const> batch)
      ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  void WriteCommits(absl::Span<CommitOp* const> batch);
  // Row `row` of ledger_reserve's result as Reserve's outcome.
  absl::StatusOr<core::ledger::Reservation> ReadReservation(
      const PgResult& r, int row, const core::ledger::ReserveRequest& request,
      int64_t units) ABSL_LOCKS_EXCLUDED(in_flight_mu_);
  // Row `row` of ledger_commit's result as Commit's outcome.
  static absl::Status ReadCommit(const PgResult& r, int row);
  // ledger_settle: "charged" or "refunded".
  absl::Status Settle(int64_t entry_id, const char* new_state);

  // The lease thread: RenewAndSweep every lease/3 until stop_.
  void LeaseLoop();
  absl::Status Renew() ABSL_LOCKS_EXCLUDED(health_mu_);

  const std::shared_ptr<PgPool> pool_;
  const PostgresLedgerOptions options_;
  const int64_t incarnation_;

  GroupCommit<ReserveOp> reserves_;
  GroupCommit<CommitOp> commits_;

  // Entries this incarnation reserved and no Commit, ChargeWithoutAnswer
  // or Refund has finished with yet: the sweep leaves them alone.
  absl::Mutex in_flight_mu_;
  absl::flat_hash_set<int64_t> in_flight_ ABSL_GUARDED_BY(in_flight_mu_);
  // The (buyer_id, request_id) of every Reserve call under way, with how
  // many calls carry it: registered before its transaction starts and
  // removed only after its entry id went into in_flight_, so the sweep
  // also leaves alone an entry whose id this process does not know yet.
  absl::flat_hash_map<std::pair<std::string, std::string>, int> reserving_
      ABSL_GUARDED_BY(in_flight_mu_);

  mutable absl::Mutex health_mu_;
  absl::Status last_renewal_ ABSL_GUARDED_BY(health_mu_);
  absl::Time last_renewed_ ABSL_GUARDED_BY(health_mu_);

  absl::Notification stop_;
  std::thread lease_thread_;
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_POSTGRES_LEDGER_STORE_H_
