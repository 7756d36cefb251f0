#include "server/registry/conflict_graph_slot.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace dpq::server::registry {
namespace {

// How often a waiter checks whether its client cancelled the call.
constexpr absl::Duration kCancelPoll = absl::Milliseconds(50);

}  // namespace

bool ConflictGraphSlot::TryStart() {
  absl::MutexLock lock(&mu_);
  if (state_ != State::kPending) return false;
  state_ = State::kBuilding;
  return true;
}

void ConflictGraphSlot::SetReady(ConflictGraphData data) {
  absl::MutexLock lock(&mu_);
  data_.emplace(std::move(data));
  state_ = State::kReady;
  changed_.SignalAll();
}

void ConflictGraphSlot::SetFailed(absl::Status error) {
  absl::MutexLock lock(&mu_);
  error_ = std::move(error);
  state_ = State::kFailed;
  changed_.SignalAll();
}

void ConflictGraphSlot::Cancel(absl::Status reason) {
  absl::MutexLock lock(&mu_);
  if (state_ != State::kPending) return;
  error_ = std::move(reason);
  state_ = State::kCancelled;
  changed_.SignalAll();
}

absl::StatusOr<const ConflictGraphData*> ConflictGraphSlot::Wait(
    absl::Time deadline, const std::function<bool()>& cancelled) const {
  absl::MutexLock lock(&mu_);
  while (state_ == State::kPending || state_ == State::kBuilding) {
    if (cancelled && cancelled()) {
      return absl::CancelledError(
          "The client cancelled the call while the conflict graph was being "
          "built; nothing was charged.");
    }
    const absl::Time now = absl::Now();
    if (now >= deadline) {
      return absl::DeadlineExceededError(
          "The dataset's conflict graph is still being built in the "
          "background and the call's deadline passed; nothing was charged. "
          "Retry later or with a longer deadline.");
    }
    changed_.WaitWithDeadline(&mu_, std::min(deadline, now + kCancelPoll));
  }
  switch (state_) {
    case State::kReady:
      return &*data_;
    case State::kFailed:
      // The cause (e.g. an edge count above max_edges) depends on the rows:
      // it goes to the admins (DatasetStats.graph_error), never to buyers
      // (docs/security.md, item 9).
      return absl::FailedPreconditionError(
          "The dataset's conflict graph could not be built; it answers no "
          "inconsistency measures until an admin replaces it (admins see "
          "the cause in `dpq admin datasets`).");
    default:
      return error_;
  }
}

ConflictGraphSlot::State ConflictGraphSlot::state() const {
  absl::MutexLock lock(&mu_);
  return state_;
}

const ConflictGraphData* ConflictGraphSlot::ready_data() const {
  absl::MutexLock lock(&mu_);
  return state_ == State::kReady ? &*data_ : nullptr;
}

absl::Status ConflictGraphSlot::error() const {
  absl::MutexLock lock(&mu_);
  return error_;
}

}  // namespace dpq::server::registry
