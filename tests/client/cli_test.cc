// RunCli end to end against the generated gMock stubs: what is sent, what is
// printed, and the exit status.
#include "client/cli.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/output.h"
#include "dpq/v1/admin_service_mock.grpc.pb.h"
#include "dpq/v1/buyer_service_mock.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health_mock.grpc.pb.h"
#include "grpcpp/alarm.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/support/async_stream.h"
#include "gtest/gtest.h"
#include "tests/client/test_tls_identity.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;
using ::grpc::health::v1::MockHealthStub;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Invoke;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;
using ::testing::StartsWith;
using ::testing::StrictMock;
using ::testing::WithArg;

std::string TempFile(const std::string& name, const std::string& content) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("cli_test_" + name))
          .string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  return path;
}

std::string MissingPath(const std::string& name) {
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
  return Invoke([script](grpc::ClientContext*, Response* response,
                         grpc::CompletionQueue* cq) {
    return new FakeUpload<Request, Response>(script, response, cq);
  });
}

// An upload that records every message into `sink` and finishes with OK.
auto RecordingUpload(std::vector<v1::RegisterDatasetRequest>* sink) {
  UploadScript<v1::RegisterDatasetRequest, v1::RegisterDatasetResponse> script;
  script.sink = sink;
  return Upload(script);
}
auto RecordingUpload(std::vector<v1::ReplaceDatasetRequest>* sink) {
  UploadScript<v1::ReplaceDatasetRequest, v1::ReplaceDatasetResponse> script;
  script.sink = sink;
  return Upload(script);
}
using RegisterScript =
    UploadScript<v1::RegisterDatasetRequest, v1::RegisterDatasetResponse>;

// A report answer with MI, P and R (value 10, epsilon 1, bound 3); with
// methods: gem / vertex_cover and their estimates.
v1::QualityReportResponse ThreeResults(bool with_methods) {
  v1::QualityReportResponse resp;
  for (v1::Measure m : {v1::MEASURE_MI, v1::MEASURE_P, v1::MEASURE_R}) {
    v1::MeasureResult* r = resp.add_results();
    r->set_measure(m);
    r->set_value(10);
    r->set_epsilon(1);
    r->set_bound95(3);
    if (!with_methods) continue;
    r->set_method(m == v1::MEASURE_R ? "vertex_cover" : "gem");
    r->set_estimate(m == v1::MEASURE_R ? v1::ESTIMATE_UPPER_BOUND
                                       : v1::ESTIMATE_LOWER_BOUND);
  }
  return resp;
}

