// The fixture of the RunCli tests: `dpq` end to end against the generated
// gMock stubs (what is sent, what is printed, the exit status), with fakes
// for the upload stream and helpers for local files.
#ifndef DPQ_TESTS_CLIENT_CLI_TEST_FIXTURE_H_
#define DPQ_TESTS_CLIENT_CLI_TEST_FIXTURE_H_

#include <chrono>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "client/cli.h"
#include "dpq/v1/admin_service_mock.grpc.pb.h"
#include "dpq/v1/buyer_service_mock.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpc_health/v1/health_mock.grpc.pb.h"
#include "grpcpp/alarm.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_stream.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"

namespace dpq::client {

inline std::string TempFile(const std::string& name,
                            const std::string& content) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("cli_test_" + name))
          .string();
  ::dpq::testing::WriteFileOrDie(path, content);
  return path;
}

inline std::string MissingPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) /
          ("cli_test_missing_" + name))
      .string();
}

// What a FakeUpload does.
template <typename Request, typename Response>
struct UploadScript {
  // Receives every message written (if set).
  std::vector<Request>* sink = nullptr;
  // Counts WritesDone calls (if set).
  int* writes_done = nullptr;
  // Writes after this many fail (ok = false), as when the server has
  // closed the stream.
  int accept_writes = std::numeric_limits<int>::max();
  // The call's final status, and what fills the response.
  grpc::Status status = grpc::Status::OK;
  std::function<void(Response*)> respond;
  // False: Finish completes with ok = false, as gRPC's does when the
  // server's reply does not parse.
  bool reply_parses = true;
};

// A fake client-streaming call on the asynchronous API `dpq` uploads with:
// every operation completes at once through the completion queue, with
// the `ok` the script gives it.
template <typename Request, typename Response>
class FakeUpload final : public grpc::ClientAsyncWriterInterface<Request> {
 public:
  FakeUpload(UploadScript<Request, Response> script, Response* response,
             grpc::CompletionQueue* cq)
      : script_(std::move(script)), response_(response), cq_(cq) {}

  void StartCall(void* tag) override { Post(tag, true); }
  void ReadInitialMetadata(void* tag) override { Post(tag, true); }
  void Write(const Request& message, void* tag) override {
    Write(message, grpc::WriteOptions(), tag);
  }
  void Write(const Request& message, grpc::WriteOptions /*options*/,
             void* tag) override {
    if (++writes_ > script_.accept_writes) {
      Post(tag, false);
      return;
    }
    if (script_.sink != nullptr) script_.sink->push_back(message);
    Post(tag, true);
  }
  void WritesDone(void* tag) override {
    if (script_.writes_done != nullptr) ++*script_.writes_done;
    Post(tag, true);
  }
  void Finish(grpc::Status* status, void* tag) override {
    *status = script_.status;
    if (script_.respond) script_.respond(response_);
    Post(tag, script_.reply_parses);
  }

 private:
  // Completes `tag` on the queue: an alarm that fires now (ok), or one
  // cancelled at once (not ok).
  void Post(void* tag, bool ok) {
    alarms_.push_back(std::make_unique<grpc::Alarm>());
    grpc::Alarm& alarm = *alarms_.back();
    if (ok) {
      alarm.Set(cq_, std::chrono::system_clock::now(), tag);
    } else {
      alarm.Set(cq_, std::chrono::system_clock::now() + std::chrono::hours(1),
                tag);
      alarm.Cancel();
    }
  }

  UploadScript<Request, Response> script_;
  Response* response_;
  grpc::CompletionQueue* cq_;
  int writes_ = 0;
  std::vector<std::unique_ptr<grpc::Alarm>> alarms_;
};

// The action for PrepareAsyncRegisterDatasetRaw/ReplaceDatasetRaw: a
// FakeUpload following `script`.
template <typename Request, typename Response>
auto Upload(UploadScript<Request, Response> script) {
  return ::testing::Invoke([script](grpc::ClientContext*, Response* response,
                                    grpc::CompletionQueue* cq) {
    return new FakeUpload<Request, Response>(script, response, cq);
  });
}

// An upload that records every message into `sink` and finishes with OK.
inline auto RecordingUpload(
    std::vector<::dpq::v1::RegisterDatasetRequest>* sink) {
  UploadScript<::dpq::v1::RegisterDatasetRequest,
               ::dpq::v1::RegisterDatasetResponse>
      script;
  script.sink = sink;
  return Upload(script);
}
inline auto RecordingUpload(
    std::vector<::dpq::v1::ReplaceDatasetRequest>* sink) {
  UploadScript<::dpq::v1::ReplaceDatasetRequest,
               ::dpq::v1::ReplaceDatasetResponse>
      script;
  script.sink = sink;
  return Upload(script);
}
using RegisterScript = UploadScript<::dpq::v1::RegisterDatasetRequest,
                                    ::dpq::v1::RegisterDatasetResponse>;

