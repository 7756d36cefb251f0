// What the ledger stores (sqlite_ledger_store.h, postgres_ledger_store.h)
// say in the same words: the entry states as stored, amounts for people,
// and the refusals of the LedgerStore contract (core/ledger/ledger.h), so
// that a buyer reads the same message whichever store the server runs on.
#ifndef DPQ_SERVER_STORAGE_LEDGER_STORE_ERRORS_H_
#define DPQ_SERVER_STORAGE_LEDGER_STORE_ERRORS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/ledger/ledger.h"

namespace dpq::server::storage {

// Entry states as the stores keep them.
inline constexpr char kReserved[] = "reserved";
inline constexpr char kCommitted[] = "committed";
inline constexpr char kCharged[] = "charged";
inline constexpr char kRefunded[] = "refunded";

// kInternal for a state no store writes.
absl::StatusOr<core::ledger::EntryState> ParseEntryState(
    absl::string_view state);

// An epsilon for people: 15 significant digits ("0.1", not
// "0.09999999999999999").
std::string EpsilonText(double epsilon);
// An amount in units of 10^-12 epsilon, for people: its exact decimal
// (core::ledger::UnitsDecimal, "15.6").
std::string UnitsText(int64_t units);

// kInvalidArgument "<field> must not be empty." for an empty id.
absl::Status RequireId(absl::string_view value, absl::string_view field);

// Reserve's kInvalidArgument: an empty buyer_id, dataset_id or
// request_id, or an epsilon that is not finite and > 0.
absl::Status CheckReserveRequest(const core::ledger::ReserveRequest& request);

// Grant: the budget would exceed the largest amount a store holds.
absl::Status GrantOverflowError(absl::string_view buyer_id,
                                absl::string_view dataset_id);
// SetGranted below what is spent and reserved.
absl::Status GrantBelowUsedError(absl::string_view buyer_id,
                                 absl::string_view dataset_id, double granted,
                                 int64_t spent_units, int64_t reserved_units);

// RetryInfo of REQUEST_IN_PROGRESS: about one ledger transaction plus a
// short release.
inline constexpr int64_t kInProgressRetryDelayMs = 1000;

// Reserve's refusals (core/ledger/ledger.h), naming the buyer's numbers
// (the request's epsilon, and the charge when it differs:
// ReserveRequest::requested_units) in exact decimals, with the details of
// docs/errors.md attached (core/util/error_details.h): REQUEST_ID_REUSED
// (kAlreadyExists), REQUEST_IN_PROGRESS (kAborted, RetryInfo),
// NO_BUDGET_GRANTED (kFailedPrecondition, PreconditionFailure: nothing was
// ever granted), BUDGET_EXHAUSTED and DATASET_CAP_REACHED
// (kResourceExhausted, QuotaFailure).
absl::Status RequestIdReusedError(const core::ledger::ReserveRequest& request);
absl::Status StillInProgressError(const core::ledger::ReserveRequest& request);
absl::Status NoGrantError(const core::ledger::ReserveRequest& request,
                          int64_t requested_units);
absl::Status BudgetExhaustedError(const core::ledger::ReserveRequest& request,
                                  int64_t remaining_units,
                                  int64_t requested_units);
absl::Status DatasetCapError(const core::ledger::ReserveRequest& request,
                             int64_t cap_units, int64_t cap_left_units,
                             int64_t remaining_units, int64_t requested_units);

// Commit of an entry in `state` ("" if there is none), named `entry_name`
// (by buyer and buyer_seq): kAborted if it already has an answer, else
// kFailedPrecondition.
absl::Status CommitRefusedError(absl::string_view state,
                                absl::string_view entry_name);

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_LEDGER_STORE_ERRORS_H_
