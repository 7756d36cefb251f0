#include "server/registry/polling_thread.h"

#include <functional>
#include <utility>

namespace dpq::server::registry {

PollingThread::PollingThread(absl::Duration interval,
                             std::function<void()> tick)
    : interval_(interval),
      tick_(std::move(tick)),
      thread_([this] { Loop(); }) {}

PollingThread::~PollingThread() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  thread_.join();
}

void PollingThread::Loop() {
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      // Wakes at once when the destructor sets stop_.
      mu_.AwaitWithTimeout(absl::Condition(&stop_), interval_);
      if (stop_) return;
    }
    tick_();
  }
}

}  // namespace dpq::server::registry
