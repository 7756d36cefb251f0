// The metrics listener of the real dpq-server (docs/operations.md,
// "Metrics"): started with --metrics-listen 127.0.0.1:0, scraped over real
// HTTP after a few calls (an OK release and its replay, a refused one, an
// unauthenticated one), the text parsed and the series checked exactly;
// no buyer id in it; 404 and 405 for anything but GET /metrics.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "tests/integration/harness.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/testing/http_client.h"

namespace dpq::integration {
namespace {

using ::dpq::testing::HttpRequest;
using ::dpq::testing::HttpResponse;
using grpc::StatusCode;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

constexpr char kBuyer[] = "metrics-buyer-7f3a";

class MetricsTest : public ServerFixture {
 protected:
  void SetUp() override {
    absl::StatusOr<Certs> certs = MakeCerts(dir_.Sub("certs"));
    ASSERT_TRUE(certs.ok()) << certs.status();
    certs_ = *certs;
    ASSERT_NO_FATAL_FAILURE(StartWithMetrics());
  }

  void StartWithMetrics() {
    ASSERT_NO_FATAL_FAILURE(StartServer({"--metrics-listen", "127.0.0.1:0"}));
    absl::StatusOr<int> port = MetricsPort(*server_);
    ASSERT_TRUE(port.ok()) << port.status();
    port_ = *port;
  }

  HttpResponse Get(const std::string& path, const std::string& method = "GET") {
    absl::StatusOr<HttpResponse> response =
        HttpRequest("127.0.0.1", port_, method, path);
    EXPECT_TRUE(response.ok()) << response.status();
    return response.ok() ? *response : HttpResponse{};
  }

  Scrape ScrapeMetrics() { return ScrapeOf(port_); }

  int port_ = 0;
};

TEST_F(MetricsTest, CountsCallsLatencyEpsilonAndQueues) {
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  const std::string token = NewBuyer(kBuyer, "hospital", 1);
  ASSERT_FALSE(token.empty());

  v1::MeasureInconsistencyResponse first;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 0.75,
                               "metrics-1", &first),
              GrpcOk());
  v1::MeasureInconsistencyResponse replay;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 0.75,
                               "metrics-1", &replay),
              GrpcOk());
  ASSERT_TRUE(replay.replayed());
  v1::MeasureInconsistencyResponse refused;
  ASSERT_THAT(client_->Measure(token, "hospital", v1::MEASURE_MI, 0.5,
                               "metrics-2", &refused),
              GrpcIs(StatusCode::RESOURCE_EXHAUSTED, ::testing::_));
  EXPECT_FALSE(client_->Budget("not-a-token", "hospital").ok());

  const Scrape scrape = ScrapeMetrics();
  EXPECT_THAT(
      scrape.Family("dpq_rpc_requests_total"),
      ElementsAre(
          Pair("dpq_rpc_requests_total{method=\"AdminService.CreateBuyer\","
               "code=\"OK\"}",
               "1"),
          Pair("dpq_rpc_requests_total{method=\"AdminService.GrantBudget\","
               "code=\"OK\"}",
               "1"),
          Pair("dpq_rpc_requests_total{method=\"AdminService."
               "RegisterDataset\",code=\"OK\"}",
               "1"),
          Pair("dpq_rpc_requests_total{method=\"BuyerService.GetBudget\","
               "code=\"UNAUTHENTICATED\"}",
               "1"),
          Pair("dpq_rpc_requests_total{method=\"BuyerService."
               "MeasureInconsistency\",code=\"OK\"}",
               "2"),
          Pair("dpq_rpc_requests_total{method=\"BuyerService."
               "MeasureInconsistency\",code=\"RESOURCE_EXHAUSTED\"}",
               "1")))
      << scrape.text;
  EXPECT_EQ(scrape.types.at("dpq_rpc_requests_total"), "counter");
  EXPECT_EQ(scrape.types.at("dpq_rpc_duration_seconds"), "histogram");
  const std::string measure = "method=\"BuyerService.MeasureInconsistency\"";
  EXPECT_EQ(scrape["dpq_rpc_duration_seconds_count{" + measure + "}"], "3");
  EXPECT_EQ(
      scrape["dpq_rpc_duration_seconds_bucket{" + measure + ",le=\"+Inf\"}"],
      "3");
  EXPECT_EQ(scrape["dpq_rpc_duration_seconds_count{method=\"BuyerService."
                   "GetBudget\"}"],
            "1");

  // Only the first call charged: exactly 0.75, whatever a double sum says.
  EXPECT_DOUBLE_EQ(first.epsilon_charged(), 0.75);
  EXPECT_THAT(scrape.Family("dpq_epsilon_charged_total"),
              ElementsAre(Pair("dpq_epsilon_charged_total{dataset="
                               "\"hospital\"}",
                               "0.75")));
  EXPECT_THAT(scrape.Family("dpq_epsilon_refunded_total"), ElementsAre());
  EXPECT_EQ(scrape["dpq_ledger_commit_duration_seconds_count{operation="
                   "\"commit\",store=\"sqlite\"}"],
            "1");
  // The first call and its replay reach the ledger; the refusal may be
  // decided there too (then it is a third reservation attempt).
  int64_t reserves = 0;
  ASSERT_TRUE(absl::SimpleAtoi(
      scrape["dpq_ledger_commit_duration_seconds_count{operation=\"reserve\","
             "store=\"sqlite\"}"],
      &reserves))
      << scrape.text;
  EXPECT_GE(reserves, 2);
  EXPECT_LE(reserves, 3);

  // A registration builds its graph itself, not on the queue.
  EXPECT_EQ(scrape["dpq_graph_builds_completed_total"], "0");
  EXPECT_EQ(scrape["dpq_graph_builds_queued"], "0");
  EXPECT_EQ(scrape["dpq_graph_builds_running"], "0");
  EXPECT_EQ(scrape["dpq_heavy_job_slots_capacity"], "2");
  EXPECT_EQ(scrape["dpq_heavy_job_slots_in_use"], "0");
  EXPECT_EQ(scrape["dpq_build_info{version=\"0.1.0\"}"], "1");
  int64_t start = 0;
  ASSERT_TRUE(
      absl::SimpleAtoi(scrape["dpq_process_start_time_seconds"], &start));
  EXPECT_LE(start, absl::ToUnixSeconds(absl::Now()));
  EXPECT_GE(start, absl::ToUnixSeconds(absl::Now() - absl::Minutes(10)));

  // Nothing per buyer: neither the buyer's id nor its token.
  EXPECT_THAT(scrape.text, Not(HasSubstr(kBuyer)));
  EXPECT_THAT(scrape.text, Not(HasSubstr(token)));
  EXPECT_THAT(scrape.text, Not(HasSubstr("buyer=")));
}

