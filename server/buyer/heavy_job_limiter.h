// Bounds how many heavy releases (decision-tree training, influential-node
// selection) run at once (design.md 6, "Limits: concurrent heavy jobs"),
// so that a few expensive requests cannot starve the cheap ones on a
// small machine.
#ifndef DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_
#define DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace dpq::server::buyer {

class HeavyJobLimiter {
 public:
  // Holds one slot until destroyed.
  class Slot {
   public:
    explicit Slot(HeavyJobLimiter* owner) : owner_(owner) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_) {
      other.owner_ = nullptr;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot();

   private:
    HeavyJobLimiter* owner_;
  };

  // `max_jobs` >= 1.
  explicit HeavyJobLimiter(int max_jobs)
      : max_jobs_(max_jobs < 1 ? 1 : max_jobs) {}

  // A slot, or kUnavailable (retryable) naming the limit when `max_jobs`
  // heavy jobs are running. Never waits: the caller has not reserved any
  // budget yet.
  absl::StatusOr<Slot> TryAcquire(const char* what) ABSL_LOCKS_EXCLUDED(mu_);

  int max_jobs() const { return max_jobs_; }
  int running() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Release() ABSL_LOCKS_EXCLUDED(mu_);

  const int max_jobs_;
  mutable absl::Mutex mu_;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_
