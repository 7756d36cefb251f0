// Running one DP release under a ledger charge (design.md 5.6, 5.7): the
// only correct order of reserve, compute, commit, reply.
#ifndef DPQ_CORE_LEDGER_CHARGED_RELEASE_H_
#define DPQ_CORE_LEDGER_CHARGED_RELEASE_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"

namespace dpq::core::ledger {

struct ReleaseOutcome {
  std::string answer;     // computed now, or recorded earlier
  bool replayed = false;  // true: a committed retry, nothing charged
  double epsilon_charged = 0;
  double remaining = 0;   // the budget after the call
};

// Reserves `request.epsilon`, runs `compute` (which draws the noise and
// returns the serialised answer), commits the answer, and returns it. If
// `compute` fails, the reservation is refunded (nothing was released) and
// the error returned. If the request is a retry of a committed one, returns
// the recorded answer without running `compute`. If Commit fails, the answer
// is NOT returned (kInternal/kUnavailable): an uncharged answer never leaves.
// Errors of Reserve are returned as they are.
absl::StatusOr<ReleaseOutcome> RunChargedRelease(
    LedgerStore& ledger, const ReserveRequest& request,
    absl::FunctionRef<absl::StatusOr<std::string>()> compute);

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_CHARGED_RELEASE_H_
