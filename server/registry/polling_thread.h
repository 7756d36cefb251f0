// A thread that runs one function periodically until it is destroyed: the
// dataset registry's poll of the shared catalog (dataset_registry.h).
#ifndef DPQ_SERVER_REGISTRY_POLLING_THREAD_H_
#define DPQ_SERVER_REGISTRY_POLLING_THREAD_H_

#include <functional>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace dpq::server::registry {

class PollingThread {
 public:
  // Starts the thread: it waits `interval` (> 0), runs `tick`, and again,
  // until the destructor. `tick` must not throw; it runs on that thread
  // only, never twice at once.
  PollingThread(absl::Duration interval, std::function<void()> tick);
  // Stops the thread: a tick in progress finishes first; no tick starts
  // afterwards.
  ~PollingThread();
  PollingThread(const PollingThread&) = delete;
  PollingThread& operator=(const PollingThread&) = delete;

 private:
  void Loop() ABSL_LOCKS_EXCLUDED(mu_);

  const absl::Duration interval_;
  const std::function<void()> tick_;
  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_POLLING_THREAD_H_
