#include "server/buyer/heavy_job_limiter.h"

#include "absl/strings/str_cat.h"

namespace dpq::server::buyer {

HeavyJobLimiter::Slot::~Slot() {
  if (owner_ != nullptr) owner_->Release();
}

absl::StatusOr<HeavyJobLimiter::Slot> HeavyJobLimiter::TryAcquire(
    const char* what) {
  absl::MutexLock lock(&mu_);
  if (running_ >= max_jobs_) {
    return absl::UnavailableError(absl::StrCat(
        "The server is already running ", running_,
        " heavy job(s), its limit (max_heavy_jobs); ", what,
        " was not started and nothing was charged. Retry in a moment."));
  }
  ++running_;
  return Slot(this);
}

int HeavyJobLimiter::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

void HeavyJobLimiter::Release() {
  absl::MutexLock lock(&mu_);
  --running_;
}

}  // namespace dpq::server::buyer
