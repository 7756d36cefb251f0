// Cooperative cancellation of long computations (tree training, node
// scores): the computation polls a callback and stops early once it says
// the caller has left, so that an abandoned call does not hold a worker.
#ifndef DPQ_CORE_UTIL_STOP_H_
#define DPQ_CORE_UTIL_STOP_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"

namespace dpq::core::util {

// True once the result is no longer wanted. Empty: never.
using StopFn = std::function<bool()>;

inline bool StopRequested(const StopFn& stop) { return stop && stop(); }

// Polls a StopFn from loops whose steps are too cheap to poll each: the
// loop reports the work it did (any unit: rows, node visits), and `stop` is
// called once at least `stride` units were done since the last call. With
// strides of ~10^4-10^5 cheap steps a stopped computation ends within a
// millisecond or so of work, and the polls (a clock read and an atomic load
// in the server) cost nothing measurable. Not thread-safe: one per loop.
class StridedStop {
 public:
  StridedStop(const StopFn& stop, uint64_t stride)
      : stop_(stop), stride_(stride == 0 ? 1 : stride) {}

  // Adds `work` units; true once `stop` said so at a poll (and from then
  // on, without polling again).
  bool Requested(uint64_t work = 1) {
    if (stopped_) return true;
    if (!stop_) return false;
    done_ += work;
    if (done_ < stride_) return false;
    done_ = 0;
    stopped_ = stop_();
    return stopped_;
  }

 private:
  const StopFn& stop_;
  const uint64_t stride_;
  uint64_t done_ = 0;
  bool stopped_ = false;
};

// kCancelled: what a stopped computation returns.
inline absl::Status StoppedError() {
  return absl::CancelledError(
      "The computation was stopped because the caller left.");
}

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_STOP_H_