class CliTest : public ::testing::Test {
 protected:
  CliTest()
      : buyer_(std::make_shared<StrictMock<v1::MockBuyerServiceStub>>()),
        admin_(std::make_shared<StrictMock<v1::MockAdminServiceStub>>()),
        health_(std::make_shared<StrictMock<MockHealthStub>>()) {
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

  std::shared_ptr<StrictMock<v1::MockBuyerServiceStub>> buyer_;
  std::shared_ptr<StrictMock<v1::MockAdminServiceStub>> admin_;
  std::shared_ptr<StrictMock<MockHealthStub>> health_;
  std::map<std::string, std::string> env_vars_;
  absl::Status connect_status_ = absl::OkStatus();
  int connects_ = 0;
  ConnectionOptions options_;
  CliEnv env_;
  std::ostringstream out_;
  std::ostringstream err_;
};

v1::MeasureInconsistencyResponse CannedMeasure(const std::string& request_id) {
  v1::MeasureInconsistencyResponse resp;
  v1::MeasureResult* r = resp.mutable_result();
  r->set_measure(v1::MEASURE_MI);
  r->set_value(11295);
  r->set_epsilon(1);
  r->set_theta(100);
  r->set_bound95(499);
  r->set_method("gem");
  r->set_estimate(v1::ESTIMATE_LOWER_BOUND);
  resp.set_epsilon_charged(1);
  resp.set_remaining_budget(2);
  resp.set_request_id(request_id);
  return resp;
}

// --- Usage, help, local errors ---------------------------------------------

TEST_F(CliTest, UsageErrorExits2WithMessageAndHintAndNoRpc) {
  EXPECT_EQ(Run({"measure", "h", "--epsilon", "1"}), kExitUsage);
  EXPECT_THAT(out(), IsEmpty());
  EXPECT_THAT(err(), StartsWith("dpq: dpq measure: --measure is required.\n"
                                "usage: dpq [global flags] measure ID"));
  EXPECT_EQ(connects_, 0);

  EXPECT_EQ(Run({"bogus"}), kExitUsage);
  EXPECT_EQ(err(),
            "dpq: Unknown command 'bogus'.\nRun 'dpq --help' for usage.\n");
  EXPECT_EQ(Run({"datasets", "--epsilon", "1"}), kExitUsage);
  EXPECT_THAT(err(), HasSubstr("Unknown flag '--epsilon' for 'dpq datasets'"));
  EXPECT_EQ(Run({"admin", "grant", "a", "h", "lots"}), kExitUsage);
  EXPECT_THAT(err(), HasSubstr("EPS expects a finite number, got 'lots'"));
  EXPECT_EQ(Run({}), kExitUsage);
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, HelpPrintsUsageAndExits0) {
  EXPECT_EQ(Run({"--help"}), kExitOk);
  EXPECT_THAT(out(), HasSubstr("usage: dpq [global flags] <command>"));
  EXPECT_THAT(out(), HasSubstr("dpq admin ledger [--buyer B]"));
  EXPECT_EQ(Run({"report", "--help"}), kExitOk);
  EXPECT_THAT(out(), StartsWith("usage: dpq [global flags] report ID "
                                "--epsilon E"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, ConnectFailureIsOneErrorLine) {
  connect_status_ = absl::InvalidArgumentError("--server must not be empty.");
  EXPECT_EQ(Run({"datasets"}), kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: --server must not be empty.\n");
}

TEST_F(CliTest, MissingCaFileFailsBeforeConnecting) {
  EXPECT_EQ(Run({"--ca", MissingPath("ca.pem"), "datasets"}), kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --ca file '"));
  EXPECT_EQ(connects_, 0);
}

// --- Connection options ----------------------------------------------------

TEST_F(CliTest, TlsIsTheDefaultAndFilesArePassedAsPem) {
  const TestIdentity id = MakeIdentity();
  const std::string ca = TempFile("ca.pem", id.cert_pem);
  const std::string cert = TempFile("c.pem", id.cert_pem);
  const std::string key = TempFile("k.pem", id.key_pem);
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .WillOnce(Return(grpc::Status::OK));
  EXPECT_EQ(Run({"--server", "dpq.example.com:443", "--token", "dpq_t", "--ca",
                 ca, "--client-cert", cert, "--client-key", key,
                 "--tls-server-name", "dpq.local", "datasets"}),
            kExitOk)
      << err();
  EXPECT_FALSE(options_.insecure);
  EXPECT_EQ(options_.target, "dpq.example.com:443");
  EXPECT_EQ(options_.token, "dpq_t");
  EXPECT_EQ(options_.root_certs_pem, id.cert_pem);
  EXPECT_EQ(options_.client_cert_pem, id.cert_pem);
  EXPECT_EQ(options_.client_key_pem, id.key_pem);
  EXPECT_EQ(options_.tls_server_name, "dpq.local");
  EXPECT_THAT(err(), IsEmpty());
}

TEST_F(CliTest, TokenComesFromEnvironmentOrTokenFile) {
  env_vars_ = {{"DPQ_TOKEN", "dpq_env"}, {"DPQ_SERVER", "envhost"}};
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(2)
      .WillRepeatedly(Return(grpc::Status::OK));
  EXPECT_EQ(Run({"datasets"}), kExitOk);
  EXPECT_EQ(options_.token, "dpq_env");
  EXPECT_EQ(options_.target, "envhost:50051");
  const std::string file = TempFile("admin.token", "dpq_file\r\n");
  EXPECT_EQ(Run({"--token-file", file, "datasets"}), kExitOk);
  EXPECT_EQ(options_.token, "dpq_file");
  EXPECT_EQ(Run({"--token-file", MissingPath("t"), "datasets"}), kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --token-file"));
}

TEST_F(CliTest, TokenLosesOneTrailingNewlineWhereverItComesFrom) {
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(3)
      .WillRepeatedly(Return(grpc::Status::OK));
  // `--token "$(cat token)"` keeps no newline, but `--token "$(cat f)"`
  // of a CRLF file or a pasted line can.
  EXPECT_EQ(Run({"--token", "dpq_flag\n", "datasets"}), kExitOk) << err();
  EXPECT_EQ(options_.token, "dpq_flag");
  env_vars_ = {{"DPQ_TOKEN", "dpq_env\r\n"}};
  EXPECT_EQ(Run({"datasets"}), kExitOk) << err();
  EXPECT_EQ(options_.token, "dpq_env");
  const std::string file = TempFile("nl.token", "dpq_file\n");
  EXPECT_EQ(Run({"--token-file", file, "datasets"}), kExitOk) << err();
  EXPECT_EQ(options_.token, "dpq_file");
}

TEST_F(CliTest, BadTokenByteIsRefusedWithoutShowingTheToken) {
  // StrictMock: no call may be made. Before the fix, gRPC aborted the
  // process (exit 134) on such a metadata value.
  EXPECT_EQ(Run({"--token", "dpq_secret\x01", "datasets"}), kExitUsage);
  EXPECT_THAT(err(), StartsWith("dpq: --token: the token's character 11 is a "
                                "control character"));
  EXPECT_THAT(err(), Not(HasSubstr("secret")));
  env_vars_ = {{"DPQ_TOKEN", "dpq_secret\xff"}};
  EXPECT_EQ(Run({"datasets"}), kExitUsage);
  EXPECT_THAT(err(), StartsWith("dpq: DPQ_TOKEN: the token's character 11 is "
                                "a non-ASCII byte"));
  EXPECT_THAT(err(), Not(HasSubstr("secret")));
  EXPECT_THAT(err(), Not(HasSubstr("\xff")));
  // A file whose token has spaces or a second line is refused too (it used
  // to be trimmed and cut at the first line).
  const std::string file = TempFile("bad.token", "  dpq_secret \nignored\n");
  EXPECT_EQ(Run({"--token-file", file, "datasets"}), kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: --token-file '" + file +
                       "': the token's character 1 is a space; a token is "
                       "printable ASCII without spaces (one trailing newline "
                       "is dropped).\n");
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, HealthIgnoresABadTokenItWouldNotSend) {
  env_vars_ = {{"DPQ_TOKEN", "dpq_\x01"}};
  HealthCheckResponse resp;
  resp.set_status(HealthCheckResponse::SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(resp), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"health"}), kExitOk) << err();
  EXPECT_EQ(options_.token, "");
}

TEST_F(CliTest, CaFileWithoutCertificateFailsBeforeAnyCall) {
  const std::string ca = TempFile("garbage.pem", "garbage\n");
  EXPECT_EQ(Run({"--ca", ca, "--token", "dpq_t", "datasets"}), kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: --ca file '" + ca +
                       "' holds no PEM certificate (no '-----BEGIN "
                       "CERTIFICATE-----' block).\n");
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, InsecureWarnsOnlyForATokenToAnotherHost) {
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(3)
      .WillRepeatedly(Return(grpc::Status::OK));
  EXPECT_EQ(Run({"--insecure", "--server", "10.1.2.3:50051", "--token", "dpq_t",
                 "datasets"}),
            kExitOk);
  EXPECT_TRUE(options_.insecure);
  EXPECT_EQ(options_.token, "dpq_t");
  EXPECT_THAT(err(), HasSubstr("dpq: warning: sending the bearer token in "
                               "plaintext to 10.1.2.3:50051"));
  EXPECT_EQ(Run({"--insecure", "--server", "127.0.0.1:9", "--token", "dpq_t",
                 "datasets"}),
            kExitOk);
  EXPECT_THAT(err(), IsEmpty());
  EXPECT_EQ(Run({"--insecure", "--server", "10.1.2.3:50051", "datasets"}),
            kExitOk);
  EXPECT_THAT(err(), IsEmpty());
}

TEST_F(CliTest, DeadlineDefaultsTo30SecondsAndFollowsTimeout) {
  std::vector<absl::Duration> remaining;
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(2)
      .WillRepeatedly(Invoke([&remaining](grpc::ClientContext* ctx, auto&&,
                                          auto*) {
        remaining.push_back(absl::FromChrono(ctx->deadline()) - absl::Now());
        return grpc::Status::OK;
      }));
  EXPECT_EQ(Run({"datasets"}), kExitOk);
  EXPECT_EQ(Run({"--timeout", "5", "datasets"}), kExitOk);
  ASSERT_EQ(remaining.size(), 2u);
  EXPECT_GT(remaining[0], absl::Seconds(25));
  EXPECT_LE(remaining[0], absl::Seconds(30));
  EXPECT_GT(remaining[1], absl::Seconds(1));
  EXPECT_LE(remaining[1], absl::Seconds(5));
}

// --- Health ----------------------------------------------------------------

TEST_F(CliTest, HealthServingExits0WithoutToken) {
  env_vars_ = {{"DPQ_TOKEN", "dpq_env"}};
  HealthCheckRequest sent;
  HealthCheckResponse serving;
  serving.set_status(HealthCheckResponse::SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(serving),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"health", "--server", "localhost:50051"}), kExitOk);
  EXPECT_EQ(out(), "SERVING\n");
  EXPECT_EQ(sent.service(), "");
  EXPECT_EQ(options_.token, "");  // health never sends a token
}

TEST_F(CliTest, HealthNotServingExits1) {
  HealthCheckResponse not_serving;
  not_serving.set_status(HealthCheckResponse::NOT_SERVING);
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(not_serving), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "health"}), kExitError);
  EXPECT_EQ(out(), "{\"status\":\"NOT_SERVING\"}\n");
  EXPECT_EQ(err(),
            "dpq: UNAVAILABLE: The server answers but reports NOT_SERVING, "
            "not SERVING.\n");
}

