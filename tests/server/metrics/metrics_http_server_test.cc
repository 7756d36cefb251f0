#include "server/metrics/metrics_http_server.h"

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/http_client.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::metrics {
namespace {

using ::dpq::testing::HttpRequest;
using ::dpq::testing::HttpResponse;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

class MetricsHttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<MetricsHttpServer>> server =
        MetricsHttpServer::Start("127.0.0.1:0", [this] {
          ++scrapes_;
          return std::string("# TYPE x counter\nx 1\n");
        });
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    ASSERT_GT(server_->port(), 0);
  }

  HttpResponse Request(const std::string& method, const std::string& path) {
    absl::StatusOr<HttpResponse> response =
        HttpRequest("127.0.0.1", server_->port(), method, path);
    EXPECT_TRUE(response.ok()) << response.status();
    return response.ok() ? *response : HttpResponse{};
  }

  std::atomic<int> scrapes_{0};
  std::unique_ptr<MetricsHttpServer> server_;
};

TEST_F(MetricsHttpServerTest, ServesTheTextFormatOnGetMetrics) {
  const HttpResponse response = Request("GET", "/metrics");
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.headers.at("content-type"), "text/plain; version=0.0.4");
  EXPECT_EQ(response.headers.at("content-length"), "21");
  EXPECT_EQ(response.body, "# TYPE x counter\nx 1\n");
  EXPECT_EQ(scrapes_.load(), 1);
}

TEST_F(MetricsHttpServerTest, OtherPathsAreNotFound) {
  for (const char* path : {"/", "/metrics/", "/metricsx", "/index.html",
                           "/../etc/passwd", "/metrics/../metrics2"}) {
    EXPECT_EQ(Request("GET", path).status, 404) << path;
  }
  EXPECT_EQ(scrapes_.load(), 0);
}

TEST_F(MetricsHttpServerTest, OtherMethodsAreNotAllowed) {
  for (const char* method : {"POST", "PUT", "DELETE", "HEAD"}) {
    HttpResponse response = Request(method, "/metrics");
    EXPECT_EQ(response.status, 405) << method;
    EXPECT_EQ(response.headers["allow"], "GET") << method;
  }
  EXPECT_EQ(scrapes_.load(), 0);
}

TEST(MetricsHttpServerStartTest, RefusesBadAddressesAndBusyPorts) {
  EXPECT_THAT(MetricsHttpServer::Start("nonsense", [] { return ""; }),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("metrics_listen")));
  EXPECT_THAT(MetricsHttpServer::Start("127.0.0.1:70000", [] { return ""; }),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("70000")));
  absl::StatusOr<std::unique_ptr<MetricsHttpServer>> first =
      MetricsHttpServer::Start("127.0.0.1:0", [] { return ""; });
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string taken = "127.0.0.1:" + std::to_string((*first)->port());
  EXPECT_THAT(MetricsHttpServer::Start(taken, [] { return ""; }),
              StatusIs(absl::StatusCode::kUnavailable, HasSubstr(taken)));
}

}  // namespace
}  // namespace dpq::server::metrics
