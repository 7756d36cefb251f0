#include "server/registry/conflict_graph_slot.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "server/metrics/server_metrics.h"

namespace dpq::server::registry {
namespace {

// How often a waiter checks whether its client cancelled the call.
constexpr absl::Duration kCancelPoll = absl::Milliseconds(50);

}  // namespace

ConflictGraphSlot::~ConflictGraphSlot() {
  if (state_ == State::kFailed) {
    metrics::ServerMetrics::Default().DatasetRefusalEnded();
  }
}

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
  if (state_ == State::kFailed) return;
  error_ = std::move(error);
  state_ = State::kFailed;
  metrics::ServerMetrics::Default().DatasetRefused();
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
      // Waits run after the release's reservation: its charge stands.
      return absl::CancelledError(
          "The client cancelled the call while the conflict graph was being "
          "built; the charge stands: retry with the same request_id to "
          "resume it.");
    }
    const absl::Time now = absl::Now();
    if (now >= deadline) {
      return absl::DeadlineExceededError(
          "The dataset's conflict graph is still being built in the "
          "background and the call's deadline passed; the charge stands: "
          "retry with the same request_id later or with a longer deadline.");
    }
    changed_.WaitWithDeadline(&mu_, std::min(deadline, now + kCancelPoll));
  }
  switch (state_) {
    case State::kReady:
      return &*data_;
    case State::kFailed:
      // The cause (e.g. a bound that differs from the recorded one) depends
      // on the rows: it goes to the operator's log and the admins
      // (DatasetStats.graph_error), never to buyers (docs/security.md, item
      // 9). It is this replica's fault, as a crash would be: the charge
      // stands and resumes by request_id where the dataset is served.
      return absl::UnavailableError(
          "This server stopped serving the dataset: its conflict graph "
          "could not be rebuilt as registered (the operator is told). The "
          "charge stands: retry with the same request_id once it is served "
          "again, or through another replica.");
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
