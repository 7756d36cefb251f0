#include "server/metrics/server_metrics.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::server::metrics {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ServerMetrics Fresh() {
  return ServerMetrics("1.2.3", absl::FromUnixSeconds(1'700'000'000));
}

TEST(ServerMetricsTest, RecordsRpcsOnlyOnceEnabled) {
  ServerMetrics metrics = Fresh();
  metrics.RecordRpc("BuyerService.GetBudget", 0, absl::Milliseconds(2));
  EXPECT_THAT(metrics.Render(), Not(HasSubstr("GetBudget")));
  metrics.EnableRecording();
  metrics.RecordRpc("BuyerService.GetBudget", 0, absl::Milliseconds(2));
  metrics.RecordRpc("BuyerService.GetBudget", 16, absl::Milliseconds(1));
  metrics.RecordRpc("BuyerService.GetBudget", 99, absl::Milliseconds(1));
  const std::string text = metrics.Render();
  EXPECT_THAT(text, HasSubstr("dpq_rpc_requests_total{method=\"BuyerService."
                              "GetBudget\",code=\"OK\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_rpc_requests_total{method=\"BuyerService."
                              "GetBudget\",code=\"UNAUTHENTICATED\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_rpc_requests_total{method=\"BuyerService."
                              "GetBudget\",code=\"UNKNOWN\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_rpc_duration_seconds_bucket{method="
                              "\"BuyerService.GetBudget\",le=\"0.001\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("dpq_rpc_duration_seconds_sum{method="
                              "\"BuyerService.GetBudget\"} 0.004\n"));
  EXPECT_THAT(text, HasSubstr("dpq_rpc_duration_seconds_count{method="
                              "\"BuyerService.GetBudget\"} 3\n"));
}

TEST(ServerMetricsTest, BuildInfoAndStartTime) {
  const std::string text = Fresh().Render();
  EXPECT_THAT(text, HasSubstr("dpq_build_info{version=\"1.2.3\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_process_start_time_seconds 1700000000\n"));
}

TEST(ServerMetricsTest, QueueAndHeavyJobGaugesBalance) {
  ServerMetrics metrics = Fresh();
  metrics.GraphBuildQueued();
  metrics.GraphBuildQueued();
  metrics.GraphBuildQueued();
  metrics.GraphBuildStarted();
  metrics.GraphBuildDropped();
  metrics.HeavyJobCapacity(4);
  metrics.HeavyJobSlotTaken();
  metrics.HeavyJobSlotTaken();
  metrics.HeavyJobSlotReleased();
  std::string text = metrics.Render();
  EXPECT_THAT(text, HasSubstr("dpq_graph_builds_queued 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_graph_builds_running 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_graph_builds_completed_total 0\n"));
  EXPECT_THAT(text, HasSubstr("dpq_heavy_job_slots_capacity 4\n"));
  EXPECT_THAT(text, HasSubstr("dpq_heavy_job_slots_in_use 1\n"));
  metrics.GraphBuildFinished();
  metrics.HeavyJobCapacity(-4);
  text = metrics.Render();
  EXPECT_THAT(text, HasSubstr("dpq_graph_builds_running 0\n"));
  EXPECT_THAT(text, HasSubstr("dpq_graph_builds_completed_total 1\n"));
  EXPECT_THAT(text, HasSubstr("dpq_heavy_job_slots_capacity 0\n"));
}

// The operator's signal for versions refused at load.
TEST(ServerMetricsTest, RefusedDatasetsGaugeCountsWhileTheyLive) {
  ServerMetrics metrics = Fresh();
  EXPECT_THAT(metrics.Render(), HasSubstr("dpq_datasets_refused 0\n"));
  metrics.DatasetRefused();
  metrics.DatasetRefused();
  metrics.DatasetRefusalEnded();
  EXPECT_THAT(metrics.Render(), HasSubstr("dpq_datasets_refused 1\n"));
}

TEST(ServerMetricsTest, EpsilonIsExactPerDataset) {
  ServerMetrics metrics = Fresh();
  // 20 x 0.1 + 0.9 + 0.5 in units: a double sum would not be exact.
  for (int i = 0; i < 20; ++i)
    metrics.RecordEpsilonCharged("h", 100'000'000'000);
  metrics.RecordEpsilonCharged("h", 900'000'000'000);
  metrics.RecordEpsilonCharged("h", 500'000'000'000);
  metrics.RecordEpsilonCharged("g", 1);
  metrics.RecordEpsilonRefunded("h", 500'000'000'000);
  const std::string text = metrics.Render();
  EXPECT_THAT(text, HasSubstr("dpq_epsilon_charged_total{dataset=\"g\"} "
                              "0.000000000001\n"));
  EXPECT_THAT(text,
              HasSubstr("dpq_epsilon_charged_total{dataset=\"h\"} 3.4\n"));
  EXPECT_THAT(text,
              HasSubstr("dpq_epsilon_refunded_total{dataset=\"h\"} 0.5\n"));
}

// No series may be split by buyer (docs/operations.md, "Metrics").
TEST(ServerMetricsTest, NoSeriesHasABuyerLabel) {
  ServerMetrics metrics = Fresh();
  metrics.EnableRecording();
  metrics.RecordRpc("m", 0, absl::ZeroDuration());
  metrics.RecordLedgerOperation("reserve", "sqlite", absl::ZeroDuration());
  metrics.RecordEpsilonCharged("d", 1);
  EXPECT_THAT(metrics.Render(), Not(HasSubstr("buyer=")));
  EXPECT_THAT(metrics.Render(), Not(HasSubstr("principal=")));
}

TEST(ServerMetricsTest, StatusCodeNames) {
  EXPECT_STREQ(StatusCodeName(0), "OK");
  EXPECT_STREQ(StatusCodeName(8), "RESOURCE_EXHAUSTED");
  EXPECT_STREQ(StatusCodeName(16), "UNAUTHENTICATED");
  EXPECT_STREQ(StatusCodeName(-1), "UNKNOWN");
  EXPECT_STREQ(StatusCodeName(17), "UNKNOWN");
}

}  // namespace
}  // namespace dpq::server::metrics
