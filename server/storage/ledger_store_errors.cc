#include "server/storage/ledger_store_errors.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
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
  return EpsilonText(core::ledger::FromUnits(units));
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
  return absl::FailedPreconditionError(absl::StrCat(
      "Cannot set the budget of buyer '", buyer_id, "' on dataset '",
      dataset_id, "' to ", EpsilonText(granted), ": spent ",
      UnitsText(spent_units), " and reserved ", UnitsText(reserved_units),
      " already exceed it."));
}

absl::Status RequestIdReusedError(const ReserveRequest& request) {
  return absl::AlreadyExistsError(
      absl::StrCat("request_id '", request.request_id,
                   "' was already used by buyer '", request.buyer_id,
                   "' for a different request; use a new request_id."));
}

absl::Status StillInProgressError(const ReserveRequest& request) {
  return absl::AbortedError(absl::StrCat(
      "The request with request_id '", request.request_id, "' of buyer '",
      request.buyer_id, "' is still in progress; retry later."));
}

absl::Status NoGrantError(const ReserveRequest& request,
                          int64_t requested_units) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "Buyer '", request.buyer_id, "' has no budget on dataset '",
      request.dataset_id,
      "': nothing was granted (an admin grants it with GrantBudget); "
      "requested ",
      UnitsText(requested_units), "."));
}

absl::Status BudgetExhaustedError(const ReserveRequest& request,
                                  int64_t remaining_units,
                                  int64_t requested_units) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "Budget exhausted for buyer '", request.buyer_id, "' on dataset '",
      request.dataset_id, "': remaining ", UnitsText(remaining_units),
      ", requested ", UnitsText(requested_units), "."));
}

absl::Status DatasetCapError(const ReserveRequest& request, int64_t cap_units,
                             int64_t cap_left_units, int64_t remaining_units,
                             int64_t requested_units) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "Dataset cap reached on dataset '", request.dataset_id, "': cap ",
      UnitsText(cap_units), " over all buyers, of which ",
      UnitsText(cap_left_units), " remains, requested ",
      UnitsText(requested_units), " (buyer '", request.buyer_id,
      "' has remaining budget ", UnitsText(remaining_units), ")."));
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
