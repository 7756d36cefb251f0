#include "server/buyer/heavy_job_limiter.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"
#include "server/metrics/server_metrics.h"

namespace dpq::server::buyer {

int DefaultMaxHeavyJobsPerBuyer(int max_jobs) {
  return std::max(1, max_jobs / 2);
}

HeavyJobLimiter::HeavyJobLimiter(int max_jobs, int max_jobs_per_principal)
    : max_jobs_(std::max(1, max_jobs)),
      max_jobs_per_principal_(std::clamp(
          max_jobs_per_principal == 0 ? DefaultMaxHeavyJobsPerBuyer(max_jobs_)
                                      : max_jobs_per_principal,
          1, max_jobs_)) {
  metrics::ServerMetrics::Default().HeavyJobCapacity(max_jobs_);
}

HeavyJobLimiter::~HeavyJobLimiter() {
  metrics::ServerMetrics::Default().HeavyJobCapacity(-max_jobs_);
}

namespace {

// kUnavailable with the reason HEAVY_JOBS_BUSY, the limit that refused
// (public configuration) and a RetryInfo (docs/errors.md).
absl::Status BusyError(std::string message, const char* limit, int value) {
  core::util::ErrorDetails d;
  d.reason = core::util::kReasonHeavyJobsBusy;
  d.metadata["limit"] = limit;
  d.metadata["limit_value"] = absl::StrCat(value);
  d.retry_delay_ms = kHeavyJobsRetryDelayMs;
  return core::util::WithErrorDetails(absl::UnavailableError(message), d);
}

}  // namespace

absl::StatusOr<HeavyJobLimiter::Slot> HeavyJobLimiter::TryAcquire(
    const char* what, const std::string& principal) {
  absl::MutexLock lock(&mu_);
  // The caller's own limit first: its refusal depends on the caller's own
  // running calls and the public configuration only.
  const auto own = per_principal_.find(principal);
  if (own != per_principal_.end() && own->second >= max_jobs_per_principal_) {
    return BusyError(
        absl::StrCat("You are already running ", own->second,
                     " heavy job(s), the limit per buyer "
                     "(max_heavy_jobs_per_buyer); ",
                     what,
                     " was not started and nothing was charged. Retry when "
                     "one of them has finished."),
        "max_heavy_jobs_per_buyer", max_jobs_per_principal_);
  }
  if (running_ >= max_jobs_) {
    return BusyError(
        absl::StrCat("The server is already running ", running_,
                     " heavy job(s), its limit (max_heavy_jobs); ", what,
                     " was not started and nothing was charged. Retry in a "
                     "moment."),
        "max_heavy_jobs", max_jobs_);
  }
  ++running_;
  ++per_principal_[principal];
  metrics::ServerMetrics::Default().HeavyJobSlotTaken();
  return Slot(this, principal);
}

int HeavyJobLimiter::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

int HeavyJobLimiter::running(const std::string& principal) const {
  absl::MutexLock lock(&mu_);
  const auto it = per_principal_.find(principal);
  return it == per_principal_.end() ? 0 : it->second;
}

void HeavyJobLimiter::Release(const std::string& principal) {
  absl::MutexLock lock(&mu_);
  --running_;
  metrics::ServerMetrics::Default().HeavyJobSlotReleased();
  const auto it = per_principal_.find(principal);
  if (it != per_principal_.end() && --it->second <= 0) {
    per_principal_.erase(it);
  }
}

}  // namespace dpq::server::buyer
