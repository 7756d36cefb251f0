// RunCli end to end against the generated gMock stubs: usage and help,
// connection options, tokens, error lines and exit statuses, and what no
// command may print (client/cli.h).
#include "client/cli.h"

#include <map>
#include <string>
#include <vector>

#include "client/commands/admin_create_buyer.h"
#include "client/commands/datasets.h"
#include "client/commands/tree.h"
#include "client/commands/upload.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"
#include "tests/client/test_tls_identity.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::grpc::health::v1::HealthCheckResponse;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Invoke;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Return;
using ::testing::SetArgPointee;
using ::testing::StartsWith;

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

// A grpc::Status carrying a google.rpc.Status with an ErrorInfo (and a
// QuotaFailure), as the server sends a refusal (docs/errors.md).
grpc::Status RichBudgetExhausted() {
  google::rpc::Status rich;
  rich.set_code(grpc::StatusCode::RESOURCE_EXHAUSTED);
  rich.set_message("Budget exhausted");
  google::rpc::ErrorInfo info;
  info.set_reason("BUDGET_EXHAUSTED");
  info.set_domain("dpq.v1");
  (*info.mutable_metadata())["dataset_id"] = "hospital";
  (*info.mutable_metadata())["requested_epsilon"] = "1";
  (*info.mutable_metadata())["requested_epsilon_units"] = "1000000000000";
  (*info.mutable_metadata())["remaining_epsilon"] = "0.5";
  rich.add_details()->PackFrom(info);
  google::rpc::QuotaFailure quota;
  quota.add_violations()->set_subject("buyer:alice/dataset:hospital");
  rich.add_details()->PackFrom(quota);
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "Budget exhausted",
                      rich.SerializeAsString());
}

TEST_F(CliTest, ErrorDetailsAddOneLineWithReasonAndAmounts) {
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(Return(RichBudgetExhausted()));
  EXPECT_EQ(Run({"measure", "hospital", "--measure", "mi", "--epsilon", "1",
                 "--request-id", "r1"}),
            kExitError);
  EXPECT_THAT(out(), IsEmpty());
  EXPECT_EQ(err(),
            "dpq: RESOURCE_EXHAUSTED: Budget exhausted\n"
            "dpq: BUDGET_EXHAUSTED: dataset_id=hospital remaining_epsilon=0.5 "
            "requested_epsilon=1\n");
}

TEST_F(CliTest, JsonOutputHasTheErrorAsAnObject) {
  EXPECT_CALL(*buyer_, MeasureInconsistency(_, _, _))
      .WillOnce(Return(RichBudgetExhausted()));
  EXPECT_EQ(Run({"measure", "--json", "hospital", "--measure", "mi",
                 "--epsilon", "1", "--request-id", "r1"}),
            kExitError);
  EXPECT_EQ(out(),
            "{\"error\":{\"code\":\"RESOURCE_EXHAUSTED\",\"message\":"
            "\"Budget exhausted\",\"reason\":\"BUDGET_EXHAUSTED\","
            "\"metadata\":{\"dataset_id\":\"hospital\","
            "\"remaining_epsilon\":\"0.5\",\"requested_epsilon\":\"1\","
            "\"requested_epsilon_units\":\"1000000000000\"},"
            "\"quota_violations\":[{\"subject\":"
            "\"buyer:alice/dataset:hospital\",\"description\":\"\"}],"
            "\"request_id\":\"r1\"}}\n");
  // A plain error (an older server, a proxy) is JSON too.
  EXPECT_CALL(*admin_, ListBuyers(_, _, _))
      .WillOnce(Return(
          grpc::Status(grpc::StatusCode::PERMISSION_DENIED, "admins only")));
  EXPECT_EQ(Run({"admin", "buyers", "--json"}), kExitError);
  EXPECT_EQ(out(),
            "{\"error\":{\"code\":\"PERMISSION_DENIED\",\"message\":"
            "\"admins only\"}}\n");
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

TEST_F(CliTest, TextFlagsAndArgumentsMustBeUtf8) {
  const std::string data = TempFile("v.csv", "a,b\n1,2\n");
  const std::string dc = TempFile("v.dc", "a -> b\n");
  EXPECT_EQ(Run({"admin", "register", "v", "--data", data, "--constraints", dc,
                 "--public-max-rows", "9", "--description", "caf\xe9"}),
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
  EXPECT_EQ(err(), "dpq: NOT_FOUND: No dataset '\\x1b]0;owned\\x07' fake\n");
}

TEST(OutputTest, NotesErrorsTreesAndTokensAreEscaped) {
  dpq::v1::DatasetInfo info;
  info.set_dataset_id("d\x1b");
  dpq::v1::DatasetStats stats;
  stats.set_graph_error("bad\nNote: forged");
  google::protobuf::RepeatedPtrField<std::string> notes;
  notes.Add("n\x1b[2J");
  const std::string upload = UploadText(info, stats, notes, /*replaced=*/false);
  EXPECT_EQ(upload,
            "Registered d\\x1b (version 0): 0 rows, 0 bytes; the conflict "
            "graph failed: bad\\nNote: forged\n"
            "Note: n\\x1b[2J\n");

  dpq::v1::TrainDecisionTreeResponse tree;
  tree.set_tree_text("(x\n)");
  dpq::v1::DecisionTreeNode* root = tree.add_nodes();
  root->set_feature("f\x1b");
  root->set_category("c\xc2\x9b");
  root->set_left(1);
  root->set_right(2);
  tree.add_nodes()->set_leaf(true);
  tree.add_nodes()->set_leaf(true);
  const std::string text = TreeText("d", "l\n", "p\x1b", tree);
  EXPECT_THAT(text, HasSubstr("(x\\n)"));
  EXPECT_THAT(text, HasSubstr("if f\\x1b == \"c\\u009b\":"));
  EXPECT_THAT(text, HasSubstr("+: l\\n == \"p\\u001b\""));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));

  dpq::v1::CreateBuyerResponse created;
  created.mutable_buyer()->set_buyer_id("b\x1b");
  created.set_token("dpq_x\n");
  EXPECT_THAT(CreateBuyerText(created), HasSubstr("b\\x1b"));
  EXPECT_THAT(CreateBuyerText(created), HasSubstr("dpq_x\\n\n"));
}

}  // namespace
}  // namespace dpq::client
