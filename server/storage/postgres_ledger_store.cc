#include "server/storage/postgres_ledger_store.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "server/storage/group_commit.h"
#include "server/storage/ledger_store_errors.h"
#include "server/storage/postgres_database.h"
#include "server/storage/postgres_ledger_schema.h"

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

// Attempts of one command that PostgreSQL aborted as a deadlock or a
// serialization failure (the lock order of the schema makes these rare).
constexpr int kMaxAttempts = 10;
// Attempts of a batch of reservations that failed on a unique index (a
// database changed by hand; ledger_reserve's locks prevent it otherwise).
constexpr int kMaxBatchAttempts = 3;
// Reservations written in one transaction at most.
constexpr size_t kMaxBatch = 64;

constexpr char kEntryColumns[] =
    "entry_id, buyer_id, dataset_id, request_id, fingerprint, operation, "
    "neighbouring, epsilon, state, "
    "(extract(epoch FROM created_at) * 1000000)::BIGINT, "
    "(extract(epoch FROM settled_at) * 1000000)::BIGINT, answer, buyer_seq";

int64_t Micros(absl::Duration d) { return absl::ToInt64Microseconds(d); }

// A bytea column in text format: "\x" and hex digits.
absl::StatusOr<std::string> Bytea(const PgResult& result, int row, int column) {
  if (result.IsNull(row, column)) return std::string();
  absl::string_view text = result.Get(row, column);
  if (!absl::ConsumePrefix(&text, "\\x") || text.size() % 2 != 0 ||
      !std::all_of(text.begin(), text.end(), absl::ascii_isxdigit)) {
    return absl::InternalError(absl::StrCat(
        "PostgreSQL returned a bytea value of the ledger in an unexpected "
        "format (column ",
        column, ")."));
  }
  return absl::HexStringToBytes(text);
}

// An int64 column that may be NULL (then `null_value`).
absl::StatusOr<int64_t> OptionalInt64(const PgResult& result, int row,
                                      int column, int64_t null_value = 0) {
  if (result.IsNull(row, column)) return null_value;
  return result.GetInt64(row, column);
}

// One row selected with kEntryColumns.
absl::StatusOr<LedgerEntry> ReadEntry(const PgResult& r, int row) {
  LedgerEntry entry;
  ASSIGN_OR_RETURN(entry.entry_id, r.GetInt64(row, 0));
  entry.buyer_id = std::string(r.Get(row, 1));
  entry.dataset_id = std::string(r.Get(row, 2));
  entry.request_id = std::string(r.Get(row, 3));
  ASSIGN_OR_RETURN(entry.fingerprint, Bytea(r, row, 4));
  entry.operation = std::string(r.Get(row, 5));
  entry.neighbouring = std::string(r.Get(row, 6));
  ASSIGN_OR_RETURN(entry.epsilon_units, r.GetInt64(row, 7));
  entry.epsilon = FromUnits(entry.epsilon_units);
  ASSIGN_OR_RETURN(entry.state, ParseEntryState(r.Get(row, 8)));
  ASSIGN_OR_RETURN(const int64_t created_us, r.GetInt64(row, 9));
  entry.created_at = absl::FromUnixMicros(created_us);
  if (!r.IsNull(row, 10)) {
    ASSIGN_OR_RETURN(const int64_t settled_us, r.GetInt64(row, 10));
    entry.settled_at = absl::FromUnixMicros(settled_us);
  }
  ASSIGN_OR_RETURN(entry.answer, Bytea(r, row, 11));
  ASSIGN_OR_RETURN(entry.buyer_seq, r.GetInt64(row, 12));
  return entry;
}

// Columns granted, spent, reserved (units) from `first` on.
absl::StatusOr<BudgetState> ReadBudget(const PgResult& r, int row, int first,
                                       std::string buyer_id,
                                       std::string dataset_id) {
  BudgetState budget;
  budget.buyer_id = std::move(buyer_id);
  budget.dataset_id = std::move(dataset_id);
  ASSIGN_OR_RETURN(const int64_t granted, r.GetInt64(row, first));
  ASSIGN_OR_RETURN(const int64_t spent, r.GetInt64(row, first + 1));
  ASSIGN_OR_RETURN(const int64_t reserved, r.GetInt64(row, first + 2));
  budget.SetUnits(granted, spent, reserved);
  return budget;
}

// The name of an entry in messages, from (o_state, o_buyer, o_seq) at
// `first` of `row`: by buyer and buyer_seq, never the global handle, since
// messages can reach a buyer (charged_release.cc). state "" if there is no
// entry.
struct EntryStatus {
  std::string state;
  std::string name;
};
absl::StatusOr<EntryStatus> ReadEntryStatus(const PgResult& r, int row,
                                            int first) {
  EntryStatus status;
  if (r.IsNull(row, first)) {
    status.name = "an unknown ledger entry";
    return status;
  }
  status.state = std::string(r.Get(row, first));
  ASSIGN_OR_RETURN(const int64_t seq, r.GetInt64(row, first + 2));
  status.name = absl::StrCat("ledger entry ", seq, " of buyer '",
                             r.Get(row, first + 1), "'");
  return status;
}

