#include "core/ledger/charged_release.h"

#include <string>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::core::ledger {

namespace {

// The recorded answer of `request`, once committed by a concurrent retry.
absl::StatusOr<ReleaseOutcome> Replay(LedgerStore& ledger,
                                      const ReserveRequest& request) {
  ASSIGN_OR_RETURN(Reservation reservation, ledger.Reserve(request));
  if (!reservation.recorded_answer.has_value()) {
    return absl::InternalError(
        "The ledger reported a concurrent answer but holds none.");
  }
  ReleaseOutcome outcome;
  outcome.answer = *std::move(reservation.recorded_answer);
  outcome.replayed = true;
  outcome.remaining_units = reservation.remaining_units;
  outcome.remaining = reservation.remaining;
  return outcome;
}

}  // namespace

absl::StatusOr<ReleaseOutcome> RunChargedRelease(
    LedgerStore& ledger, const ReserveRequest& request,
    absl::FunctionRef<absl::StatusOr<std::string>()> compute) {
  ASSIGN_OR_RETURN(Reservation reservation, ledger.Reserve(request));
  ReleaseOutcome outcome;
  outcome.remaining_units = reservation.remaining_units;
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
  ASSIGN_OR_RETURN(const int64_t units, ChargeUnits(request.epsilon));
  const double charged = FromUnits(units);

  absl::StatusOr<std::string> answer = compute();
  if (!answer.ok()) {
    // The computation may have read the data (and its running time may
    // depend on it): the charge stands.
    const absl::Status charge = reservation.resumed
                                    ? absl::OkStatus()
                                    : ledger.ChargeWithoutAnswer(entry_id);
    absl::Status failed(
        answer.status().code(),
        absl::StrCat(
            answer.status().message(),
            charge.ok()
                ? absl::StrCat(" The charge of epsilon ", UnitsDecimal(units),
                               " for request_id '", request.request_id,
                               "' stands: retry with the same request_id to "
                               "receive the answer without a further charge.")
                : absl::StrCat(" (Recording the charge of request_id '",
                               request.request_id,
                               "' failed: ", charge.message(),
                               "; the server charges it as soon as its "
                               "ledger can write again, or at its next "
                               "start: then retry with the same request_id "
                               "to receive the answer without a further "
                               "charge.)")));
    // The computation's details (docs/errors.md) stay with its error.
    answer.status().ForEachPayload(
        [&](absl::string_view url, const absl::Cord& payload) {
          failed.SetPayload(url, payload);
        });
    if (!charge.ok()) return failed;
    // Machine-readable too: a server fault's message is replaced by an
    // incident id at the edge (server/grpc_status.cc), which keeps this
    // sentence from these details.
    util::ErrorDetails details =
        util::GetErrorDetails(failed).value_or(util::ErrorDetails{});
    details.metadata["charge_stands"] = "true";
    details.metadata["request_id"] = request.request_id;
    details.metadata["charged_epsilon"] = UnitsDecimal(units);
    return util::WithErrorDetails(std::move(failed), details);
  }

  const absl::Status commit = ledger.Commit(entry_id, *answer);
  if (commit.code() == absl::StatusCode::kAborted) {
    // A concurrent resume of the same request recorded its answer first;
    // that one stands and this one is dropped (never sent).
    return Replay(ledger, request);
  }
  if (!commit.ok()) {
    // The answer is dropped: an uncharged answer never leaves. The ledger's
    // failure depends on no private data, so a fresh reservation may be
    // refunded; if the commit did reach the disk after all, the entry is no
    // longer reserved and the refund changes nothing (the buyer is charged
    // for an answer never sent, the safe side).
    const absl::Status refund =
        reservation.resumed ? absl::OkStatus() : ledger.Refund(entry_id);
    return absl::Status(
        commit.code() == absl::StatusCode::kFailedPrecondition
            ? absl::StatusCode::kInternal
            : commit.code(),
        absl::StrCat(
            "Could not record the answer, so it was not released: ",
            commit.message(),
            reservation.resumed
                ? " (the earlier charge stands; retry)"
                : (refund.ok() ? " (the reservation was refunded)"
                               : " (nor could the reservation be refunded: "
                                 "the server charges it as soon as its "
                                 "ledger can write again, and a retry with "
                                 "the same request_id then returns the "
                                 "answer without a further charge)")));
  }
  outcome.answer = *std::move(answer);
  outcome.replayed = reservation.resumed;
  outcome.epsilon_charged_units = reservation.resumed ? 0 : units;
  outcome.epsilon_charged = reservation.resumed ? 0 : charged;
  return outcome;
}

}  // namespace dpq::core::ledger