TEST_F(CliTest, HealthUnreachableExits1) {
  EXPECT_CALL(*health_, Check(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                    "failed to connect to all addresses")));
  EXPECT_EQ(Run({"health"}), kExitError);
  EXPECT_EQ(err(), "dpq: UNAVAILABLE: failed to connect to all addresses\n");
}

// --- Buyer commands --------------------------------------------------------

TEST_F(CliTest, DatasetsAndDescribePrintServerData) {
  v1::ListDatasetsResponse list;
  v1::DatasetInfo* info = list.add_datasets();
  info->set_dataset_id("hospital");
  info->set_public_max_rows(1000);
  info->set_version(1);
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SetArgPointee<2>(list), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"datasets"}), kExitOk);
  EXPECT_EQ(out(), DatasetsText(list, false));
  EXPECT_EQ(Run({"datasets", "--json"}), kExitOk);
  EXPECT_EQ(out(), DatasetsText(list, true));

  v1::DescribeDatasetRequest sent;
  v1::DescribeDatasetResponse described;
  *described.mutable_dataset() = *info;
  EXPECT_CALL(*buyer_, DescribeDataset(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(described),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"describe", "hospital"}), kExitOk);
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_THAT(out(), HasSubstr("dataset:          hospital\n"));
}

TEST_F(CliTest, BudgetSendsFilterHistoryAndLimit) {
  v1::GetBudgetRequest sent;
  v1::GetBudgetResponse resp;
  v1::Budget* b = resp.add_budgets();
  b->set_dataset_id("hospital");
  b->set_granted(3);
  b->set_remaining(3);
  EXPECT_CALL(*buyer_, GetBudget(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"budget", "hospital", "--history", "--limit", "7", "--json"}),
            kExitOk);
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_TRUE(sent.include_history());
  EXPECT_EQ(sent.history_limit(), 7u);
  EXPECT_EQ(out(), BudgetText(resp, "hospital", true, true));
}

TEST_F(CliTest, MeasureSendsEverythingAndPrintsJson) {
  v1::MeasureInconsistencyRequest sent;
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(CannedMeasure("r-9")),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "measure", "hospital", "--measure", "mi",
                 "--epsilon", "1", "--method", "basic", "--request-id", "r-9"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "hospital");
  EXPECT_EQ(sent.measure(), v1::MEASURE_MI);
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_BASIC);
  EXPECT_EQ(sent.request_id(), "r-9");
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(), R"({"dataset":"hospital","measure":"MI","value":11295,)"
                   R"("epsilon_charged":1,"remaining_budget":2,"theta":100,)"
                   R"("bound95":499,"method":"gem","estimates":"lower_bound",)"
                   R"("request_id":"r-9","replayed":false})"
                   "\n");
  EXPECT_THAT(err(), IsEmpty());
}

TEST_F(CliTest, MeasureWithoutRequestIdGeneratesAndPrintsOne) {
  v1::MeasureInconsistencyRequest sent;
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent),
                      SetArgPointee<2>(CannedMeasure("dpq-generated")),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "p", "--epsilon", "0.5"}),
            kExitOk);
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_EQ(sent.measure(), v1::MEASURE_P);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(),
            "I_MI (conflicting pairs) ~ 11295 \u00b1 499 (95% noise; "
            "estimates a lower bound: may undercount), theta 100, "
            "method gem; charged epsilon 1, remaining 2\n"
            "request id: dpq-generated\n");
}

TEST_F(CliTest, MeasureRSendsTheRepairMethodAndPrintsAnExactValue) {
  v1::MeasureInconsistencyRequest sent;
  v1::MeasureInconsistencyResponse resp = CannedMeasure("r-e");
  v1::MeasureResult* r = resp.mutable_result();
  r->set_measure(v1::MEASURE_R);
  r->set_value(412);
  r->set_theta(0);
  r->set_bound95(3);
  r->set_method("exact");
  r->set_estimate(v1::ESTIMATE_EXACT);
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                            Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "r", "--epsilon", "1",
                 "--method", "exact", "--request-id", "r-e"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.measure(), v1::MEASURE_R);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_EXACT);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(),
            "I_R (minimal repair deletions) ~ 412 \u00b1 3 (95% noise), "
            "method exact; charged epsilon 1, remaining 2\n"
            "request id: r-e\n");
  EXPECT_THAT(out(), Not(HasSubstr("undercount")));
  EXPECT_EQ(Run({"--json", "measure", "hospital", "--measure", "r", "--epsilon",
                 "1", "--method", "vertex_cover"}),
            kExitOk);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_THAT(out(), HasSubstr(R"("method":"exact","estimates":"exact")"));
}

