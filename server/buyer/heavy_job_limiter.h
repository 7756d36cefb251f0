// Bounds how many heavy releases (decision-tree training, influential-node
// selection) run at once (docs/architecture.md 6; docs/security.md, item 2),
// so that a few expensive requests cannot starve the cheap ones on a
// small machine, and how many of them one principal may run at once, so
// that one buyer cannot hold every slot and lock the others out.
#ifndef DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_
#define DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "server/buyer/principal_slot.h"

namespace dpq::server::buyer {

// Heavy jobs one principal may run at once when the configuration does
// not say (max_heavy_jobs_per_buyer = 0): half the slots, at least one. With
// the default max_heavy_jobs = 2 that is 1, so a buyer always leaves a
// slot to the others; with more slots a buyer may run several trees at
// once but never more than half, so another buyer can still start one
// (only several buyers together can fill the server, and every buyer is
// an account the admin created).
int DefaultMaxHeavyJobsPerBuyer(int max_jobs);

// RetryInfo of a refusal (HEAVY_JOBS_BUSY, docs/errors.md): heavy jobs take
// seconds, so a retry sooner would mostly be refused again.
inline constexpr int64_t kHeavyJobsRetryDelayMs = 5000;

class HeavyJobLimiter {
 public:
  // Holds one slot until destroyed (or moved from).
  using Slot = PrincipalSlot<HeavyJobLimiter>;

  // `max_jobs` >= 1 in all; `max_jobs_per_principal` in [1, max_jobs] for
  // one principal (0: DefaultMaxHeavyJobsPerBuyer(max_jobs)). Values out of
  // range are clamped (server::BuildAndStart refuses them first).
  // Its slots count in dpq_heavy_job_slots_capacity and, while taken, in
  // dpq_heavy_job_slots_in_use (server/metrics/server_metrics.h) until it
  // is destroyed.
  explicit HeavyJobLimiter(int max_jobs, int max_jobs_per_principal = 0);
  ~HeavyJobLimiter();
  HeavyJobLimiter(const HeavyJobLimiter&) = delete;
  HeavyJobLimiter& operator=(const HeavyJobLimiter&) = delete;

  // A slot for `principal`, or kUnavailable (retryable; reason
  // HEAVY_JOBS_BUSY, RetryInfo) naming the limit:
  // first when `principal` already runs max_jobs_per_principal heavy jobs
  // (which depends on its own calls only), then when max_jobs heavy jobs
  // run in all. Never waits: the caller has not reserved any budget yet,
  // and the message says nothing was charged.
  absl::StatusOr<Slot> TryAcquire(const char* what,
                                  const std::string& principal)
      ABSL_LOCKS_EXCLUDED(mu_);

  int max_jobs() const { return max_jobs_; }
  int max_jobs_per_principal() const { return max_jobs_per_principal_; }
  int running() const ABSL_LOCKS_EXCLUDED(mu_);
  // Heavy jobs `principal` runs now.
  int running(const std::string& principal) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  friend class PrincipalSlot<HeavyJobLimiter>;
  void Release(const std::string& principal) ABSL_LOCKS_EXCLUDED(mu_);

  const int max_jobs_;
  const int max_jobs_per_principal_;
  mutable absl::Mutex mu_;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  // Principals with at least one running job (entries at 0 are erased, so
  // the map stays as small as the number of running jobs).
  absl::flat_hash_map<std::string, int> per_principal_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_HEAVY_JOB_LIMITER_H_
