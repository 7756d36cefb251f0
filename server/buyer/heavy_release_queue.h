// Admission of the heavy computations of charged releases (docs/security.md,
// "Cost of a release"): the flow sweeps and covers of measures on datasets
// whose cost class, fixed at registration from the conflict graph's size
// (registry::ReleaseCost), is heavy. At most `max_running` of them run at
// once, server-wide; the others wait in a queue that is fair across
// buyers (round robin): a free slot goes to the waiting buyer who was
// granted the fewest slots (a buyer that arrives starts level with the
// least served one in the queue), the oldest waiter first among equals, so
// one buyer's burst of 32 calls cannot keep another buyer's release
// waiting behind all of it.
//
// The queue is entered after the release's reservation, so that its
// effects (waiting, and the time it takes) depend on the data only after
// the charge, like the computation's own time (docs/privacy.md, "What
// timing shows"). A call that ends while queued gets DEADLINE_EXCEEDED or
// CANCELLED; its charge stands and a retry with the same request_id
// resumes it.
#ifndef DPQ_SERVER_BUYER_HEAVY_RELEASE_QUEUE_H_
#define DPQ_SERVER_BUYER_HEAVY_RELEASE_QUEUE_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/buyer/principal_slot.h"
#include "server/call_context.h"

namespace dpq::server::buyer {

// Default of max_heavy_releases: one heavy computation at a time (each
// flow sweep of a large graph already uses two threads).
inline constexpr int kDefaultMaxHeavyReleases = 1;

class HeavyReleaseQueue {
 public:
  // Holds one slot until destroyed (or moved from).
  using Slot = PrincipalSlot<HeavyReleaseQueue>;

  // `max_running` >= 1 (clamped; server::BuildAndStart refuses values
  // outside [1, 64] first). Its slots and queue count in
  // dpq_heavy_releases_running / _queued / _capacity.
  explicit HeavyReleaseQueue(int max_running);
  ~HeavyReleaseQueue();
  HeavyReleaseQueue(const HeavyReleaseQueue&) = delete;
  HeavyReleaseQueue& operator=(const HeavyReleaseQueue&) = delete;

  // Waits for a slot for `principal` (the order above), polling `call`.
  // kDeadlineExceeded / kCancelled, saying that the charge stands, once
  // the call is over first.
  absl::StatusOr<Slot> Acquire(const std::string& principal,
                               const CallContext& call)
      ABSL_LOCKS_EXCLUDED(mu_);

  int max_running() const { return max_running_; }
  int running() const ABSL_LOCKS_EXCLUDED(mu_);
  int queued() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class PrincipalSlot<HeavyReleaseQueue>;
  // A principal with releases queued or running (erased when it has
  // neither, so the map is as small as the calls in the queue).
  struct Account {
    int waiting = 0;
    int running = 0;
    uint64_t granted = 0;  // slots granted while the entry lived
  };

  // True if the waiter with `ticket` is the one the next free slot goes to.
  bool IsNext(uint64_t ticket) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Removes the waiter with `ticket` from the queue.
  void Leave(uint64_t ticket) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void EraseIfIdle(const std::string& principal)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Release(const std::string& principal) ABSL_LOCKS_EXCLUDED(mu_);

  const int max_running_;
  mutable absl::Mutex mu_;
  absl::CondVar changed_;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t next_ticket_ ABSL_GUARDED_BY(mu_) = 0;
  // Waiting callers: ticket (arrival order) -> principal.
  absl::flat_hash_map<uint64_t, std::string> waiting_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Account> accounts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_HEAVY_RELEASE_QUEUE_H_
