#include "server/storage/ledger_store_errors.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::server::storage {

using ::dpq::core::ledger::EntryState;
using ::dpq::core::ledger::ReserveRequest;

absl::StatusOr<EntryState> ParseEntryState(absl::string_view state) {
  if (state == kReserved) return EntryState::kReserved;
  if (state == kCommitted) return EntryState::kCommitted;
  if (state == kCharged) return EntryState::kCharged;
  if (state == kRefunded) return EntryState::kRefunded;
  return absl::InternalError(absl::StrCat(
      "Ledger database holds an unknown entry state '", state, "'."));
}

std::string EpsilonText(double epsilon) {
  return absl::StrFormat("%.15g", epsilon);
}

std::string UnitsText(int64_t units) {
  return core::ledger::UnitsDecimal(units);
}

absl::Status RequireId(absl::string_view value, absl::string_view field) {
  if (value.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " must not be empty."));
  }
  return absl::OkStatus();
}

absl::Status CheckReserveRequest(const ReserveRequest& request) {
  RETURN_IF_ERROR(RequireId(request.buyer_id, "buyer_id"));
  RETURN_IF_ERROR(RequireId(request.dataset_id, "dataset_id"));
  RETURN_IF_ERROR(RequireId(request.request_id, "request_id"));
  return core::dp::ValidateEpsilon(request.epsilon, "epsilon");
}

absl::Status GrantOverflowError(absl::string_view buyer_id,
                                absl::string_view dataset_id) {
  return absl::InvalidArgumentError(absl::StrCat(
      "The budget of buyer '", buyer_id, "' on dataset '", dataset_id,
      "' would exceed ", UnitsText(core::ledger::kMaxUnits), " epsilon."));
}

absl::Status GrantBelowUsedError(absl::string_view buyer_id,
                                 absl::string_view dataset_id, double granted,
                                 int64_t spent_units, int64_t reserved_units) {
  return absl::FailedPreconditionError(
      absl::StrCat("Cannot set the budget of buyer '", buyer_id,
                   "' on dataset '", dataset_id, "' to ", EpsilonText(granted),
                   ": spent ", UnitsText(spent_units), " and reserved ",
                   UnitsText(reserved_units), " already exceed it."));
}

namespace {

using ::dpq::core::util::ErrorDetails;

// Sets `<name>_epsilon` (exact decimal) and `<name>_epsilon_units`.
void PutAmount(ErrorDetails& d, absl::string_view name, int64_t units) {
  d.metadata[absl::StrCat(name, "_epsilon")] =
      core::ledger::UnitsDecimal(units);
  d.metadata[absl::StrCat(name, "_epsilon_units")] = absl::StrCat(units);
}

// The details every refusal of `request` shares: its reason, dataset and
// request id, and the amounts in the buyer's numbers.
ErrorDetails DetailsOf(const ReserveRequest& request, absl::string_view reason,
                       int64_t charged_units) {
  ErrorDetails d;
  d.reason = std::string(reason);
  d.metadata["dataset_id"] = request.dataset_id;
  d.metadata["request_id"] = request.request_id;
  if (request.requested_units > 0 && request.requested_units != charged_units) {
    PutAmount(d, "requested", request.requested_units);
    PutAmount(d, "charged", charged_units);
  } else {
    PutAmount(d, "requested", charged_units);
  }
  return d;
}

// "requested epsilon 0.5" and, when the charge differs, " (charged 1 =
// 2 x 0.5: the dataset publishes an exact cuboid)".
std::string Requested(const ReserveRequest& request, int64_t charged_units) {
  if (request.requested_units <= 0 ||
      request.requested_units == charged_units) {
    return absl::StrCat("requested epsilon ",
                        core::ledger::UnitsDecimal(charged_units));
  }
  return absl::StrCat(
      "requested epsilon ", core::ledger::UnitsDecimal(request.requested_units),
      " (charged ", core::ledger::UnitsDecimal(charged_units),
      request.charge_basis.empty() ? "" : " = ", request.charge_basis, ")");
}

std::string BudgetSubject(const ReserveRequest& request) {
  return absl::StrCat("buyer:", request.buyer_id,
                      "/dataset:", request.dataset_id);
}

}  // namespace

