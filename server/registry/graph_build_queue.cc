#include "server/registry/graph_build_queue.h"

#include <utility>

#include "server/metrics/server_metrics.h"

namespace dpq::server::registry {

GraphBuildQueue::GraphBuildQueue(int workers) {
  if (workers < 1) workers = 1;
  threads_.reserve(static_cast<size_t>(workers));
  for (int i = 0; i < workers; ++i) {
    threads_.emplace_back([this] { WorkerLoop(); });
  }
}

GraphBuildQueue::~GraphBuildQueue() {
  std::deque<Job> dropped;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    dropped.swap(jobs_);
  }
  for (Job& job : dropped) {
    metrics::ServerMetrics::Default().GraphBuildDropped();
    if (job.on_drop) job.on_drop();
  }
  for (std::thread& t : threads_) t.join();
}

void GraphBuildQueue::Enqueue(std::function<void()> job,
                              std::function<void()> on_drop) {
  bool drop = false;
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) {
      drop = true;
    } else {
      jobs_.push_back({std::move(job), std::move(on_drop)});
      metrics::ServerMetrics::Default().GraphBuildQueued();
    }
  }
  if (drop && on_drop) on_drop();
}

void GraphBuildQueue::WaitIdle() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](GraphBuildQueue* q) ABSL_EXCLUSIVE_LOCKS_REQUIRED(q->mu_) {
        return q->jobs_.empty() && q->running_ == 0;
      },
      this));
}

void GraphBuildQueue::WorkerLoop() {
  while (true) {
    Job job;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](GraphBuildQueue* q) ABSL_EXCLUSIVE_LOCKS_REQUIRED(q->mu_) {
            return q->stopping_ || !q->jobs_.empty();
          },
          this));
      if (jobs_.empty()) return;  // stopping, nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
      metrics::ServerMetrics::Default().GraphBuildStarted();
    }
    job.run();
    absl::MutexLock lock(&mu_);
    metrics::ServerMetrics::Default().GraphBuildFinished();
    --running_;
  }
}

}  // namespace dpq::server::registry
