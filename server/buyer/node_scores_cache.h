// A small LRU cache of influential-node selection scores
// (core::selection::PrepareInfluentialNodeScores), shared by the
// SelectInfluentialNodes calls of one BuyerServiceImpl (its member, like
// its heavy-job limiter).
//
// Why it is safe: the scores are a deterministic function of the graph and
// of (objectives, approach, sensitivity, weights); neither epsilon nor k
// enters. Every call still makes its own DP draws from them, charged in
// full, so serving the scores from memory changes no distribution and
// releases nothing: it only saves the computation (local PrivPareto takes
// 20+ s on a 37k-node graph, docs/selection-experiments.md).
#ifndef DPQ_SERVER_BUYER_NODE_SCORES_CACHE_H_
#define DPQ_SERVER_BUYER_NODE_SCORES_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/util/stop.h"

namespace dpq::server::buyer {

class NodeScoresCache {
 public:
  using Scores = std::shared_ptr<const core::selection::NodeSelectionScores>;
  static constexpr size_t kDefaultCapacity = 8;

  explicit NodeScoresCache(size_t capacity = kDefaultCapacity);
  NodeScoresCache(const NodeScoresCache&) = delete;
  NodeScoresCache& operator=(const NodeScoresCache&) = delete;

  // The scores under `key`, computing them with `compute` on a miss.
  // `owner` is the object the scores are computed from (the loaded
  // dataset): an entry whose owner is gone or is another object is a miss,
  // so a replaced dataset or a second registry in the same process never
  // sees stale scores even if the key repeats. Concurrent calls with the
  // same key and owner compute once: the others wait for that result, up
  // to `deadline` (then kDeadlineExceeded; the computation goes on and is
  // cached) or until `stop` says their own caller left (polled every
  // kStopPollInterval while waiting; then util::StoppedError), so that a
  // waiter gives its heavy-job slot back as soon as its call is over.
  // Failed computations are passed to the waiters, not cached, except a
  // stopped one (kCancelled: its caller left), after which a waiter
  // computes the scores itself.
  absl::StatusOr<Scores> GetOrCompute(
      const std::string& key, const std::shared_ptr<const void>& owner,
      absl::Time deadline, absl::FunctionRef<absl::StatusOr<Scores>()> compute,
      const core::util::StopFn& stop = nullptr);

  static constexpr absl::Duration kStopPollInterval = absl::Milliseconds(50);

  // How many times `compute` has run (for tests and monitoring).
  uint64_t computations() const;
  // Entries held (at most the capacity), computed or in flight.
  size_t size() const;

 private:
  struct Entry {
    std::weak_ptr<const void> owner;
    bool done = false;
    absl::Status status;  // of a finished computation
    Scores scores;        // set iff done and status.ok()
  };
  using Lru = std::list<std::pair<std::string, std::shared_ptr<Entry>>>;

  // The live entry for (key, owner), moved to the front; nullptr if none
  // (a stale entry for the key is dropped).
  std::shared_ptr<Entry> FindLocked(const std::string& key,
                                    const std::shared_ptr<const void>& owner)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EraseLocked(const std::string& key, const Entry* entry)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Scores> AwaitLocked(const std::shared_ptr<Entry>& entry,
                                     absl::Time deadline,
                                     const core::util::StopFn& stop)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t capacity_;
  mutable absl::Mutex mu_;
  Lru lru_ ABSL_GUARDED_BY(mu_);  // front = most recently used
  absl::flat_hash_map<std::string, Lru::iterator> index_ ABSL_GUARDED_BY(mu_);
  uint64_t computations_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_NODE_SCORES_CACHE_H_