// A report answer with MI, P and R (value 10, epsilon 1, bound 3); with
// methods: gem / vertex_cover and their estimates.
inline ::dpq::v1::QualityReportResponse ThreeResults(bool with_methods) {
  ::dpq::v1::QualityReportResponse resp;
  for (::dpq::v1::Measure m :
       {::dpq::v1::MEASURE_MI, ::dpq::v1::MEASURE_P, ::dpq::v1::MEASURE_R}) {
    ::dpq::v1::MeasureResult* r = resp.add_results();
    r->set_measure(m);
    r->set_value(10);
    r->set_epsilon(1);
    r->set_bound95(3);
    if (!with_methods) continue;
    r->set_method(m == ::dpq::v1::MEASURE_R ? "vertex_cover" : "gem");
    r->set_estimate(m == ::dpq::v1::MEASURE_R
                        ? ::dpq::v1::ESTIMATE_UPPER_BOUND
                        : ::dpq::v1::ESTIMATE_LOWER_BOUND);
    r->set_lower95(7);
    r->set_upper95(m == ::dpq::v1::MEASURE_MI ? 30 : 13);
    r->set_upper_proved(m != ::dpq::v1::MEASURE_P);
    r->set_truncated(m != ::dpq::v1::MEASURE_R);
  }
  return resp;
}

class CliTest : public ::testing::Test {
 protected:
  CliTest()
      : buyer_(std::make_shared<
               ::testing::StrictMock<::dpq::v1::MockBuyerServiceStub>>()),
        admin_(std::make_shared<
               ::testing::StrictMock<::dpq::v1::MockAdminServiceStub>>()),
        health_(std::make_shared<
                ::testing::StrictMock<::grpc::health::v1::MockHealthStub>>()) {
    env_.getenv =
        [this](const std::string& name) -> std::optional<std::string> {
      auto it = env_vars_.find(name);
      if (it == env_vars_.end()) return std::nullopt;
      return it->second;
    };
    env_.connect =
        [this](const ConnectionOptions& options) -> absl::StatusOr<Connection> {
      ++connects_;
      options_ = options;
      if (!connect_status_.ok()) return connect_status_;
      return Connection{buyer_, admin_, health_};
    };
    env_.new_request_id = [] { return std::string("dpq-generated"); };
  }

  int Run(const std::vector<std::string>& args) {
    out_.str("");
    err_.str("");
    return RunCli(args, env_, out_, err_);
  }

  std::string out() const { return out_.str(); }
  std::string err() const { return err_.str(); }

  std::shared_ptr<::testing::StrictMock<::dpq::v1::MockBuyerServiceStub>>
      buyer_;
  std::shared_ptr<::testing::StrictMock<::dpq::v1::MockAdminServiceStub>>
      admin_;
  std::shared_ptr<::testing::StrictMock<::grpc::health::v1::MockHealthStub>>
      health_;
  std::map<std::string, std::string> env_vars_;
  absl::Status connect_status_ = absl::OkStatus();
  int connects_ = 0;
  ConnectionOptions options_;
  CliEnv env_;
  std::ostringstream out_;
  std::ostringstream err_;
};

inline ::dpq::v1::MeasureInconsistencyResponse CannedMeasure(
    const std::string& request_id) {
  ::dpq::v1::MeasureInconsistencyResponse resp;
  ::dpq::v1::MeasureResult* r = resp.mutable_result();
  r->set_measure(::dpq::v1::MEASURE_MI);
  r->set_value(11295);
  r->set_epsilon(1);
  r->set_theta(100);
  r->set_bound95(499);
  r->set_method("gem");
  r->set_estimate(::dpq::v1::ESTIMATE_LOWER_BOUND);
  r->set_lower95(10796);
  r->set_upper95(12000);
  r->set_upper_proved(true);
  r->set_degree_upper(150);
  r->set_truncated(true);
  resp.set_epsilon_charged(1);
  resp.set_remaining_budget(2);
  resp.set_request_id(request_id);
  return resp;
}

}  // namespace dpq::client

#endif  // DPQ_TESTS_CLIENT_CLI_TEST_FIXTURE_H_