// The one row a ledger function returns.
absl::Status RequireOneRow(const PgResult& r, absl::string_view function) {
  if (r.rows() != 1) {
    return absl::InternalError(absl::StrCat("The ledger function ", function,
                                            " returned ", r.rows(),
                                            " rows instead of one."));
  }
  return absl::OkStatus();
}

bool IsRetryable(const absl::Status& status) {
  const std::string state = SqlStateOf(status);
  return status.code() == absl::StatusCode::kAborted &&
         (state == "40001" || state == "40P01");
}

}  // namespace

struct PostgresLedgerStore::ReserveOp {
  const ReserveRequest* request = nullptr;
  int64_t units = 0;                                   // the charge
  absl::StatusOr<Reservation> result = Reservation();  // set by WriteReserves
};

struct PostgresLedgerStore::CommitOp {
  int64_t entry_id = 0;
  const std::string* answer = nullptr;
  absl::Status result;  // set by WriteCommits
};

PostgresLedgerStore::PostgresLedgerStore(std::shared_ptr<PgPool> pool,
                                         PostgresLedgerOptions options,
                                         int64_t incarnation)
    : pool_(std::move(pool)),
      options_(std::move(options)),
      incarnation_(incarnation),
      reserves_(kMaxBatch),
      commits_(kMaxBatch),
      last_renewed_(absl::Now()) {}

PostgresLedgerStore::~PostgresLedgerStore() {
  stop_.Notify();
  if (lease_thread_.joinable()) lease_thread_.join();
}

absl::StatusOr<std::unique_ptr<PostgresLedgerStore>> PostgresLedgerStore::Open(
    std::shared_ptr<PgPool> pool, PostgresLedgerOptions options) {
  if (pool == nullptr) {
    return absl::InvalidArgumentError(
        "The PostgreSQL ledger needs a connection pool.");
  }
  RETURN_IF_ERROR(RequireId(options.replica_id, "replica_id"));
  if (options.lease < kMinLease || options.lease == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The ledger lease must be at least ", absl::FormatDuration(kMinLease),
        " and finite, but is ", absl::FormatDuration(options.lease), "."));
  }
  RETURN_IF_ERROR(ApplyMigrations(*pool, kLedgerComponent, LedgerMigrations()));
  ASSIGN_OR_RETURN(
      const PgResult r,
      pool->Exec("INSERT INTO ledger_replicas (replica_id, lease_until) "
                 "VALUES ($1, now() + $2 * INTERVAL '1 microsecond') "
                 "RETURNING incarnation",
                 {PgParam::Text(options.replica_id),
                  PgParam::Int(Micros(options.lease))}));
  RETURN_IF_ERROR(RequireOneRow(r, "registration"));
  ASSIGN_OR_RETURN(const int64_t incarnation, r.GetInt64(0, 0));
  std::unique_ptr<PostgresLedgerStore> store(new PostgresLedgerStore(
      std::move(pool), std::move(options), incarnation));
  store->lease_thread_ = std::thread([s = store.get()] { s->LeaseLoop(); });
  return store;
}

absl::StatusOr<PgResult> PostgresLedgerStore::Run(
    absl::string_view sql, absl::Span<const PgParam> params) {
  for (int attempt = 1;; ++attempt) {
    absl::StatusOr<PgResult> result = [&]() -> absl::StatusOr<PgResult> {
      ASSIGN_OR_RETURN(PgPool::Lease conn, pool_->Acquire());
      return conn->Exec(sql, params);
    }();
    if (result.ok() || attempt >= kMaxAttempts ||
        !IsRetryable(result.status())) {
      return result;
    }
    absl::SleepFor(absl::Milliseconds(attempt));
  }
}

// ---------------------------------------------------------------------------
// Leases.

absl::Status PostgresLedgerStore::Health() const {
  absl::MutexLock lock(&health_mu_);
  if (!last_renewal_.ok()) return last_renewal_;
  const absl::Duration since = absl::Now() - last_renewed_;
  if (since > 2 * (options_.lease / 3)) {
    return absl::UnavailableError(absl::StrCat(
        "PostgreSQL has not answered the ledger's lease renewal for ",
        absl::FormatDuration(absl::Trunc(since, absl::Milliseconds(1))),
        "; retry"));
  }
  return absl::OkStatus();
}