TEST_F(CliTest, MethodOfTheOtherMeasureExits2WithoutAnRpc) {
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "mi", "--epsilon", "1",
                 "--method", "cover_bound"}),
            kExitUsage);
  EXPECT_THAT(out(), IsEmpty());
  EXPECT_THAT(err(), HasSubstr("--method for mi and p must be one of gem, "
                               "optimized, hierarchical, basic, baseline; got "
                               "'cover_bound'"));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "r", "--epsilon", "1",
                 "--method", "gem"}),
            kExitUsage);
  EXPECT_THAT(err(), HasSubstr("the method for r must be one of cover_bound, "
                               "exact, vertex_cover; got 'gem'"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, ReportSendsEverythingAndPrintsJson) {
  v1::QualityReportRequest sent;
  v1::QualityReportResponse resp = ThreeResults(/*with_methods=*/false);
  resp.set_epsilon_charged(3);
  resp.set_remaining_budget(0);
  resp.set_request_id("dpq-generated");
  EXPECT_CALL(*buyer_, QualityReport(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(
      Run({"report", "tax", "--epsilon=3", "--method", "baseline", "--json"}),
      kExitOk);
  EXPECT_EQ(sent.dataset_id(), "tax");
  EXPECT_DOUBLE_EQ(sent.epsilon(), 3);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_BASELINE);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_EQ(out(), ReportText("tax", resp, true));
  EXPECT_THAT(out(), HasSubstr(R"("epsilon_charged":3,"remaining_budget":0)"));
}

TEST_F(CliTest, ReportSendsTheRepairMethodAndShowsEstimates) {
  v1::QualityReportRequest sent;
  v1::QualityReportResponse resp = ThreeResults(/*with_methods=*/true);
  resp.set_epsilon_charged(3);
  resp.set_request_id("q");
  EXPECT_CALL(*buyer_, QualityReport(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"report", "tax", "--epsilon", "3", "--repair-method",
                 "vertex_cover", "--request-id", "q"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_UNSPECIFIED);
  EXPECT_EQ(out(), ReportText("tax", resp, false));
  EXPECT_THAT(out(), HasSubstr("ESTIMATES"));
  EXPECT_THAT(out(), HasSubstr("upper bound"));
  EXPECT_THAT(out(), HasSubstr("lower bound"));
}

// --- Error mapping ---------------------------------------------------------

TEST_F(CliTest, EveryServerErrorIsOneLineAndExit1) {
  const std::vector<std::pair<grpc::StatusCode, std::string>> codes = {
      {grpc::StatusCode::CANCELLED, "CANCELLED"},
      {grpc::StatusCode::UNKNOWN, "UNKNOWN"},
      {grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT"},
      {grpc::StatusCode::DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED"},
      {grpc::StatusCode::NOT_FOUND, "NOT_FOUND"},
      {grpc::StatusCode::ALREADY_EXISTS, "ALREADY_EXISTS"},
      {grpc::StatusCode::PERMISSION_DENIED, "PERMISSION_DENIED"},
      {grpc::StatusCode::UNAUTHENTICATED, "UNAUTHENTICATED"},
      {grpc::StatusCode::RESOURCE_EXHAUSTED, "RESOURCE_EXHAUSTED"},
      {grpc::StatusCode::FAILED_PRECONDITION, "FAILED_PRECONDITION"},
      {grpc::StatusCode::ABORTED, "ABORTED"},
      {grpc::StatusCode::OUT_OF_RANGE, "OUT_OF_RANGE"},
      {grpc::StatusCode::UNIMPLEMENTED, "UNIMPLEMENTED"},
      {grpc::StatusCode::INTERNAL, "INTERNAL"},
      {grpc::StatusCode::UNAVAILABLE, "UNAVAILABLE"},
      {grpc::StatusCode::DATA_LOSS, "DATA_LOSS"},
  };
  for (const auto& [code, name] : codes) {
    SCOPED_TRACE(name);
    EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
        .WillOnce(Return(grpc::Status(code, "the message")));
    EXPECT_EQ(Run({"measure", "h", "--measure", "mi", "--epsilon", "1",
                   "--request-id", "mine"}),
              kExitError);
    EXPECT_THAT(out(), IsEmpty());
    EXPECT_EQ(err(), "dpq: " + name + ": the message\n");
    ::testing::Mock::VerifyAndClearExpectations(buyer_.get());
  }
}

TEST_F(CliTest, OverBudgetMessageIsPassedThrough) {
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                    "Budget exhausted: epsilon 1 requested, "
                                    "0.5 remaining on hospital")));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "mi", "--epsilon", "1"}),
            kExitError);
  EXPECT_EQ(err(),
            "dpq: RESOURCE_EXHAUSTED: Budget exhausted: epsilon 1 requested, "
            "0.5 remaining on hospital\n");
}

TEST_F(CliTest, UncertainOutcomeWithGeneratedIdTellsHowToRetry) {
  EXPECT_CALL(*buyer_, QualityReport(_, _, _))
      .WillOnce(Return(
          grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline")));
  EXPECT_EQ(Run({"report", "h", "--epsilon", "1"}), kExitError);
  EXPECT_EQ(err(),
            "dpq: DEADLINE_EXCEEDED: Deadline (request id dpq-generated: "
            "retry with --request-id dpq-generated to get its answer without "
            "a second charge)\n");
}

TEST_F(CliTest, AdminRpcErrorsToo) {
  EXPECT_CALL(*admin_, ListBuyers(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                                    "AdminService needs the admin role")));
  EXPECT_EQ(Run({"admin", "buyers"}), kExitError);
  EXPECT_EQ(err(),
            "dpq: PERMISSION_DENIED: AdminService needs the admin role\n");
}

// --- Admin commands --------------------------------------------------------

TEST_F(CliTest, CreateBuyerJsonIsBuyerAndToken) {
  v1::CreateBuyerRequest sent;
  v1::CreateBuyerResponse resp;
  resp.mutable_buyer()->set_buyer_id("alice");
  resp.set_token("dpq_abc");
  EXPECT_CALL(*admin_, CreateBuyer(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "admin", "create-buyer", "alice"}), kExitOk);
  EXPECT_EQ(sent.name(), "alice");
  EXPECT_EQ(out(), "{\"buyer\":\"alice\",\"token\":\"dpq_abc\"}\n");
}

TEST_F(CliTest, RevokeDeleteBuyersDatasetsAudit) {
  v1::RevokeBuyerRequest revoke;
  EXPECT_CALL(*admin_, RevokeBuyer(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&revoke), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "revoke-buyer", "bob"}), kExitOk);
  EXPECT_EQ(revoke.buyer_id(), "bob");
  EXPECT_EQ(out(), RevokeBuyerText("bob", false));

  v1::DeleteDatasetRequest del;
  EXPECT_CALL(*admin_, DeleteDataset(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&del), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "delete", "tax", "--json"}), kExitOk);
  EXPECT_EQ(del.dataset_id(), "tax");
  EXPECT_EQ(out(), "{\"dataset\":\"tax\",\"deleted\":true}\n");

  v1::ListBuyersResponse buyers;
  buyers.add_buyers()->set_buyer_id("alice");
  EXPECT_CALL(*admin_, ListBuyers(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(buyers), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "buyers"}), kExitOk);
  EXPECT_EQ(out(), BuyersText(buyers, false));

  v1::AdminListDatasetsResponse datasets;
  datasets.add_datasets()->mutable_stats()->set_rows(998);
  EXPECT_CALL(*admin_, ListDatasets(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(datasets), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "datasets", "--json"}), kExitOk);
  EXPECT_THAT(out(), HasSubstr("\"rows\":998"));

  v1::ListAuditLogRequest audit;
  EXPECT_CALL(*admin_, ListAuditLog(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&audit), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "audit", "--limit", "4"}), kExitOk);
  EXPECT_EQ(audit.limit(), 4u);
  EXPECT_EQ(out(), "TIME  ACTOR  ACTION  DETAILS\n");
}

