// The privacy-budget ledger (docs/privacy.md 3.1 and 3.2): per (buyer, dataset)
// budgets under sequential composition, an optional cap per dataset over all
// buyers, and durable charges with recorded answers for idempotent retries.
//
// Life of a release:
//   Reserve  -> (compute the DP answer) -> Commit(answer) -> reply
//            \-> ChargeWithoutAnswer (the computation read the data but
//                 produced no answer: the caller left, or it failed)
//            \-> Refund (only for failures that depend on no private data,
//                 e.g. the ledger itself could not record the answer)
// A reservation holds its epsilon against the budget atomically and durably
// before any noise is drawn; Commit stores the answer with the charge before
// the answer leaves the server. Once a reservation succeeds the charge stands
// (docs/privacy.md 3, rule 3): whether a computation finishes before a
// deadline, or at all, can depend on the private data, so it must not decide a
// refund. A charged entry without an answer is resumed by a retry with the same
// request id, which computes, records and returns the answer at no further
// cost. On restart, RecoverPending charges what was reserved (the computation
// may have read the data); retries resume those too.
//
// Amounts are exact: the stores count in integer units of 10^-12 epsilon
// (epsilon_units.h) and hand those units out (the *_units fields, what the
// API's *_units fields carry); the doubles beside them are the nearest
// doubles, for convenience.
//
// Thread-safe: implementations serialise only the short ledger transactions,
// never the computation between Reserve and Commit.
#ifndef DPQ_CORE_LEDGER_LEDGER_H_
#define DPQ_CORE_LEDGER_LEDGER_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace dpq::core::ledger {

// A buyer's budget on one dataset. remaining = granted - spent - reserved,
// never below 0.
struct BudgetState {
  std::string buyer_id;
  std::string dataset_id;
  // Exact, in units of 10^-12 epsilon.
  int64_t granted_units = 0;
  int64_t spent_units = 0;
  int64_t reserved_units = 0;
  // The same amounts as the nearest doubles (SetUnits keeps them in step).
  double granted = 0;
  double spent = 0;
  double reserved = 0;
  // Sets the three amounts, units and doubles.
  void SetUnits(int64_t granted_u, int64_t spent_u, int64_t reserved_u);
  // Exact, so 20 - 1 - 1 - 1 - 0.9 - 0.5 is 15.6 (15'600'000'000'000).
  int64_t remaining_units() const;
  // remaining_units() as the nearest double.
  double remaining() const;
};

// kReserved: in progress. kCommitted: charged, answer recorded. kCharged:
// charged, no answer recorded (yet). kRefunded: returned.
enum class EntryState { kReserved, kCommitted, kCharged, kRefunded };

// One charge.
struct LedgerEntry {
  // The store's handle (Reservation::entry_id): unique over all buyers, so
  // it counts every buyer's entries and must never reach a buyer, not even
  // in an error message (docs/security.md, item 8). Internal.
  int64_t entry_id = 0;
  // The entry's public number: 1, 2, 3, ... over all entries of this buyer,
  // on every dataset, in the order they were reserved. (buyer_id,
  // buyer_seq) identifies the entry; it reveals nothing about other
  // buyers. This is the LedgerEntry.entry_id of every response.
  int64_t buyer_seq = 0;
  std::string buyer_id;
  std::string dataset_id;
  std::string request_id;
  // Hash of the request's parameters (everything but request_id), so that
  // a reused request_id with different parameters is recognised.
  std::string fingerprint;
  std::string operation;      // e.g. "MeasureInconsistency MI optimized"
  std::string neighbouring;   // the privacy unit at release time
  int64_t epsilon_units = 0;  // exact, in units of 10^-12 epsilon
  double epsilon = 0;         // the same as the nearest double
  EntryState state = EntryState::kReserved;
  absl::Time created_at;
  std::optional<absl::Time> settled_at;
  // The recorded answer (opaque bytes, e.g. a serialised response), set by
  // Commit.
  std::string answer;
};

// What to reserve.
struct ReserveRequest {
  std::string buyer_id;
  std::string dataset_id;
  std::string request_id;   // non-empty; unique per buyer
  std::string fingerprint;  // see LedgerEntry
  std::string operation;
  std::string neighbouring;
  double epsilon = 0;  // finite, > 0
  // The buyer's own numbers, when the charge is not simply the request's
  // epsilon (k_Q x epsilon for a dataset with public exact cuboids,
  // epsilon + accuracy_epsilon), so that every refusal quotes both
  // (docs/errors.md): the request's epsilon in ledger units, and how the
  // charge follows from it, e.g. "2 x 0.5: the dataset publishes an exact
  // cuboid". 0 and "": the charge is the request's epsilon.
  int64_t requested_units = 0;
  std::string charge_basis;
};

// The outcome of Reserve when it is not an error.
struct Reservation {
  // Set when budget was reserved: pass it to Commit or Refund. The store's
  // internal handle (see LedgerEntry::entry_id): never show it to a buyer.
  std::optional<int64_t> entry_id;
  // Set instead when (buyer, request_id) was already committed with the
  // same fingerprint: the recorded answer; nothing was charged.
  std::optional<std::string> recorded_answer;
  // True when entry_id is an earlier charge of this request that has no
  // answer yet: the caller computes it and commits it; nothing new was
  // charged.
  bool resumed = false;
  // Remaining budget after the reservation (or now, for a replay): exact
  // in units of 10^-12 epsilon, and as the nearest double.
  int64_t remaining_units = 0;
  double remaining = 0;
};

