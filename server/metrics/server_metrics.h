// The dpq_* series of a dpq-server (docs/operations.md, "Metrics" lists
// each with its labels and meaning) and the hooks that record them. One
// process-wide instance (Default()), like the process it describes; the
// hooks of the hot path (RPCs, ledger) record only once recording is
// enabled (--metrics-listen), so a server without metrics pays one relaxed
// load per call. The gauges of the graph-build queue, the refused datasets
// and the heavy-job limiter always record (a few atomic additions per
// build, refusal or heavy job), so that they balance whenever the
// listener starts.
//
// Privacy (docs/operations.md, "Metrics"): no series has a buyer label,
// and none counts anything computed from private rows; epsilon charged
// per dataset sums what buyers asked for, which the admin API already
// shows.
#ifndef DPQ_SERVER_METRICS_SERVER_METRICS_H_
#define DPQ_SERVER_METRICS_SERVER_METRICS_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "server/metrics/family.h"
#include "server/metrics/registry.h"

namespace dpq::server::metrics {

// The bounds of the latency histograms, in seconds: 0.5 ms to 60 s.
const std::vector<double>& LatencyBuckets();

class ServerMetrics {
 public:
  // A fresh set of the series with version `version` in dpq_build_info
  // and `start` as dpq_process_start_time_seconds (tests make their own).
  ServerMetrics(absl::string_view version, absl::Time start);

  // The process's series, with the build's version and the time of the
  // first call (made at server start) as the process start.
  static ServerMetrics& Default();

  // Turns on the hot-path hooks (RecordRpc, the ledger's). Once, before
  // serving.
  void EnableRecording() { enabled_.store(true, std::memory_order_relaxed); }
  bool recording() const { return enabled_.load(std::memory_order_relaxed); }

  // One finished RPC: `method` as the request log names it
  // ("BuyerService.GetBudget"), its final gRPC status code (0..16) and
  // latency. No-op unless recording.
  void RecordRpc(absl::string_view method, int code, absl::Duration latency);

  // One ledger operation ("reserve", "commit", "charge_without_answer",
  // "refund") on `store` ("sqlite", "postgresql"), successful or not.
  void RecordLedgerOperation(absl::string_view operation,
                             absl::string_view store, absl::Duration latency);
  // A new charge of `units` (10^-12 epsilon) on `dataset` (a fresh
  // reservation: replays and resumed retries charge nothing), and a
  // refund of one.
  void RecordEpsilonCharged(absl::string_view dataset, int64_t units);
  void RecordEpsilonRefunded(absl::string_view dataset, int64_t units);

  // The graph-build queue: a build queued, started, finished (or dropped
  // unstarted at shutdown).
  void GraphBuildQueued() { graph_builds_queued_.Add(1); }
  void GraphBuildStarted() {
    graph_builds_queued_.Add(-1);
    graph_builds_running_.Add(1);
  }
  void GraphBuildFinished() {
    graph_builds_running_.Add(-1);
    graph_builds_done_.Increment();
  }
  void GraphBuildDropped() { graph_builds_queued_.Add(-1); }

  // A dataset version this replica refuses (its conflict graph was not
  // rebuilt as registered recorded it), and one such version gone.
  void DatasetRefused() { datasets_refused_.Add(1); }
  void DatasetRefusalEnded() { datasets_refused_.Add(-1); }
  // Catalog versions this replica's cache cannot hold now (a full disk).
  void SetDatasetsUncached(int64_t n) { datasets_uncached_.Set(n); }

  // The heavy-job limiter: `slots` of capacity added (negative: removed
  // when a limiter goes), one slot taken or given back.
  void HeavyJobCapacity(int64_t slots) { heavy_job_capacity_.Add(slots); }
  void HeavyJobSlotTaken() { heavy_jobs_in_use_.Add(1); }
  void HeavyJobSlotReleased() { heavy_jobs_in_use_.Add(-1); }

  // The heavy-release queue (server/buyer/heavy_release_queue.h): `slots`
  // of capacity added (negative: removed), a release queued, leaving the
  // queue, started, finished.
  void HeavyReleaseCapacity(int64_t slots) {
    heavy_release_capacity_.Add(slots);
  }
  void HeavyReleaseQueued() { heavy_releases_queued_.Add(1); }
  void HeavyReleaseDequeued() { heavy_releases_queued_.Add(-1); }
  void HeavyReleaseStarted() { heavy_releases_running_.Add(1); }
  void HeavyReleaseFinished() { heavy_releases_running_.Add(-1); }

  // The scrape's text.
  std::string Render() const { return registry_.Render(); }

 private:
  std::atomic<bool> enabled_{false};
  Registry registry_;
  Family<Counter>& rpc_requests_;
  Family<Histogram>& rpc_duration_;
  Family<Histogram>& ledger_duration_;
  Family<Counter>& epsilon_charged_;
  Family<Counter>& epsilon_refunded_;
  Gauge& graph_builds_queued_;
  Gauge& graph_builds_running_;
  Counter& graph_builds_done_;
  Gauge& datasets_refused_;
  Gauge& datasets_uncached_;
  Gauge& heavy_jobs_in_use_;
  Gauge& heavy_job_capacity_;
  Gauge& heavy_releases_running_;
  Gauge& heavy_releases_queued_;
  Gauge& heavy_release_capacity_;
};

// The name of a gRPC status code ("OK", "RESOURCE_EXHAUSTED"); "UNKNOWN"
// outside 0..16.
const char* StatusCodeName(int code);

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_SERVER_METRICS_H_
