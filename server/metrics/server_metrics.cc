#include "server/metrics/server_metrics.h"

#include <string>
#include <vector>

#include "absl/time/clock.h"

#ifndef DPQ_VERSION
#define DPQ_VERSION "unknown"
#endif

namespace dpq::server::metrics {
namespace {

// Nanoseconds: the unit of the duration histograms (rendered in seconds).
constexpr int kNanoDecimals = 9;
// Units of 10^-12 epsilon (core/ledger/epsilon_units.h).
constexpr int kEpsilonDecimals = 12;

int64_t Nanos(absl::Duration d) { return absl::ToInt64Nanoseconds(d); }

}  // namespace

const std::vector<double>& LatencyBuckets() {
  static const std::vector<double>* const kBuckets = new std::vector<double>{
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
      0.25,   0.5,   1,      2.5,   5,    10,    30,   60};
  return *kBuckets;
}

const char* StatusCodeName(int code) {
  static constexpr const char* kNames[] = {"OK",
                                           "CANCELLED",
                                           "UNKNOWN",
                                           "INVALID_ARGUMENT",
                                           "DEADLINE_EXCEEDED",
                                           "NOT_FOUND",
                                           "ALREADY_EXISTS",
                                           "PERMISSION_DENIED",
                                           "RESOURCE_EXHAUSTED",
                                           "FAILED_PRECONDITION",
                                           "ABORTED",
                                           "OUT_OF_RANGE",
                                           "UNIMPLEMENTED",
                                           "INTERNAL",
                                           "UNAVAILABLE",
                                           "DATA_LOSS",
                                           "UNAUTHENTICATED"};
  return code >= 0 && code <= 16 ? kNames[code] : "UNKNOWN";
}

ServerMetrics::ServerMetrics(absl::string_view version, absl::Time start)
    : rpc_requests_(registry_.AddCounter(
          "dpq_rpc_requests_total",
          "RPCs finished, by method and final gRPC status code.",
          {"method", "code"})),
      rpc_duration_(registry_.AddHistogram(
          "dpq_rpc_duration_seconds",
          "Latency of RPCs in the server (authentication to final status), "
          "by method.",
          {"method"}, LatencyBuckets(), kNanoDecimals)),
      ledger_duration_(registry_.AddHistogram(
          "dpq_ledger_commit_duration_seconds",
          "Latency of the ledger's durable transactions, by operation "
          "(reserve, commit, charge_without_answer, refund) and store "
          "(sqlite, postgresql).",
          {"operation", "store"}, LatencyBuckets(), kNanoDecimals)),
      epsilon_charged_(registry_.AddCounter(
          "dpq_epsilon_charged_total",
          "Epsilon charged by new reservations, over all buyers, by dataset "
          "(exact: whole units of 1e-12). Replays charge nothing.",
          {"dataset"}, kEpsilonDecimals)),
      epsilon_refunded_(registry_.AddCounter(
          "dpq_epsilon_refunded_total",
          "Epsilon returned by refunds (the ledger could not record an "
          "answer), over all buyers, by dataset.",
          {"dataset"}, kEpsilonDecimals)),
      graph_builds_queued_(registry_
                               .AddGauge("dpq_graph_builds_queued",
                                         "Conflict-graph builds waiting for "
                                         "a worker.",
                                         {})
                               .With({})),
      graph_builds_running_(registry_
                                .AddGauge("dpq_graph_builds_running",
                                          "Conflict-graph builds running now.",
                                          {})
                                .With({})),
      graph_builds_done_(
          registry_
              .AddCounter("dpq_graph_builds_completed_total",
                          "Conflict-graph builds finished (built or failed).",
                          {})
              .With({})),
      datasets_refused_(
          registry_
              .AddGauge("dpq_datasets_refused",
                        "Dataset versions this replica refuses to serve: "
                        "their conflict graph could not be rebuilt, or not "
                        "with the bounds registration recorded.",
                        {})
              .With({})),
      datasets_uncached_(
          registry_
              .AddGauge("dpq_datasets_uncached",
                        "Catalog dataset versions this replica's cache "
                        "cannot hold now (a full disk); retried every poll.",
                        {})
              .With({})),
      heavy_jobs_in_use_(registry_
                             .AddGauge("dpq_heavy_job_slots_in_use",
                                       "Heavy jobs (TrainDecisionTree, "
                                       "SelectInfluentialNodes) running now.",
                                       {})
                             .With({})),
      heavy_job_capacity_(
          registry_
              .AddGauge("dpq_heavy_job_slots_capacity",
                        "Heavy jobs that may run at once (max_heavy_jobs).", {})
              .With({})),
      heavy_releases_running_(
          registry_
              .AddGauge("dpq_heavy_releases_running",
                        "Computations of releases on heavy datasets running "
                        "now (after their charge).",
                        {})
              .With({})),
      heavy_releases_queued_(
          registry_
              .AddGauge("dpq_heavy_releases_queued",
                        "Charged releases on heavy datasets waiting for a "
                        "slot (max_heavy_releases).",
                        {})
              .With({})),
      heavy_release_capacity_(
          registry_
              .AddGauge("dpq_heavy_releases_capacity",
                        "Heavy release computations that may run at once "
                        "(max_heavy_releases).",
                        {})
              .With({})) {
  registry_
      .AddGauge("dpq_build_info", "Always 1; the label is dpq's version.",
                {"version"})
      .With({version})
      .Set(1);
  registry_
      .AddGauge("dpq_process_start_time_seconds",
                "When the server started, in seconds since the Unix epoch.", {})
      .With({})
      .Set(absl::ToUnixSeconds(start));
}

ServerMetrics& ServerMetrics::Default() {
  static ServerMetrics* const kDefault =
      new ServerMetrics(DPQ_VERSION, absl::Now());
  return *kDefault;
}

void ServerMetrics::RecordRpc(absl::string_view method, int code,
                              absl::Duration latency) {
  if (!recording()) return;
  rpc_requests_.With({method, StatusCodeName(code)}).Increment();
  rpc_duration_.With({method}).Observe(Nanos(latency));
}

void ServerMetrics::RecordLedgerOperation(absl::string_view operation,
                                          absl::string_view store,
                                          absl::Duration latency) {
  ledger_duration_.With({operation, store}).Observe(Nanos(latency));
}

void ServerMetrics::RecordEpsilonCharged(absl::string_view dataset,
                                         int64_t units) {
  epsilon_charged_.With({dataset}).Increment(units);
}

void ServerMetrics::RecordEpsilonRefunded(absl::string_view dataset,
                                          int64_t units) {
  epsilon_refunded_.With({dataset}).Increment(units);
}

}  // namespace dpq::server::metrics