// A restart rebuilds the dataset's conflict graph on the background queue;
// the counters start again from zero.
TEST_F(MetricsTest, CountsTheGraphBuildsOfAStart) {
  ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
  ASSERT_EQ(StopServer(), 0);
  ASSERT_NO_FATAL_FAILURE(StartWithMetrics());
  Scrape scrape;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  do {
    scrape = ScrapeMetrics();
    if (scrape["dpq_graph_builds_completed_total"] == "1") break;
    absl::SleepFor(absl::Milliseconds(50));
  } while (absl::Now() < deadline);
  EXPECT_EQ(scrape["dpq_graph_builds_completed_total"], "1") << scrape.text;
  EXPECT_EQ(scrape["dpq_graph_builds_queued"], "0");
  EXPECT_EQ(scrape["dpq_graph_builds_running"], "0");
  EXPECT_THAT(scrape.Family("dpq_rpc_requests_total"), ElementsAre());
}

TEST_F(MetricsTest, ServesNothingElse) {
  EXPECT_EQ(Get("/").status, 404);
  EXPECT_EQ(Get("/metrics/extra").status, 404);
  EXPECT_EQ(Get("/admin.token").status, 404);
  EXPECT_EQ(Get("/metrics", "POST").status, 405);
  EXPECT_EQ(Get("/metrics", "DELETE").status, 405);
  // The listener still answers afterwards.
  EXPECT_THAT(ScrapeMetrics().text, HasSubstr("dpq_build_info"));
}

// Idle connections (opened, nothing sent) each hold one of civetweb's
// threads until its request timeout: with 2 threads and a 10 s timeout,
// two of them kept every scrape waiting. Four are held open here while a
// scrape must answer at once.
TEST_F(MetricsTest, SlowConnectionsDoNotBlindScrapes) {
  std::vector<int> idle;
  for (int i = 0; i < 4; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(
        connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    ASSERT_EQ(send(fd, "GET /met", 8, 0), 8);  // a request never finished
    idle.push_back(fd);
  }
  absl::SleepFor(absl::Milliseconds(100));  // accepted, threads taken
  const absl::Time start = absl::Now();
  EXPECT_THAT(ScrapeMetrics().text, HasSubstr("dpq_build_info"));
  EXPECT_LT(absl::Now() - start, absl::Seconds(1));
  for (const int fd : idle) close(fd);
}

TEST_F(MetricsTest, NoListenerWithoutTheFlag) {
  ASSERT_EQ(StopServer(), 0);
  ASSERT_NO_FATAL_FAILURE(StartServer());
  EXPECT_THAT(server_->Log(), Not(HasSubstr("metrics on")));
  EXPECT_FALSE(HttpRequest("127.0.0.1", port_, "GET", "/metrics").ok());
}

}  // namespace
}  // namespace dpq::integration