TEST_F(CliTest, GrantSetBudgetSetCapLedger) {
  v1::GrantBudgetRequest grant;
  v1::GrantBudgetResponse granted;
  granted.mutable_budget()->set_buyer_id("alice");
  granted.mutable_budget()->set_dataset_id("h");
  granted.mutable_budget()->set_granted(3);
  granted.mutable_budget()->set_remaining(3);
  EXPECT_CALL(*admin_, GrantBudget(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&grant), SetArgPointee<2>(granted),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "grant", "alice", "h", "3"}), kExitOk);
  EXPECT_EQ(grant.buyer_id(), "alice");
  EXPECT_EQ(grant.dataset_id(), "h");
  EXPECT_DOUBLE_EQ(grant.epsilon(), 3);
  EXPECT_EQ(out(),
            "Budget of alice on h: granted 3, spent 0, reserved 0, "
            "remaining 3.\n");

  v1::SetBudgetRequest set;
  EXPECT_CALL(*admin_, SetBudget(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&set), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "set-budget", "alice", "h", "0.25"}), kExitOk);
  EXPECT_EQ(set.buyer_id(), "alice");
  EXPECT_DOUBLE_EQ(set.granted(), 0.25);

  v1::SetDatasetCapRequest cap;
  EXPECT_CALL(*admin_, SetDatasetCap(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&cap), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "admin", "set-cap", "h", "10"}), kExitOk);
  EXPECT_EQ(cap.dataset_id(), "h");
  EXPECT_DOUBLE_EQ(cap.cap(), 10);
  EXPECT_EQ(out(), "{\"dataset\":\"h\",\"cap\":10}\n");

  v1::ListLedgerRequest ledger;
  EXPECT_CALL(*admin_, ListLedger(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&ledger), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "ledger", "--buyer", "alice", "--dataset", "h",
                 "--limit", "50", "--json"}),
            kExitOk);
  EXPECT_EQ(ledger.buyer_id(), "alice");
  EXPECT_EQ(ledger.dataset_id(), "h");
  EXPECT_EQ(ledger.limit(), 50u);
  EXPECT_EQ(out(), "{\"entries\":[],\"budgets\":[]}\n");
}

// --- Uploads ---------------------------------------------------------------

// Records what an upload stream receives.
struct StreamLog {
  std::vector<v1::RegisterDatasetRequest> messages;
  int writes_done = 0;
};

TEST_F(CliTest, RegisterStreamsHeaderThenChunksInOrder) {
  env_.upload_chunk_bytes = 4;
  const std::string csv = "zip,city\n1,A\n1,B\n22,C\n";  // 22 bytes
  const std::string data = TempFile("h.csv", csv);
  const std::string dc = TempFile("h.dc", "zip -> city\n");
  const std::string schema = TempFile("h.schema", "zip: int64\ncity: string\n");

  StreamLog log;
  RegisterScript script;
  script.sink = &log.messages;
  script.writes_done = &log.writes_done;
  script.respond = [](v1::RegisterDatasetResponse* response) {
    response->mutable_dataset()->set_dataset_id("hospital");
    response->mutable_dataset()->set_version(1);
    response->mutable_stats()->set_rows(3);
    response->mutable_stats()->set_csv_bytes(23);
    response->mutable_stats()->set_edges(1);
  };
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));

  EXPECT_EQ(
      Run({"admin", "register", "hospital", "--data", data, "--constraints", dc,
           "--schema", schema, "--public-max-rows", "1000", "--description",
           "Hospital", "--row-count-public", "--null-value", "NA", "--json"}),
      kExitOk)
      << err();

  ASSERT_EQ(csv.size(), 22u);
  ASSERT_EQ(log.messages.size(), 1u + 6u);  // header + ceil(22 / 4) chunks
  ASSERT_TRUE(log.messages[0].has_header());
  const v1::DatasetUploadHeader& header = log.messages[0].header();
  EXPECT_EQ(header.server_path(), "");
  const v1::DatasetManifest& m = header.manifest();
  EXPECT_EQ(m.dataset_id(), "hospital");
  EXPECT_EQ(m.description(), "Hospital");
  EXPECT_EQ(m.constraints(), "zip -> city\n");
  EXPECT_EQ(m.public_max_rows(), 1000u);
  EXPECT_TRUE(m.row_count_public());
  EXPECT_FALSE(m.exact_repair());
  ASSERT_EQ(m.null_values_size(), 1);
  EXPECT_EQ(m.null_values(0), "NA");
  ASSERT_EQ(m.column_types_size(), 2);
  EXPECT_EQ(m.column_types(0).name(), "zip");
  EXPECT_EQ(m.column_types(0).type(), v1::COLUMN_TYPE_INT64);
  EXPECT_EQ(m.column_types(1).name(), "city");
  EXPECT_EQ(m.column_types(1).type(), v1::COLUMN_TYPE_STRING);
  std::string joined;
  for (size_t i = 1; i < log.messages.size(); ++i) {
    ASSERT_EQ(log.messages[i].payload_case(),
              v1::RegisterDatasetRequest::kCsvChunk);
    EXPECT_EQ(log.messages[i].csv_chunk().size(),
              i + 1 < log.messages.size() ? 4u : 2u);
    joined += log.messages[i].csv_chunk();
  }
  EXPECT_EQ(joined, csv);
  EXPECT_EQ(log.writes_done, 1);
  EXPECT_EQ(out(),
            R"({"dataset":"hospital","version":1,"rows":3,"csv_bytes":23,)"
            R"("edges":1,"graph_build_seconds":0,"public_max_rows":0,)"
            R"("kind":"table","nodes":0,"graph_ready":false,"graph_error":"",)"
            R"("charge_multiplier":0,"notes":[]})"
            "\n");
}

TEST_F(CliTest, RegisterWithServerPathSendsOnlyTheHeader) {
  const std::string dc = TempFile("t.dc", "A -> B\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "tax", "--server-path", "/srv/tax.csv",
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].header().server_path(), "/srv/tax.csv");
  EXPECT_EQ(messages[0].header().manifest().column_types_size(), 0);
  EXPECT_THAT(out(), StartsWith("Registered "));
}