absl::Status PostgresLedgerStore::Renew() {
  absl::Status status =
      Run("INSERT INTO ledger_replicas (incarnation, replica_id, lease_until) "
          "VALUES ($1, $2, now() + $3 * INTERVAL '1 microsecond') "
          "ON CONFLICT (incarnation) "
          "DO UPDATE SET lease_until = excluded.lease_until",
          {PgParam::Int(incarnation_), PgParam::Text(options_.replica_id),
           PgParam::Int(Micros(options_.lease))})
          .status();
  absl::MutexLock lock(&health_mu_);
  if (status.ok()) {
    last_renewed_ = absl::Now();
  } else if (status.code() != absl::StatusCode::kUnavailable) {
    // The health service reports UNAVAILABLE for any failure to renew.
    status = absl::UnavailableError(
        absl::StrCat("The ledger could not renew its lease in PostgreSQL: ",
                     status.message()));
  }
  last_renewal_ = status;
  return status;
}

absl::StatusOr<int64_t> PostgresLedgerStore::RenewAndSweep() {
  RETURN_IF_ERROR(Renew());
  // This incarnation's orphans: the candidates are read first and the
  // calls under way looked at afterwards. A candidate's reservation had
  // committed before the read, so its Reserve call had registered its
  // (buyer, request id) in reserving_ before that, and keeps it there
  // until the entry id is in in_flight_, where it stays until the Commit,
  // ChargeWithoutAnswer or Refund is done. Looked at after the read, a
  // candidate some call still holds is therefore in one of the two (the
  // move between them is under in_flight_mu_): only entries whose call
  // gave them up (or lost their outcome) are charged. The age only spares
  // entries being written right now a useless look.
  ASSIGN_OR_RETURN(
      const PgResult candidates,
      Run("SELECT o_entry, o_buyer, o_request "
          "FROM ledger_orphans($1, $2)",
          {PgParam::Int(incarnation_), PgParam::Int(Micros(kOrphanAge))}));
  std::vector<int64_t> orphans;
  {
    absl::MutexLock lock(&in_flight_mu_);
    for (int row = 0; row < candidates.rows(); ++row) {
      ASSIGN_OR_RETURN(const int64_t entry_id, candidates.GetInt64(row, 0));
      const std::pair<std::string, std::string> request(candidates.Get(row, 1),
                                                        candidates.Get(row, 2));
      if (!in_flight_.contains(entry_id) && !reserving_.contains(request)) {
        orphans.push_back(entry_id);
      }
    }
  }
  ASSIGN_OR_RETURN(const PgResult r,
                   Run("SELECT ledger_sweep($1, $2::BIGINT[])",
                       {PgParam::Int(incarnation_),
                        PgParam::Text(absl::StrCat(
                            "{", absl::StrJoin(orphans, ","), "}"))}));
  RETURN_IF_ERROR(RequireOneRow(r, "ledger_sweep"));
  return r.GetInt64(0, 0);
}

void PostgresLedgerStore::LeaseLoop() {
  const absl::Duration period = options_.lease / 3;
  while (!stop_.WaitForNotificationWithTimeout(period)) {
    // A failure is kept for Health(); the next period tries again.
    (void)RenewAndSweep();
  }
}

// ---------------------------------------------------------------------------
// Budgets and caps.

absl::StatusOr<BudgetState> PostgresLedgerStore::Grant(
    const std::string& buyer_id, const std::string& dataset_id,
    double epsilon) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  RETURN_IF_ERROR(core::dp::ValidateEpsilon(epsilon, "epsilon"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(epsilon, "epsilon"));
  ASSIGN_OR_RETURN(const PgResult r,
                   Run("SELECT o_ok, o_granted, o_spent, o_reserved "
                       "FROM ledger_grant($1, $2, $3, $4)",
                       {PgParam::Text(buyer_id), PgParam::Text(dataset_id),
                        PgParam::Int(units), PgParam::Int(kMaxUnits)}));
  RETURN_IF_ERROR(RequireOneRow(r, "ledger_grant"));
  ASSIGN_OR_RETURN(const bool ok, r.GetBool(0, 0));
  if (!ok) return GrantOverflowError(buyer_id, dataset_id);
  return ReadBudget(r, 0, 1, buyer_id, dataset_id);
}

absl::StatusOr<BudgetState> PostgresLedgerStore::SetGranted(
    const std::string& buyer_id, const std::string& dataset_id,
    double granted) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(granted, "granted"));
  ASSIGN_OR_RETURN(const PgResult r,
                   Run("SELECT o_ok, o_spent, o_reserved "
                       "FROM ledger_set_granted($1, $2, $3)",
                       {PgParam::Text(buyer_id), PgParam::Text(dataset_id),
                        PgParam::Int(units)}));
  RETURN_IF_ERROR(RequireOneRow(r, "ledger_set_granted"));
  ASSIGN_OR_RETURN(const bool ok, r.GetBool(0, 0));
  ASSIGN_OR_RETURN(const int64_t spent, r.GetInt64(0, 1));
  ASSIGN_OR_RETURN(const int64_t reserved, r.GetInt64(0, 2));
  if (!ok) {
    return GrantBelowUsedError(buyer_id, dataset_id, granted, spent, reserved);
  }
  BudgetState budget;
  budget.buyer_id = buyer_id;
  budget.dataset_id = dataset_id;
  budget.SetUnits(units, spent, reserved);
  return budget;
}

