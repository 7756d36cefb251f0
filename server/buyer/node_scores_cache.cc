// NodeScoresCache (node_scores_cache.h).
#include "server/buyer/node_scores_cache.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/time/clock.h"

namespace dpq::server::buyer {

NodeScoresCache::NodeScoresCache(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)) {}

std::shared_ptr<NodeScoresCache::Entry> NodeScoresCache::FindLocked(
    const std::string& key, const std::shared_ptr<const void>& owner) {
  const auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  const std::shared_ptr<Entry> entry = it->second->second;
  // lock() succeeds only while the owner is alive, so an equal address is
  // the same object (never a new one at a reused address).
  if (entry->owner.lock() != owner) {
    EraseLocked(key, entry.get());
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return entry;
}

void NodeScoresCache::EraseLocked(const std::string& key, const Entry* entry) {
  const auto it = index_.find(key);
  // The key may meanwhile hold a newer entry: leave that one alone.
  if (it == index_.end() || it->second->second.get() != entry) return;
  lru_.erase(it->second);
  index_.erase(it);
}

absl::StatusOr<NodeScoresCache::Scores> NodeScoresCache::AwaitLocked(
    const std::shared_ptr<Entry>& entry, absl::Time deadline,
    const core::util::StopFn& stop) {
  const Entry* e = entry.get();
  const absl::Condition finished(
      +[](const Entry* x) { return x->done; }, e);
  bool done = false;
  // In slices, so that a waiter whose caller cancelled does not wait for
  // another call's computation.
  for (;;) {
    const absl::Time slice =
        stop ? std::min(deadline, absl::Now() + kStopPollInterval) : deadline;
    done = mu_.AwaitWithDeadline(finished, slice);
    if (done || slice >= deadline) break;
    if (core::util::StopRequested(stop)) return core::util::StoppedError();
  }
  if (!done) {
    return absl::DeadlineExceededError(
        "The call's deadline passed while the selection scores were being "
        "computed by another call (they are cached once computed).");
  }
  if (!e->status.ok()) return e->status;
  return e->scores;
}

absl::StatusOr<NodeScoresCache::Scores> NodeScoresCache::GetOrCompute(
    const std::string& key, const std::shared_ptr<const void>& owner,
    absl::Time deadline, absl::FunctionRef<absl::StatusOr<Scores>()> compute,
    const core::util::StopFn& stop) {
  for (;;) {
    std::shared_ptr<Entry> entry;
    {
      absl::MutexLock lock(&mu_);
      if (std::shared_ptr<Entry> found = FindLocked(key, owner)) {
        absl::StatusOr<Scores> awaited = AwaitLocked(found, deadline, stop);
        // The computing call was stopped (its caller left): this one
        // computes the scores itself.
        if (awaited.status().code() == absl::StatusCode::kCancelled &&
            found->done) {
          continue;
        }
        return awaited;
      }
      entry = std::make_shared<Entry>();
      entry->owner = owner;
      lru_.emplace_front(key, entry);
      index_[key] = lru_.begin();
      // Evicting an entry still in flight only drops it from the cache: its
      // computing call and waiters hold it.
      while (lru_.size() > capacity_) {
        index_.erase(lru_.back().first);
        lru_.pop_back();
      }
    }
    // Computed without the lock: other keys stay served meanwhile.
    absl::StatusOr<Scores> result = compute();
    absl::MutexLock lock(&mu_);
    ++computations_;
    entry->done = true;
    if (result.ok()) {
      entry->scores = *result;
    } else {
      entry->status = result.status();
      EraseLocked(key, entry.get());
    }
    return result;
  }
}

uint64_t NodeScoresCache::computations() const {
  absl::MutexLock lock(&mu_);
  return computations_;
}

size_t NodeScoresCache::size() const {
  absl::MutexLock lock(&mu_);
  return lru_.size();
}

}  // namespace dpq::server::buyer
