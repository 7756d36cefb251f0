// A small, bounded pool of background workers that build conflict graphs
// (docs/service.md, "Conflict graphs are built at registration"):
// Register/Replace and server start enqueue a build and return;
// at most `workers` builds run at once (each build is itself
// multi-threaded, so one or two workers keep the machine's cores busy
// without starving the request handlers). Its jobs count in the
// dpq_graph_builds_* series (server/metrics/server_metrics.h).
#ifndef DPQ_SERVER_REGISTRY_GRAPH_BUILD_QUEUE_H_
#define DPQ_SERVER_REGISTRY_GRAPH_BUILD_QUEUE_H_

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace dpq::server::registry {

class GraphBuildQueue {
 public:
  // Starts `workers` (>= 1) threads.
  explicit GraphBuildQueue(int workers);
  // Drops the jobs not yet started (after running `on_drop` of each, see
  // Enqueue), lets running jobs finish, and joins the threads.
  ~GraphBuildQueue();
  GraphBuildQueue(const GraphBuildQueue&) = delete;
  GraphBuildQueue& operator=(const GraphBuildQueue&) = delete;

  // Runs `job` on a worker, FIFO. If the queue is destroyed before the job
  // starts, `on_drop` runs instead (on the destroying thread).
  void Enqueue(std::function<void()> job, std::function<void()> on_drop)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Blocks until no job is queued or running (tests, tools).
  void WaitIdle() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Job {
    std::function<void()> run;
    std::function<void()> on_drop;
  };
  void WorkerLoop() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Mutex mu_;
  std::deque<Job> jobs_ ABSL_GUARDED_BY(mu_);
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_GRAPH_BUILD_QUEUE_H_