TEST_F(CliTest, UploadDefaultDeadlineIsLonger) {
  const std::string dc = TempFile("d.dc", "A -> B\n");
  absl::Duration remaining;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Invoke([&](grpc::ClientContext* ctx,
                           v1::RegisterDatasetResponse* response,
                           grpc::CompletionQueue* cq) {
        remaining = absl::FromChrono(ctx->deadline()) - absl::Now();
        return new FakeUpload<v1::RegisterDatasetRequest,
                              v1::RegisterDatasetResponse>(RegisterScript(),
                                                           response, cq);
      }));
  EXPECT_EQ(Run({"admin", "register", "t", "--server-path", "/x",
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitOk);
  EXPECT_GT(remaining, absl::Seconds(590));
}

TEST_F(CliTest, ReplaceUsesReplaceDataset) {
  const std::string data = TempFile("r.csv", "a\n1\n");
  const std::string dc = TempFile("r.dc", "a -> a\n");
  std::vector<v1::ReplaceDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncReplaceDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "replace", "r", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9"}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].header().manifest().dataset_id(), "r");
  EXPECT_EQ(messages[1].csv_chunk(), "a\n1\n");
  EXPECT_THAT(out(), StartsWith("Replaced "));
}

TEST_F(CliTest, ServerClosingTheStreamStopsTheUploadAndReportsItsError) {
  env_.upload_chunk_bytes = 2;
  const std::string data = TempFile("big.csv", "a,b\n1,2\n3,4\n");
  const std::string dc = TempFile("big.dc", "a -> b\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  int writes_done = 0;
  RegisterScript script;
  script.sink = &messages;
  script.writes_done = &writes_done;
  // The header and one chunk go through; then the server has closed.
  script.accept_writes = 2;
  script.status = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                               "Upload above the 8-byte limit");
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));
  EXPECT_EQ(Run({"admin", "register", "big", "--data", data, "--constraints",
                 dc, "--public-max-rows", "9"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: RESOURCE_EXHAUSTED: Upload above the 8-byte limit\n");
  EXPECT_THAT(out(), IsEmpty());
  // The third write failed: nothing more was written, no WritesDone.
  EXPECT_EQ(messages.size(), 2u);
  EXPECT_EQ(writes_done, 0);
}

TEST_F(CliTest, MissingLocalFilesFailBeforeAnyRpc) {
  const std::string data = TempFile("ok.csv", "a\n1\n");
  const std::string dc = TempFile("ok.dc", "a -> a\n");
  // StrictMock: any RPC would fail the test.
  EXPECT_EQ(Run({"admin", "register", "h", "--data", MissingPath("h.csv"),
                 "--constraints", dc, "--public-max-rows", "5"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: NOT_FOUND: Cannot read --data file '" +
                       MissingPath("h.csv") + "': no such file.\n");
  EXPECT_EQ(Run({"admin", "register", "h", "--data", data, "--constraints",
                 MissingPath("h.dc"), "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --constraints "
                                "file"));
  EXPECT_EQ(Run({"admin", "replace", "h", "--data", data, "--constraints", dc,
                 "--schema", MissingPath("s"), "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: NOT_FOUND: Cannot read --schema file"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, BadSchemaFileIsInvalidArgumentNamingTheFile) {
  const std::string data = TempFile("s.csv", "a\n1\n");
  const std::string dc = TempFile("s.dc", "a -> a\n");
  const std::string schema = TempFile("bad.schema", "a: complex\n");
  EXPECT_EQ(Run({"admin", "register", "h", "--data", data, "--constraints", dc,
                 "--schema", schema, "--public-max-rows", "5"}),
            kExitError);
  EXPECT_THAT(err(), StartsWith("dpq: INVALID_ARGUMENT: --schema file '" +
                                schema + "': "));
  EXPECT_EQ(connects_, 0);
}

// --- Cube and selection releases -------------------------------------------

TEST_F(CliTest, CuboidsSendsEveryCuboidAndPrintsJson) {
  v1::ReleaseCuboidsRequest sent;
  v1::ReleaseCuboidsResponse resp;
  v1::Cuboid* c = resp.add_cuboids();
  c->add_dimensions("Sex");
  v1::CuboidCell* cell = c->add_cells();
  cell->add_values("F");
  cell->set_count(7);
  resp.add_noise_stddev(1.5);
  resp.set_strategy("per_cuboid");
  resp.set_epsilon_charged(1);
  resp.set_request_id("c-1");
  EXPECT_CALL(*buyer_, ReleaseCuboids(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--json", "cuboids", "adult", "--dims", "Sex,Age", "--dims",
                 "", "--epsilon", "1", "--integral", "--request-id", "c-1"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "adult");
  ASSERT_EQ(sent.cuboids_size(), 2);
  EXPECT_THAT(sent.cuboids(0).dimensions(),
              ::testing::ElementsAre("Sex", "Age"));
  EXPECT_THAT(sent.cuboids(1).dimensions(), IsEmpty());
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_TRUE(sent.non_negative_integral());
  EXPECT_EQ(sent.request_id(), "c-1");
  EXPECT_EQ(out(), CuboidsText("adult", resp, true));
  EXPECT_THAT(out(),
              HasSubstr(R"("cells":[{"values":{"Sex":"F"},"count":7}])"));
}

TEST_F(CliTest, CuboidsWithoutRequestIdGeneratesOneAndPrintsIt) {
  v1::ReleaseCuboidsRequest sent;
  EXPECT_CALL(*buyer_, ReleaseCuboids(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"cuboids", "adult", "--dims", "Sex", "--epsilon", "1"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_FALSE(sent.non_negative_integral());
  // The server left the id out: the one sent is printed.
  EXPECT_THAT(out(), HasSubstr("request id: dpq-generated\n"));
}

TEST_F(CliTest, TreeSendsEveryFlagAndPrintsTheTree) {
  v1::TrainDecisionTreeRequest sent;
  v1::TrainDecisionTreeResponse resp;
  v1::DecisionTreeNode* leaf = resp.add_nodes();
  leaf->set_leaf(true);
  leaf->set_positive(true);
  leaf->set_left(-1);
  leaf->set_right(-1);
  resp.set_tree_text("+");
  resp.set_epsilon_charged(1.25);
  resp.set_remaining_budget(0.75);
  resp.set_request_id("t-1");
  EXPECT_CALL(*buyer_, TrainDecisionTree(_, _, _))
      .Times(2)
      .WillRepeatedly(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                            Return(grpc::Status::OK)));
  const std::vector<std::string> args = {"tree",
                                         "adult",
                                         "--label",
                                         "income",
                                         "--positive",
                                         ">50K",
                                         "--features",
                                         "age,sex",
                                         "--approach",
                                         "aggregation",
                                         "--weights",
                                         "2,1",
                                         "--sensitivity",
                                         "local",
                                         "--generations",
                                         "5",
                                         "--population",
                                         "8",
                                         "--accuracy-epsilon",
                                         "0.25",
                                         "--epsilon",
                                         "1",
                                         "--request-id",
                                         "t-1"};
  EXPECT_EQ(Run(args), kExitOk) << err();
  EXPECT_EQ(sent.dataset_id(), "adult");
  EXPECT_EQ(sent.label_column(), "income");
  EXPECT_EQ(sent.positive_class(), ">50K");
  EXPECT_THAT(sent.features(), ::testing::ElementsAre("age", "sex"));
  EXPECT_EQ(sent.approach(), v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(sent.weights(), ::testing::ElementsAre(2, 1));
  EXPECT_EQ(sent.sensitivity(), v1::SENSITIVITY_MODE_LOCAL);
  EXPECT_EQ(sent.generations(), 5u);
  EXPECT_EQ(sent.population(), 8u);
  EXPECT_DOUBLE_EQ(sent.accuracy_epsilon(), 0.25);
  EXPECT_DOUBLE_EQ(sent.epsilon(), 1);
  EXPECT_EQ(sent.request_id(), "t-1");
  EXPECT_EQ(out(), TreeText("adult", "income", ">50K", resp, false));
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  EXPECT_EQ(Run(json_args), kExitOk) << err();
  EXPECT_EQ(out(), TreeText("adult", "income", ">50K", resp, true));
}

TEST_F(CliTest, TopNodesSendsEveryFlagAndPrintsJson) {
  v1::SelectInfluentialNodesRequest sent;
  v1::SelectInfluentialNodesResponse resp;
  resp.add_nodes("34");
  resp.add_nodes("1");
  resp.set_epsilon_charged(2);
  resp.set_request_id("n-1");
  EXPECT_CALL(*buyer_, SelectInfluentialNodes(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(resp),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"top-nodes", "karate", "--k", "2", "--objectives", "degree",
                 "--approach", "pareto", "--sensitivity", "global", "--weights",
                 "1", "--epsilon", "2", "--request-id", "n-1", "--json"}),
            kExitOk)
      << err();
  EXPECT_EQ(sent.dataset_id(), "karate");
  EXPECT_EQ(sent.k(), 2u);
  ASSERT_EQ(sent.objectives_size(), 1);
  EXPECT_EQ(sent.objectives(0), v1::NODE_OBJECTIVE_DEGREE);
  EXPECT_EQ(sent.approach(), v1::SELECTION_APPROACH_PARETO);
  EXPECT_EQ(sent.sensitivity(), v1::SENSITIVITY_MODE_GLOBAL);
  EXPECT_THAT(sent.weights(), ::testing::ElementsAre(1));
  EXPECT_DOUBLE_EQ(sent.epsilon(), 2);
  EXPECT_EQ(out(), R"({"dataset":"karate","nodes":["34","1"],)"
                   R"("epsilon_charged":2,"remaining_budget":0,)"
                   R"("request_id":"n-1","replayed":false})"
                   "\n");
}

TEST_F(CliTest, ReleaseErrorsAreOneLineAndUncertainOnesTellHowToRetry) {
  EXPECT_CALL(*buyer_, ReleaseCuboids(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                                    "three exact cuboids")));
  EXPECT_EQ(Run({"cuboids", "a", "--dims", "X", "--epsilon", "1"}), kExitError);
  EXPECT_THAT(out(), IsEmpty());
  EXPECT_EQ(err(), "dpq: FAILED_PRECONDITION: three exact cuboids\n");

  EXPECT_CALL(*buyer_, TrainDecisionTree(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::UNAVAILABLE, "down")));
  EXPECT_EQ(
      Run({"tree", "a", "--label", "l", "--positive", "p", "--epsilon", "1"}),
      kExitError);
  EXPECT_EQ(err(),
            "dpq: UNAVAILABLE: down (request id dpq-generated: retry with "
            "--request-id dpq-generated to get its answer without a second "
            "charge)\n");

  EXPECT_CALL(*buyer_, SelectInfluentialNodes(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                    "k = 50 exceeds the 34 nodes")));
  EXPECT_EQ(Run({"top-nodes", "g", "--k", "50", "--epsilon", "1",
                 "--request-id", "mine"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: k = 50 exceeds the 34 nodes\n");
}

TEST_F(CliTest, ReleaseUsageErrorsExit2WithoutConnecting) {
  EXPECT_EQ(Run({"tree", "a", "--label", "l", "--positive", "p", "--epsilon",
                 "1", "--approach", "best"}),
            kExitUsage);
  EXPECT_THAT(err(), StartsWith("dpq: --approach must be one of pareto, "
                                "aggregation; got 'best'.\n"
                                "usage: dpq [global flags] tree ID"));
  EXPECT_EQ(
      Run({"top-nodes", "g", "--k", "2", "--epsilon", "1", "--weights", "a,b"}),
      kExitUsage);
  EXPECT_THAT(err(), HasSubstr("--weights expects comma-separated finite "
                               "numbers, got 'a,b'"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, RegisterSendsCubeDeclarationsInTheManifest) {
  const std::string data = TempFile("cube.csv", "Sex,Age\nF,31\n");
  const std::string dc = TempFile("cube.dc", "Sex -> Age\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "cube", "--data", data, "--constraints",
                 dc, "--public-max-rows", "10", "--cube-dimension", "Sex=F|M",
                 "--cube-dimension", "Age:0,30,100", "--public-cuboid", "Sex",
                 "--public-cuboid", "Sex,Age"}),
            kExitOk)
      << err();
  ASSERT_GE(messages.size(), 1u);
  const v1::DatasetManifest& m = messages[0].header().manifest();
  EXPECT_EQ(m.kind(), v1::DATASET_KIND_UNSPECIFIED);
  ASSERT_EQ(m.cube_dimensions_size(), 2);
  EXPECT_EQ(m.cube_dimensions(0).column(), "Sex");
  EXPECT_THAT(m.cube_dimensions(0).domain(), ::testing::ElementsAre("F", "M"));
  EXPECT_EQ(m.cube_dimensions(1).column(), "Age");
  EXPECT_THAT(m.cube_dimensions(1).bin_edges(),
              ::testing::ElementsAre(0, 30, 100));
  ASSERT_EQ(m.public_cuboids_size(), 2);
  EXPECT_THAT(m.public_cuboids(0).dimensions(), ::testing::ElementsAre("Sex"));
  EXPECT_THAT(m.public_cuboids(1).dimensions(),
              ::testing::ElementsAre("Sex", "Age"));
}

TEST_F(CliTest, RegisterAndReplaceSendExactRepair) {
  const std::string data = TempFile("x.csv", "a,b\n1,2\n1,3\n");
  const std::string dc = TempFile("x.dc", "a -> b\n");
  std::vector<v1::RegisterDatasetRequest> registered;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&registered));
  EXPECT_EQ(Run({"admin", "register", "x", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--infer-types", "--exact-repair"}),
            kExitOk)
      << err();
  ASSERT_GE(registered.size(), 1u);
  EXPECT_TRUE(registered[0].header().manifest().exact_repair());

  std::vector<v1::ReplaceDatasetRequest> replaced;
  EXPECT_CALL(*admin_, PrepareAsyncReplaceDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&replaced));
  EXPECT_EQ(Run({"admin", "replace", "x", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--infer-types"}),
            kExitOk)
      << err();
  ASSERT_GE(replaced.size(), 1u);
  EXPECT_FALSE(replaced[0].header().manifest().exact_repair());

  // Graphs have no I_R: refused locally, nothing is sent.
  const int connects = connects_;
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", data,
                 "--node-count", "4", "--exact-repair"}),
            kExitUsage);
  EXPECT_THAT(err(), HasSubstr("--exact-repair applies to tables only"));
  EXPECT_EQ(connects_, connects);
}

TEST_F(CliTest, RegisterGraphSendsKindNodesAndNoConstraints) {
  const std::string edges = TempFile("edges.csv", "source,target\n1,2\n2,3\n");
  const std::string nodes = TempFile("nodes.txt", "1\r\n2\n\n3\n4\n");
  std::vector<v1::RegisterDatasetRequest> messages;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(RecordingUpload(&messages));
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", edges,
                 "--nodes", nodes}),
            kExitOk)
      << err();
  ASSERT_EQ(messages.size(), 2u);
  const v1::DatasetManifest& m = messages[0].header().manifest();
  EXPECT_EQ(m.kind(), v1::DATASET_KIND_GRAPH);
  // One label per line; CR and empty lines dropped; node 4 is isolated.
  EXPECT_THAT(m.node_labels(), ::testing::ElementsAre("1", "2", "3", "4"));
  EXPECT_EQ(m.constraints(), "");
  EXPECT_EQ(m.public_max_rows(), 0u);
  EXPECT_EQ(messages[1].csv_chunk(), "source,target\n1,2\n2,3\n");
}

TEST_F(CliTest, UnparsableUploadReplyIsAnErrorNotAnAbort) {
  // The server registered the dataset but its reply has a string field that
  // is not UTF-8 (a Latin-1 cube label): gRPC's ClientWriter::Finish
  // aborted the process on it (exit 134).
  const std::string data = TempFile("l1.csv", "a,b\n\xff\xfe,2\n1,3\n");
  const std::string dc = TempFile("l1.dc", "a -> b\n");
  RegisterScript script;
  script.reply_parses = false;
  EXPECT_CALL(*admin_, PrepareAsyncRegisterDatasetRaw(_, _, _))
      .WillOnce(Upload(script));
  EXPECT_EQ(Run({"admin", "register", "l1", "--data", data, "--constraints",
                 dc, "--public-max-rows", "9", "--cube-dimension", "a"}),
            kExitError);
  EXPECT_EQ(err(),
            "dpq: INTERNAL: The server reports that RegisterDataset "
            "succeeded, but its answer could not be parsed (for example, a "
            "text field that is not valid UTF-8), so dpq cannot show it.\n");
  EXPECT_THAT(out(), IsEmpty());
}

TEST_F(CliTest, UploadTextFilesMustBeUtf8WithLineAndColumn) {
  const std::string data = TempFile("u.csv", "a,b\n1,2\n");
  const std::string dc = TempFile("u.dc", "a -> b\nb -> \xff\n");
  // StrictMock: nothing is sent (the server used to answer "The upload
  // stream is empty").
  EXPECT_EQ(Run({"admin", "register", "u", "--data", data, "--constraints",
                 dc, "--public-max-rows", "9"}),
            kExitError);
  EXPECT_EQ(err(), "dpq: INVALID_ARGUMENT: " + dc +
                       ":2:6: not valid UTF-8 (byte 0xff); --constraints "
                       "files must be UTF-8 text.\n");
  const std::string schema = TempFile("u.schema", "a: int64\n\xe9: string\n");
  const std::string good_dc = TempFile("u2.dc", "a -> b\n");
  EXPECT_EQ(Run({"admin", "register", "u", "--data", data, "--constraints",
                 good_dc, "--schema", schema, "--public-max-rows", "9"}),
            kExitError);
  EXPECT_THAT(err(), HasSubstr(schema + ":2:1: not valid UTF-8 (byte 0xe9)"));
  const std::string nodes = TempFile("u.nodes", "1\n2\xff\n");
  EXPECT_EQ(Run({"admin", "register", "g", "--kind", "graph", "--data", data,
                 "--nodes", nodes}),
            kExitError);
  EXPECT_THAT(err(), HasSubstr(nodes + ":2:2: not valid UTF-8"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, TextFlagsAndArgumentsMustBeUtf8) {
  const std::string data = TempFile("v.csv", "a,b\n1,2\n");
  const std::string dc = TempFile("v.dc", "a -> b\n");
  EXPECT_EQ(Run({"admin", "register", "v", "--data", data, "--constraints",
                 dc, "--public-max-rows", "9", "--description", "caf\xe9"}),
            kExitUsage);
  EXPECT_THAT(err(), StartsWith("dpq: --description is not valid UTF-8: "
                                "byte 4 is 0xe9.\n"));
  EXPECT_EQ(Run({"describe", "h\xff"}), kExitUsage);
  EXPECT_THAT(err(), StartsWith("dpq: Argument 1 of 'dpq describe' is not "
                                "valid UTF-8: byte 2 is 0xff.\n"));
  EXPECT_EQ(Run({"cuboids", "h", "--dims", "\xff", "--epsilon", "1"}),
            kExitUsage);
  EXPECT_THAT(err(), HasSubstr("--dims is not valid UTF-8"));
  EXPECT_EQ(connects_, 0);
}

TEST_F(CliTest, OwnerTextCannotForgeTableRowsOrDriveTheTerminal) {
  v1::ListDatasetsResponse resp;
  v1::DatasetInfo* d = resp.add_datasets();
  d->set_dataset_id("evil");
  d->set_version(1);
  d->set_public_max_rows(10);
  d->set_description("\x1b[2J\nfake  1  table  10  -  MI  honest data");
  EXPECT_CALL(*buyer_, ListDatasets(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(resp), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"--token", "dpq_t", "datasets"}), kExitOk) << err();
  EXPECT_EQ(out(),
            "ID    VERSION  KIND   MAX_ROWS  ROWS  MEASURES  DESCRIPTION\n"
            "evil  1        table  10        -     -         "
            "\\x1b[2J\\nfake  1  table  10  -  MI  honest data\n");
}

TEST_F(CliTest, ServerErrorMessagesAreEscaped) {
  EXPECT_CALL(*buyer_, DescribeDataset(_, _, _))
      .WillOnce(Return(grpc::Status(grpc::StatusCode::NOT_FOUND,
                                    "No dataset '\x1b]0;owned\x07'\nfake")));
  EXPECT_EQ(Run({"--token", "dpq_t", "describe", "x"}), kExitError);
  EXPECT_EQ(err(),
            "dpq: NOT_FOUND: No dataset '\\x1b]0;owned\\x07' fake\n");
}

}  // namespace
}  // namespace dpq::client
