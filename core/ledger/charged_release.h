// Running one DP release under a ledger charge (docs/privacy.md 3 and
// 3.2): the only correct order of reserve, compute, commit, reply.
#ifndef DPQ_CORE_LEDGER_CHARGED_RELEASE_H_
#define DPQ_CORE_LEDGER_CHARGED_RELEASE_H_

#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"

namespace dpq::core::ledger {

struct ReleaseOutcome {
  std::string answer;  // computed now, or recorded earlier
  // True when this call charged nothing: a retry of a committed request
  // (the recorded answer) or of a charged one without answer (resumed:
  // computed now, charged by the earlier call).
  bool replayed = false;
  // Exact, in units of 10^-12 epsilon; the doubles are the nearest.
  int64_t epsilon_charged_units = 0;
  double epsilon_charged = 0;
  int64_t remaining_units = 0;  // the budget after the call
  double remaining = 0;
};

// Reserves `request.epsilon`, runs `compute` (which draws the noise and
// returns the serialised answer), commits the answer, and returns it.
//  - A retry of a committed request returns the recorded answer without
//    running `compute`; a retry of one charged without an answer runs it
//    and records the answer, without a new charge.
//  - Once the reservation succeeded the charge stands (docs/privacy.md 3,
//    rule 3): if `compute` fails (an error, or the caller left), the entry
//    is charged without an answer and the error returned with a note that a
//    retry with the same request_id returns the answer at no further cost.
//    Only failures that depend on no private data may refund, and those
//    are checked before Reserve by the callers.
//  - If Commit fails (the ledger's own failure), the answer is NOT returned
//    (kInternal/kUnavailable) and a fresh reservation is refunded: an
//    uncharged answer never leaves.
// Errors of Reserve are returned as they are.
absl::StatusOr<ReleaseOutcome> RunChargedRelease(
    LedgerStore& ledger, const ReserveRequest& request,
    absl::FunctionRef<absl::StatusOr<std::string>()> compute);

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_CHARGED_RELEASE_H_