// A dataset's cap over all buyers and what they spent on it, exact in units
// of 10^-12 epsilon.
struct DatasetTotals {
  int64_t cap_units = 0;  // 0 = no cap
  int64_t spent_units = 0;
};

// Filter for ListEntries / ListBudgets; empty fields match everything.
struct LedgerFilter {
  std::string buyer_id;
  std::string dataset_id;
  size_t limit = 100;  // entries, newest first
  // ListEntries with buyer_id only: entries whose buyer_seq is below this
  // (0: no bound). The cursor of a buyer's pages of entries: the
  // buyer_seq of the last entry of the page before.
  int64_t before_buyer_seq = 0;
  // ListEntries: entries whose store handle (LedgerEntry::entry_id) is
  // below this (0: no bound). The cursor of the admin's pages over every
  // buyer; the handle counts all buyers' entries, so never for a buyer.
  int64_t before_entry_id = 0;
};

// Where the ledger lives. Implementations are at the server's edge
// (server/storage/: SQLite today), so core/ledger depends on no database;
// each must pass the store-agnostic suites of
// tests/core/ledger/ledger_store_suites.h, which check the contracts below.
class LedgerStore {
 public:
  virtual ~LedgerStore() = default;

  // Adds `epsilon` (finite, > 0) to the granted budget, creating the budget
  // if needed. kInvalidArgument for a bad epsilon.
  virtual absl::StatusOr<BudgetState> Grant(const std::string& buyer_id,
                                            const std::string& dataset_id,
                                            double epsilon) = 0;

  // Sets the granted total. kInvalidArgument unless finite and >= 0;
  // kFailedPrecondition if below spent + reserved (naming both).
  virtual absl::StatusOr<BudgetState> SetGranted(const std::string& buyer_id,
                                                 const std::string& dataset_id,
                                                 double granted) = 0;

  // Caps the total of spent + reserved over all buyers of the dataset;
  // 0 removes the cap. kInvalidArgument unless finite and >= 0.
  virtual absl::Status SetDatasetCap(const std::string& dataset_id,
                                     double cap) = 0;
  // The cap (0 = none) and the total spent over all buyers, exactly.
  virtual absl::StatusOr<DatasetTotals> GetDatasetTotals(
      const std::string& dataset_id) = 0;
  // The same as the nearest doubles.
  absl::StatusOr<std::pair<double, double>> DatasetCapAndSpent(
      const std::string& dataset_id);

  // The budget of (buyer, dataset); all zero if never granted.
  virtual absl::StatusOr<BudgetState> GetBudget(
      const std::string& buyer_id, const std::string& dataset_id) = 0;
  // Budgets matching the filter, sorted by (buyer, dataset).
  virtual absl::StatusOr<std::vector<BudgetState>> ListBudgets(
      const LedgerFilter& filter) = 0;

  // Atomically and durably reserves request.epsilon (rounded up to whole
  // units) against (buyer, dataset), or returns the recorded answer of a
  // committed retry, or resumes a charged retry without answer.
  // Errors, with nothing changed:
  //  - kInvalidArgument: bad epsilon, empty ids;
  //  - kResourceExhausted: not enough budget (the message names the
  //    remaining budget and the requested epsilon) or the dataset cap would
  //    be exceeded (naming the cap);
  //  - kAlreadyExists: request_id used before by this buyer with another
  //    fingerprint;
  //  - kAborted: the same request is still in progress (reserved, not yet
  //    committed): retry later;
  //  - a request_id charged without an answer: Reservation{entry_id,
  //    resumed = true}, nothing charged;
  //  - a request_id whose earlier reservation was refunded is reserved anew.
  virtual absl::StatusOr<Reservation> Reserve(
      const ReserveRequest& request) = 0;

  // Durably marks the reservation charged and records `answer` (or records
  // it on an entry charged without an answer). Only after this may the
  // answer be sent. kAborted if the entry already has an answer (a
  // concurrent resume won: Reserve again to read it); kFailedPrecondition
  // if it is refunded or unknown.
  virtual absl::Status Commit(int64_t entry_id, const std::string& answer) = 0;

  // Durably charges a reservation without recording an answer: the
  // computation read the data but released nothing. kFailedPrecondition
  // unless reserved.
  virtual absl::Status ChargeWithoutAnswer(int64_t entry_id) = 0;

  // Returns a reservation's epsilon; only for failures that depend on no
  // private data (nothing was released). kFailedPrecondition unless
  // reserved.
  virtual absl::Status Refund(int64_t entry_id) = 0;

  // Charges, without an answer, every reservation left by a crash (call
  // once at start-up, before serving). Returns how many.
  virtual absl::StatusOr<int64_t> RecoverPending() = 0;

  // Entries matching the filter, newest first, at most filter.limit. Each
  // carries its per-buyer number (LedgerEntry::buyer_seq).
  virtual absl::StatusOr<std::vector<LedgerEntry>> ListEntries(
      const LedgerFilter& filter) = 0;
};

// "reserved", "committed", "charged", "refunded".
const char* EntryStateName(EntryState state);

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_LEDGER_H_
