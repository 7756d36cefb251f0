#include "core/ledger/charged_release.h"

#include <string>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"

namespace dpq::core::ledger {

absl::StatusOr<ReleaseOutcome> RunChargedRelease(
    LedgerStore& ledger, const ReserveRequest& request,
    absl::FunctionRef<absl::StatusOr<std::string>()> compute) {
  ASSIGN_OR_RETURN(Reservation reservation, ledger.Reserve(request));
  ReleaseOutcome outcome;
  outcome.remaining = reservation.remaining;
  if (reservation.recorded_answer.has_value()) {
    outcome.answer = *std::move(reservation.recorded_answer);
    outcome.replayed = true;
    return outcome;
  }
  if (!reservation.entry_id.has_value()) {
    return absl::InternalError(
        "The ledger returned neither a reservation nor a recorded answer.");
  }
  const int64_t entry_id = *reservation.entry_id;

  absl::StatusOr<std::string> answer = compute();
  if (!answer.ok()) {
    // Nothing was released: return the epsilon.
    const absl::Status refund = ledger.Refund(entry_id);
    if (!refund.ok()) {
      return absl::Status(
          answer.status().code(),
          absl::StrCat(answer.status().message(),
                       " (and refunding ledger entry ", entry_id,
                       " failed: ", refund.message(),
                       "; it stays reserved until the server restarts)"));
    }
    return answer.status();
  }

  const absl::Status commit = ledger.Commit(entry_id, *answer);
  if (!commit.ok()) {
    // The answer is dropped: an uncharged answer never leaves. Refunding is
    // safe either way: if the commit did reach the disk after all, the
    // entry is no longer reserved and the refund changes nothing (the buyer
    // is charged for an answer never sent, the safe side).
    const absl::Status refund = ledger.Refund(entry_id);
    return absl::Status(
        commit.code() == absl::StatusCode::kFailedPrecondition
            ? absl::StatusCode::kInternal
            : commit.code(),
        absl::StrCat("Could not record the charge, so the answer was not "
                     "released: ",
                     commit.message(),
                     refund.ok() ? " (the reservation was refunded)" : ""));
  }
  outcome.answer = *std::move(answer);
  outcome.epsilon_charged = request.epsilon;
  return outcome;
}

}  // namespace dpq::core::ledger
