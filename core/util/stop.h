// Cooperative cancellation of long computations (tree training, node
// scores): the computation polls a callback and stops early once it says
// the caller has left, so that an abandoned call does not hold a worker.
#ifndef DPQ_CORE_UTIL_STOP_H_
#define DPQ_CORE_UTIL_STOP_H_

#include <functional>

#include "absl/status/status.h"

namespace dpq::core::util {

// True once the result is no longer wanted. Empty: never.
using StopFn = std::function<bool()>;

inline bool StopRequested(const StopFn& stop) { return stop && stop(); }

// kCancelled: what a stopped computation returns.
inline absl::Status StoppedError() {
  return absl::CancelledError(
      "The computation was stopped because the caller left.");
}

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_STOP_H_
