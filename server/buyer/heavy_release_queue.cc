#include "server/buyer/heavy_release_queue.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/metrics/server_metrics.h"

namespace dpq::server::buyer {
namespace {

// How often a waiter checks whether its call is over.
constexpr absl::Duration kCallPoll = absl::Milliseconds(100);

}  // namespace

HeavyReleaseQueue::HeavyReleaseQueue(int max_running)
    : max_running_(std::max(1, max_running)) {
  metrics::ServerMetrics::Default().HeavyReleaseCapacity(max_running_);
}

HeavyReleaseQueue::~HeavyReleaseQueue() {
  metrics::ServerMetrics::Default().HeavyReleaseCapacity(-max_running_);
}

// Among the waiters, the one whose principal was granted the fewest
// slots, then the smallest ticket. O(waiters): the queue is as long as the
// calls the server's threads hold, a few hundred at most.
bool HeavyReleaseQueue::IsNext(uint64_t ticket) const {
  uint64_t best_ticket = 0, best_granted = 0;
  bool found = false;
  for (const auto& [t, principal] : waiting_) {
    const uint64_t granted = accounts_.at(principal).granted;
    if (!found || granted < best_granted ||
        (granted == best_granted && t < best_ticket)) {
      best_ticket = t;
      best_granted = granted;
      found = true;
    }
  }
  return found && best_ticket == ticket;
}

void HeavyReleaseQueue::Leave(uint64_t ticket) {
  const auto it = waiting_.find(ticket);
  const std::string principal = it->second;
  waiting_.erase(it);
  --accounts_[principal].waiting;
  EraseIfIdle(principal);
  metrics::ServerMetrics::Default().HeavyReleaseDequeued();
  // The next in line may be another waiter now.
  changed_.SignalAll();
}

void HeavyReleaseQueue::EraseIfIdle(const std::string& principal) {
  const auto it = accounts_.find(principal);
  if (it != accounts_.end() && it->second.waiting <= 0 &&
      it->second.running <= 0) {
    accounts_.erase(it);
  }
}

absl::StatusOr<HeavyReleaseQueue::Slot> HeavyReleaseQueue::Acquire(
    const std::string& principal, const CallContext& call) {
  absl::MutexLock lock(&mu_);
  const uint64_t ticket = next_ticket_++;
  waiting_[ticket] = principal;
  if (!accounts_.contains(principal)) {
    // A newcomer starts level with the least served principal in the queue,
    // so it neither waits behind every earlier grant nor overtakes them
    // all.
    uint64_t level = 0;
    bool first = true;
    for (const auto& [name, a] : accounts_) {
      if (first || a.granted < level) level = a.granted;
      first = false;
    }
    accounts_[principal].granted = level;
  }
  ++accounts_[principal].waiting;
  metrics::ServerMetrics::Default().HeavyReleaseQueued();
  while (running_ >= max_running_ || !IsNext(ticket)) {
    if (call.Over()) {
      Leave(ticket);
      const absl::Status over = CheckCall(call);
      return absl::Status(
          over.code(),
          absl::StrCat(over.message(),
                       " The release was waiting for the server's heavy "
                       "computations (max_heavy_releases); the charge "
                       "stands: retry with the same request_id to resume "
                       "it, with a longer deadline."));
    }
    changed_.WaitWithDeadline(&mu_,
                              std::min(call.deadline, absl::Now() + kCallPoll));
  }
  Account& account = accounts_[principal];
  ++account.running;
  ++account.granted;
  Leave(ticket);
  ++running_;
  metrics::ServerMetrics::Default().HeavyReleaseStarted();
  return Slot(this, principal);
}

void HeavyReleaseQueue::Release(const std::string& principal) {
  absl::MutexLock lock(&mu_);
  --running_;
  --accounts_[principal].running;
  EraseIfIdle(principal);
  metrics::ServerMetrics::Default().HeavyReleaseFinished();
  changed_.SignalAll();
}

int HeavyReleaseQueue::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

int HeavyReleaseQueue::queued() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(waiting_.size());
}

}  // namespace dpq::server::buyer