absl::Status PostgresLedgerStore::SetDatasetCap(const std::string& dataset_id,
                                                double cap) {
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const int64_t units, AmountUnits(cap, "cap"));
  return Run("SELECT ledger_set_cap($1, $2)",
             {PgParam::Text(dataset_id), PgParam::Int(units)})
      .status();
}

absl::StatusOr<core::ledger::DatasetTotals>
PostgresLedgerStore::GetDatasetTotals(const std::string& dataset_id) {
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(
      const PgResult r,
      Run("SELECT COALESCE((SELECT cap FROM ledger_datasets "
          "                 WHERE dataset_id = $1), 0), "
          "       (COALESCE((SELECT SUM(used) FROM ledger_budgets "
          "                  WHERE dataset_id = $1), 0) - "
          "        COALESCE((SELECT SUM(epsilon) FROM ledger_entries "
          "                  WHERE dataset_id = $1 AND state = 'reserved'), "
          "                 0))::BIGINT",
          {PgParam::Text(dataset_id)}));
  RETURN_IF_ERROR(RequireOneRow(r, "cap and spent"));
  core::ledger::DatasetTotals totals;
  ASSIGN_OR_RETURN(totals.cap_units, r.GetInt64(0, 0));
  ASSIGN_OR_RETURN(totals.spent_units, r.GetInt64(0, 1));
  return totals;
}