absl::Status RequestIdReusedError(const ReserveRequest& request) {
  ErrorDetails d;
  d.reason = core::util::kReasonRequestIdReused;
  d.metadata["dataset_id"] = request.dataset_id;
  d.metadata["request_id"] = request.request_id;
  return core::util::WithErrorDetails(
      absl::AlreadyExistsError(
          absl::StrCat("request_id '", request.request_id,
                       "' was already used by buyer '", request.buyer_id,
                       "' for a different request; use a new request_id.")),
      d);
}

absl::Status StillInProgressError(const ReserveRequest& request) {
  ErrorDetails d;
  d.reason = core::util::kReasonRequestInProgress;
  d.metadata["dataset_id"] = request.dataset_id;
  d.metadata["request_id"] = request.request_id;
  d.retry_delay_ms = kInProgressRetryDelayMs;
  return core::util::WithErrorDetails(
      absl::AbortedError(absl::StrCat(
          "The request with request_id '", request.request_id, "' of buyer '",
          request.buyer_id,
          "' is still in progress; retry later with the same request_id.")),
      d);
}

absl::Status NoGrantError(const ReserveRequest& request,
                          int64_t requested_units) {
  ErrorDetails d =
      DetailsOf(request, core::util::kReasonNoBudgetGranted, requested_units);
  PutAmount(d, "granted", 0);
  d.precondition_violations.push_back(
      {"BUDGET_GRANT", BudgetSubject(request),
       "Nothing was granted to this buyer on this dataset; an admin grants "
       "budget with GrantBudget."});
  return core::util::WithErrorDetails(
      absl::FailedPreconditionError(absl::StrCat(
          "Buyer '", request.buyer_id, "' has no budget on dataset '",
          request.dataset_id,
          "': nothing was granted (an admin grants it with GrantBudget); ",
          Requested(request, requested_units), ".")),
      d);
}

absl::Status BudgetExhaustedError(const ReserveRequest& request,
                                  int64_t remaining_units,
                                  int64_t requested_units) {
  ErrorDetails d =
      DetailsOf(request, core::util::kReasonBudgetExhausted, requested_units);
  PutAmount(d, "remaining", remaining_units);
  const std::string numbers =
      absl::StrCat(Requested(request, requested_units), ", remaining ",
                   core::ledger::UnitsDecimal(remaining_units));
  d.quota_violations.push_back({BudgetSubject(request), numbers});
  return core::util::WithErrorDetails(
      absl::ResourceExhaustedError(absl::StrCat(
          "Budget exhausted for buyer '", request.buyer_id, "' on dataset '",
          request.dataset_id, "': ", numbers, ".")),
      d);
}

absl::Status DatasetCapError(const ReserveRequest& request, int64_t cap_units,
                             int64_t cap_left_units, int64_t remaining_units,
                             int64_t requested_units) {
  ErrorDetails d =
      DetailsOf(request, core::util::kReasonDatasetCapReached, requested_units);
  PutAmount(d, "cap", cap_units);
  PutAmount(d, "cap_remaining", cap_left_units);
  PutAmount(d, "remaining", remaining_units);
  d.quota_violations.push_back(
      {absl::StrCat("dataset:", request.dataset_id),
       absl::StrCat(Requested(request, requested_units), ", cap ",
                    core::ledger::UnitsDecimal(cap_units),
                    " over all buyers, of which ",
                    core::ledger::UnitsDecimal(cap_left_units), " remains")});
  return core::util::WithErrorDetails(
      absl::ResourceExhaustedError(absl::StrCat(
          "Dataset cap reached on dataset '", request.dataset_id,
          "': ", Requested(request, requested_units), ", cap ",
          core::ledger::UnitsDecimal(cap_units), " over all buyers, of which ",
          core::ledger::UnitsDecimal(cap_left_units), " remains (buyer '",
          request.buyer_id, "' has remaining budget ",
          core::ledger::UnitsDecimal(remaining_units), ").")),
      d);
}

absl::Status CommitRefusedError(absl::string_view state,
                                absl::string_view entry_name) {
  if (state == kCommitted) {
    return absl::AbortedError(absl::StrCat(
        "The ", entry_name,
        " already has an answer (a concurrent retry recorded it first)."));
  }
  return absl::FailedPreconditionError(
      state.empty() ? absl::StrCat("Cannot commit ", entry_name, ".")
                    : absl::StrCat("Cannot commit ", entry_name, ": it is ",
                                   state, ", not reserved."));
}

}  // namespace dpq::server::storage