absl::StatusOr<BudgetState> PostgresLedgerStore::GetBudget(
    const std::string& buyer_id, const std::string& dataset_id) {
  RETURN_IF_ERROR(RequireId(buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(dataset_id, "dataset_id"));
  ASSIGN_OR_RETURN(const PgResult r,
                   Run("SELECT granted, spent, reserved "
                       "FROM ledger_budget_totals "
                       "WHERE buyer_id = $1 AND dataset_id = $2",
                       {PgParam::Text(buyer_id), PgParam::Text(dataset_id)}));
  if (r.rows() == 0) {
    BudgetState budget;
    budget.buyer_id = buyer_id;
    budget.dataset_id = dataset_id;
    return budget;
  }
  return ReadBudget(r, 0, 0, buyer_id, dataset_id);
}

namespace {

// Appends the filter's conditions (" AND buyer_id = $n ...") to `sql`, a
// query ending in a WHERE clause, and their values to `params`.
void AppendFilter(const LedgerFilter& filter, std::string* sql,
                  std::vector<PgParam>* params) {
  if (!filter.buyer_id.empty()) {
    params->push_back(PgParam::Text(filter.buyer_id));
    absl::StrAppend(sql, " AND buyer_id = $", params->size());
  }
  if (!filter.dataset_id.empty()) {
    params->push_back(PgParam::Text(filter.dataset_id));
    absl::StrAppend(sql, " AND dataset_id = $", params->size());
  }
}

}  // namespace

absl::StatusOr<std::vector<BudgetState>> PostgresLedgerStore::ListBudgets(
    const LedgerFilter& filter) {
  std::string sql =
      "SELECT buyer_id, dataset_id, granted, spent, reserved "
      "FROM ledger_budget_totals WHERE TRUE";
  std::vector<PgParam> params;
  AppendFilter(filter, &sql, &params);
  // Byte order, as SQLite sorts TEXT.
  absl::StrAppend(&sql,
                  " ORDER BY buyer_id COLLATE \"C\", "
                  "dataset_id COLLATE \"C\"");
  ASSIGN_OR_RETURN(const PgResult r, Run(sql, params));
  std::vector<BudgetState> budgets;
  budgets.reserve(r.rows());
  for (int row = 0; row < r.rows(); ++row) {
    ASSIGN_OR_RETURN(BudgetState budget,
                     ReadBudget(r, row, 2, std::string(r.Get(row, 0)),
                                std::string(r.Get(row, 1))));
    budgets.push_back(std::move(budget));
  }
  return budgets;
}

// ---------------------------------------------------------------------------
// Reserve, commit, settle.

absl::StatusOr<Reservation> PostgresLedgerStore::Reserve(
    const ReserveRequest& request) {
  RETURN_IF_ERROR(CheckReserveRequest(request));
  ReserveOp op;
  op.request = &request;
  ASSIGN_OR_RETURN(op.units, ChargeUnits(request.epsilon));
  // In reserving_ from before the transaction until after ReadReservation
  // put the entry id into in_flight_ (RenewAndSweep says why).
  const std::pair<std::string, std::string> key(request.buyer_id,
                                                request.request_id);
  {
    absl::MutexLock lock(&in_flight_mu_);
    ++reserving_[key];
  }
  reserves_.Run(
      op, [this](absl::Span<ReserveOp* const> batch) { WriteReserves(batch); });
  {
    absl::MutexLock lock(&in_flight_mu_);
    auto it = reserving_.find(key);
    if (--it->second == 0) reserving_.erase(it);
  }
  return std::move(op.result);
}

void PostgresLedgerStore::WriteReserves(absl::Span<ReserveOp* const> batch) {
  // ledger_reserve(ARRAY[ROW($1, ..., $7)::ledger_reserve_item, ...], $n)
  std::string sql =
      "SELECT o_outcome, o_entry, o_answer, o_remaining, o_cap, o_cap_left "
      "FROM ledger_reserve(ARRAY[";
  std::vector<PgParam> params;
  params.reserve(batch.size() * 7 + 1);
  for (size_t i = 0; i < batch.size(); ++i) {
    const ReserveRequest& request = *batch[i]->request;
    const size_t p = params.size();
    absl::StrAppend(&sql, i == 0 ? "" : ", ", "ROW($", p + 1, "::TEXT, $",
                    p + 2, "::TEXT, $", p + 3, "::TEXT, $", p + 4, "::BYTEA, $",
                    p + 5, "::TEXT, $", p + 6, "::TEXT, $", p + 7,
                    "::BIGINT)::ledger_reserve_item");
    params.push_back(PgParam::Text(request.buyer_id));
    params.push_back(PgParam::Text(request.dataset_id));
    params.push_back(PgParam::Text(request.request_id));
    params.push_back(PgParam::Bytes(request.fingerprint));
    params.push_back(PgParam::Text(request.operation));
    params.push_back(PgParam::Text(request.neighbouring));
    params.push_back(PgParam::Int(batch[i]->units));
  }
  params.push_back(PgParam::Int(incarnation_));
  absl::StrAppend(&sql, "], $", params.size(), "::BIGINT)");

  absl::StatusOr<PgResult> r = Run(sql, params);
  for (int attempt = 1;
       attempt < kMaxBatchAttempts && SqlStateOf(r.status()) == "23505";
       ++attempt) {
    r = Run(sql, params);
  }
  if (r.ok() && r->rows() != static_cast<int>(batch.size())) {
    r = absl::InternalError(
        absl::StrCat("The ledger function ledger_reserve returned ", r->rows(),
                     " rows for ", batch.size(), " reservations."));
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    batch[i]->result =
        r.ok() ? ReadReservation(*r, static_cast<int>(i), *batch[i]->request,
                                 batch[i]->units)
               : absl::StatusOr<Reservation>(r.status());
  }
}

absl::StatusOr<Reservation> PostgresLedgerStore::ReadReservation(
    const PgResult& r, int row, const ReserveRequest& request, int64_t units) {
  const absl::string_view outcome = r.Get(row, 0);
  ASSIGN_OR_RETURN(const int64_t remaining, OptionalInt64(r, row, 3));
  const int64_t shown = std::max<int64_t>(0, remaining);
  Reservation reservation;
  reservation.remaining_units = shown;
  reservation.remaining = FromUnits(shown);
  if (outcome == "reserved") {
    ASSIGN_OR_RETURN(const int64_t entry_id, r.GetInt64(row, 1));
    {
      absl::MutexLock lock(&in_flight_mu_);
      in_flight_.insert(entry_id);
    }
    reservation.entry_id = entry_id;
    return reservation;
  }
  if (outcome == "replay") {
    ASSIGN_OR_RETURN(reservation.recorded_answer, Bytea(r, row, 2));
    return reservation;  // Nothing charged.
  }
  if (outcome == "resume") {
    ASSIGN_OR_RETURN(reservation.entry_id, r.GetInt64(row, 1));
    reservation.resumed = true;  // Charged already.
    return reservation;
  }
  if (outcome == "in_progress") return StillInProgressError(request);
  if (outcome == "conflict") return RequestIdReusedError(request);
  if (outcome == "no_budget") return NoGrantError(request, units);
  if (outcome == "exhausted") {
    return BudgetExhaustedError(request, shown, units);
  }
  if (outcome == "cap") {
    ASSIGN_OR_RETURN(const int64_t cap, r.GetInt64(row, 4));
    ASSIGN_OR_RETURN(const int64_t cap_left, r.GetInt64(row, 5));
    return DatasetCapError(request, cap, cap_left, shown, units);
  }
  return absl::InternalError(absl::StrCat(
      "The ledger function ledger_reserve returned an unknown outcome '",
      outcome, "'."));
}

absl::Status PostgresLedgerStore::Commit(int64_t entry_id,
                                         const std::string& answer) {
  CommitOp op;
  op.entry_id = entry_id;
  op.answer = &answer;
  commits_.Run(
      op, [this](absl::Span<CommitOp* const> batch) { WriteCommits(batch); });
  // Whatever the outcome, no call holds the entry any more: if it is
  // still reserved (the outcome was lost), the sweep charges it.
  {
    absl::MutexLock lock(&in_flight_mu_);
    in_flight_.erase(entry_id);
  }
  return op.result;
}

void PostgresLedgerStore::WriteCommits(absl::Span<CommitOp* const> batch) {
  // ledger_commit(ARRAY[ROW($1, $2)::ledger_commit_item, ...])
  std::string sql =
      "SELECT o_index, o_done, o_state, o_buyer, o_seq "
      "FROM ledger_commit(ARRAY[";
  std::vector<PgParam> params;
  params.reserve(batch.size() * 2);
  for (size_t i = 0; i < batch.size(); ++i) {
    absl::StrAppend(&sql, i == 0 ? "" : ", ", "ROW($", params.size() + 1,
                    "::BIGINT, $", params.size() + 2,
                    "::BYTEA)::ledger_commit_item");
    params.push_back(PgParam::Int(batch[i]->entry_id));
    params.push_back(PgParam::Bytes(*batch[i]->answer));
  }
  absl::StrAppend(&sql, "])");
  absl::StatusOr<PgResult> r = Run(sql, params);
  if (r.ok() && r->rows() != static_cast<int>(batch.size())) {
    r = absl::InternalError(
        absl::StrCat("The ledger function ledger_commit returned ", r->rows(),
                     " rows for ", batch.size(), " entries."));
  }
  for (CommitOp* op : batch) {
    op->result = r.ok() ? absl::InternalError(
                              "The ledger function ledger_commit returned no "
                              "row for an entry.")
                        : r.status();
  }
  if (!r.ok()) return;
  for (int row = 0; row < r->rows(); ++row) {
    const absl::StatusOr<int64_t> index = r->GetInt64(row, 0);
    if (!index.ok() || *index < 1 ||
        *index > static_cast<int64_t>(batch.size())) {
      continue;  // that op keeps its kInternal
    }
    batch[*index - 1]->result = ReadCommit(*r, row);
  }
}

absl::Status PostgresLedgerStore::ReadCommit(const PgResult& r, int row) {
  ASSIGN_OR_RETURN(const bool done, r.GetBool(row, 1));
  if (done) return absl::OkStatus();
  ASSIGN_OR_RETURN(const EntryStatus entry, ReadEntryStatus(r, row, 2));
  return CommitRefusedError(entry.state, entry.name);
}

absl::Status PostgresLedgerStore::Settle(int64_t entry_id,
                                         const char* new_state) {
  absl::StatusOr<PgResult> r =
      Run("SELECT o_done, o_state, o_buyer, o_seq FROM ledger_settle($1, $2)",
          {PgParam::Int(entry_id), PgParam::Text(new_state)});
  {
    absl::MutexLock lock(&in_flight_mu_);
    in_flight_.erase(entry_id);
  }
  if (!r.ok()) return r.status();
  RETURN_IF_ERROR(RequireOneRow(*r, "ledger_settle"));
  ASSIGN_OR_RETURN(const bool done, r->GetBool(0, 0));
  if (done) return absl::OkStatus();
  ASSIGN_OR_RETURN(const EntryStatus entry, ReadEntryStatus(*r, 0, 1));
  const std::string verb =
      std::string(new_state) == kRefunded ? "refund" : "charge";
  return absl::FailedPreconditionError(
      entry.state.empty()
          ? absl::StrCat("Cannot ", verb, " ", entry.name, ".")
          : absl::StrCat("Cannot ", verb, " ", entry.name, ": it is ",
                         entry.state, ", not reserved."));
}

absl::Status PostgresLedgerStore::ChargeWithoutAnswer(int64_t entry_id) {
  return Settle(entry_id, kCharged);
}

absl::Status PostgresLedgerStore::Refund(int64_t entry_id) {
  return Settle(entry_id, kRefunded);
}

absl::StatusOr<int64_t> PostgresLedgerStore::RecoverPending() {
  ASSIGN_OR_RETURN(const PgResult r, Run("SELECT ledger_recover($1, $2)",
                                         {PgParam::Text(options_.replica_id),
                                          PgParam::Int(incarnation_)}));
  RETURN_IF_ERROR(RequireOneRow(r, "ledger_recover"));
  return r.GetInt64(0, 0);
}

absl::StatusOr<std::vector<LedgerEntry>> PostgresLedgerStore::ListEntries(
    const LedgerFilter& filter) {
  std::string sql =
      absl::StrCat("SELECT ", kEntryColumns, " FROM ledger_entries WHERE TRUE");
  std::vector<PgParam> params;
  AppendFilter(filter, &sql, &params);
  if (!filter.buyer_id.empty() && filter.before_buyer_seq > 0) {
    params.push_back(PgParam::Int(filter.before_buyer_seq));
    absl::StrAppend(&sql, " AND buyer_seq < $", params.size());
  }
  if (filter.before_entry_id > 0) {
    params.push_back(PgParam::Int(filter.before_entry_id));
    absl::StrAppend(&sql, " AND entry_id < $", params.size());
  }
  const int64_t limit =
      filter.limit > static_cast<size_t>(std::numeric_limits<int64_t>::max())
          ? std::numeric_limits<int64_t>::max()
          : static_cast<int64_t>(filter.limit);
  params.push_back(PgParam::Int(limit));
  absl::StrAppend(&sql, " ORDER BY entry_id DESC LIMIT $", params.size());
  ASSIGN_OR_RETURN(const PgResult r, Run(sql, params));
  std::vector<LedgerEntry> entries;
  entries.reserve(r.rows());
  for (int row = 0; row < r.rows(); ++row) {
    ASSIGN_OR_RETURN(LedgerEntry entry, ReadEntry(r, row));
    entries.push_back(std::move(entry));
  }
  return entries;
}

// ---------------------------------------------------------------------------
// Import (dpq-server --import-sqlite).

namespace {

// Entries per INSERT, and the bytes of their answers after which a
// statement is sent early (answers of trees and cuboids can be large).
constexpr size_t kImportRowsPerStatement = 500;
constexpr size_t kImportBytesPerStatement = size_t{8} << 20;
// The incarnation of imported entries: none (identities start at 1). They
// are never reserved, so no lease or sweep ever looks at it.
constexpr int64_t kImportedIncarnation = 0;

// Parameter $n, a time in Unix microseconds, as the ledger's timestamp
// (exact: timestamps hold microseconds).
std::string MicrosToTime(int n) {
  return absl::StrCat("TIMESTAMPTZ 'epoch' + $", n,
                      "::BIGINT * INTERVAL '1 microsecond'");
}

absl::Status InsertEntries(PgConnection& c,
                           absl::Span<const LedgerEntryRecord> entries) {
  constexpr int kColumns = 12;
  std::string values;
  for (size_t row = 0; row < entries.size(); ++row) {
    const int p = static_cast<int>(row) * kColumns;
    absl::StrAppend(&values, row == 0 ? "(" : ", (");
    // buyer_id .. state; their types spelt out, since a multi-row VALUES
    // list does not take them from the target columns.
    constexpr const char* kTypes[] = {"TEXT", "BIGINT", "TEXT",
                                      "TEXT", "BYTEA",  "TEXT",
                                      "TEXT", "BIGINT", "TEXT"};
    for (int i = 0; i < 9; ++i) {
      absl::StrAppend(&values, "$", p + i + 1, "::", kTypes[i], ", ");
    }
    absl::StrAppend(&values, MicrosToTime(p + 10), ", ", MicrosToTime(p + 11),
                    ", $", p + 12, "::BYTEA, ", kImportedIncarnation, ")");
  }
  std::vector<PgParam> params;
  params.reserve(entries.size() * kColumns);
  for (const LedgerEntryRecord& e : entries) {
    params.push_back(PgParam::Text(e.buyer_id));
    params.push_back(PgParam::Int(e.buyer_seq));
    params.push_back(PgParam::Text(e.dataset_id));
    params.push_back(PgParam::Text(e.request_id));
    params.push_back(PgParam::Bytes(e.fingerprint));
    params.push_back(PgParam::Text(e.operation));
    params.push_back(PgParam::Text(e.neighbouring));
    params.push_back(PgParam::Int(e.epsilon));
    params.push_back(PgParam::Text(core::ledger::EntryStateName(e.state)));
    params.push_back(PgParam::Int(absl::ToUnixMicros(e.created_at)));
    params.push_back(e.settled_at.has_value()
                         ? PgParam::Int(absl::ToUnixMicros(*e.settled_at))
                         : PgParam::Null());
    params.push_back(e.answer.has_value() ? PgParam::Bytes(*e.answer)
                                          : PgParam::Null());
  }
  return c
      .Exec(absl::StrCat("INSERT INTO ledger_entries (buyer_id, buyer_seq, "
                         "dataset_id, request_id, fingerprint, operation, "
                         "neighbouring, epsilon, state, created_at, "
                         "settled_at, answer, incarnation) VALUES ",
                         values),
            params)
      .status();
}

// Every budget as the ledger now reads it (granted, spent and reserved
// from the entries) must be the one imported, totals included.
absl::Status CheckImportedTotals(PgConnection& c,
                                 absl::Span<const LedgerBudgetRecord> budgets) {
  ASSIGN_OR_RETURN(const PgResult r,
                   c.Exec("SELECT buyer_id, dataset_id, granted, spent, "
                          "reserved FROM ledger_budget_totals"));
  absl::flat_hash_map<std::pair<std::string, std::string>,
                      const LedgerBudgetRecord*>
      expected;
  for (const LedgerBudgetRecord& b : budgets) {
    expected[{b.buyer_id, b.dataset_id}] = &b;
  }
  if (static_cast<size_t>(r.rows()) != expected.size()) {
    return absl::InternalError(absl::StrCat("The ledger holds ", r.rows(),
                                            " budgets after the import of ",
                                            expected.size(), "."));
  }
  for (int row = 0; row < r.rows(); ++row) {
    const std::string buyer(r.Get(row, 0));
    const std::string dataset(r.Get(row, 1));
    ASSIGN_OR_RETURN(const int64_t granted, r.GetInt64(row, 2));
    ASSIGN_OR_RETURN(const int64_t spent, r.GetInt64(row, 3));
    ASSIGN_OR_RETURN(const int64_t reserved, r.GetInt64(row, 4));
    auto it = expected.find(std::make_pair(buyer, dataset));
    if (it == expected.end()) {
      return absl::InternalError(absl::StrCat(
          "The import wrote a budget of buyer '", buyer, "' on dataset '",
          dataset, "' that the snapshot lacks."));
    }
    const LedgerBudgetRecord& b = *it->second;
    if (granted != b.granted || spent != b.spent || reserved != b.reserved) {
      return absl::DataLossError(absl::StrCat(
          "The budget of buyer '", buyer, "' on dataset '", dataset,
          "' records ", UnitsText(b.spent), " spent and ",
          UnitsText(b.reserved), " reserved, but its entries add up to ",
          UnitsText(spent), " spent and ", UnitsText(reserved),
          " reserved: the ledger being imported is inconsistent; nothing "
          "was imported."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<bool> PostgresLedgerStore::HoldsData(PgConnection& c) {
  ASSIGN_OR_RETURN(
      const PgResult r,
      c.Exec("SELECT EXISTS (SELECT 1 FROM ledger_budgets) OR "
             "EXISTS (SELECT 1 FROM ledger_entries) OR "
             "EXISTS (SELECT 1 FROM ledger_datasets WHERE cap <> 0)"));
  RETURN_IF_ERROR(RequireOneRow(r, "emptiness check"));
  return r.GetBool(0, 0);
}

absl::Status PostgresLedgerStore::Import(PgConnection& c,
                                         const LedgerSnapshot& snapshot) {
  for (const LedgerEntryRecord& e : snapshot.entries) {
    if (e.state == EntryState::kReserved) {
      return absl::InvalidArgumentError(
          absl::StrCat("Ledger entry ", e.buyer_seq, " of buyer '", e.buyer_id,
                       "' is still reserved: settle it before the import."));
    }
  }
  for (const LedgerBudgetRecord& b : snapshot.budgets) {
    RETURN_IF_ERROR(
        c.Exec("INSERT INTO ledger_budgets (buyer_id, dataset_id, "
               "granted) VALUES ($1, $2, $3)",
               {PgParam::Text(b.buyer_id), PgParam::Text(b.dataset_id),
                PgParam::Int(b.granted)})
            .status());
  }
  // A dataset row for every cap and every budget (reservations lock it).
  for (const LedgerDatasetRecord& d : snapshot.datasets) {
    RETURN_IF_ERROR(c.Exec("INSERT INTO ledger_datasets (dataset_id, cap) "
                           "VALUES ($1, $2) ON CONFLICT (dataset_id) "
                           "DO UPDATE SET cap = excluded.cap",
                           {PgParam::Text(d.dataset_id), PgParam::Int(d.cap)})
                        .status());
  }
  RETURN_IF_ERROR(c.Exec("INSERT INTO ledger_datasets (dataset_id) "
                         "SELECT DISTINCT dataset_id FROM ledger_budgets "
                         "ON CONFLICT (dataset_id) DO NOTHING")
                      .status());
  size_t first = 0;
  size_t bytes = 0;
  for (size_t i = 0; i < snapshot.entries.size(); ++i) {
    const LedgerEntryRecord& e = snapshot.entries[i];
    bytes += e.answer.has_value() ? e.answer->size() : 0;
    const size_t rows = i + 1 - first;
    if (rows == kImportRowsPerStatement || bytes >= kImportBytesPerStatement ||
        i + 1 == snapshot.entries.size()) {
      RETURN_IF_ERROR(InsertEntries(
          c, absl::MakeConstSpan(snapshot.entries).subspan(first, rows)));
      first = i + 1;
      bytes = 0;
    }
  }
  // The running totals (`used` = spent + reserved; nothing is reserved)
  // and the counters, from the entries.
  RETURN_IF_ERROR(
      c.Exec("UPDATE ledger_budgets AS b SET used = t.total "
             "FROM (SELECT buyer_id, dataset_id, SUM(epsilon)::BIGINT AS total "
             "      FROM ledger_entries "
             "      WHERE state IN ('reserved', 'committed', 'charged') "
             "      GROUP BY buyer_id, dataset_id) AS t "
             "WHERE b.buyer_id = t.buyer_id AND b.dataset_id = t.dataset_id")
          .status());
  RETURN_IF_ERROR(
      c.Exec("INSERT INTO ledger_buyers (buyer_id, last_seq) "
             "SELECT buyer_id, MAX(buyer_seq) FROM ledger_entries "
             "GROUP BY buyer_id ON CONFLICT (buyer_id) "
             "DO UPDATE SET last_seq = GREATEST(ledger_buyers.last_seq, "
             "excluded.last_seq)")
          .status());
  return CheckImportedTotals(c, snapshot.budgets);
}

}  // namespace dpq::server::storage
