// client/python/tools/dpq_reflect.py (the reflection-driven command-line
// client, docs/reflection.md) under Debian's /usr/bin/python3 against the
// real dpq-server over TLS with the demo dataset registered.

#include <fstream>
#include <string>
#include <vector>

#include "tests/integration/harness.h"

namespace dpq::integration {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPython[] = "/usr/bin/python3";

class DpqReflectTest : public ServerFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(ServerFixture::SetUp());
    ASSERT_THAT(client_->RegisterHospital(admin_token_, "hospital"), GrpcOk());
    const std::string token = NewBuyer("alice", "hospital", 7);
    ASSERT_FALSE(token.empty());
    token_file_ = dir_.Sub("alice.token");
    std::ofstream(token_file_) << token << "\n";
  }

  // dpq_reflect.py --address ADDRESS --ca-file CA args... (no DPQ_TOKEN).
  CommandResult Reflect(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {
        kPython,
        std::string(DPQ_SOURCE_DIR) + "/client/python/tools/dpq_reflect.py",
        "--address",
        server_->address(),
        "--ca-file",
        certs_.ca()};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunCommand(argv, {{"-DPQ_TOKEN", ""}, {"-DPQ_SERVER", ""}});
  }

  std::string token_file_;
};

TEST_F(DpqReflectTest, LsListsTheServicesAndAServicesMethods) {
  CommandResult ls = Reflect({"ls"});
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_THAT(ls.out, HasSubstr("dpq.v1.BuyerService\n"));
  EXPECT_THAT(ls.out, HasSubstr("dpq.v1.AdminService\n"));
  EXPECT_THAT(ls.out, HasSubstr("grpc.reflection.v1.ServerReflection\n"));

  CommandResult methods = Reflect({"ls", "BuyerService"});
  ASSERT_EQ(methods.exit_code, 0) << methods.err;
  EXPECT_THAT(methods.out, HasSubstr("ListDatasets\n"));
  EXPECT_THAT(methods.out, HasSubstr("MeasureInconsistency\n"));
  EXPECT_THAT(methods.out, Not(HasSubstr("RegisterDataset")));
}

TEST_F(DpqReflectTest, DescribeShowsAMessageAndAService) {
  CommandResult message = Reflect({"describe", "dpq.v1.GetBudgetRequest"});
  ASSERT_EQ(message.exit_code, 0) << message.err;
  EXPECT_THAT(message.out, HasSubstr("in dpq/v1/buyer_service.proto"));
  EXPECT_THAT(message.out, HasSubstr("message GetBudgetRequest {\n"));
  EXPECT_THAT(message.out, HasSubstr("  string dataset_id = 1;\n"));

  CommandResult service = Reflect({"describe", "dpq.v1.BuyerService"});
  ASSERT_EQ(service.exit_code, 0) << service.err;
  EXPECT_THAT(service.out,
              HasSubstr("rpc ListDatasets(dpq.v1.ListDatasetsRequest) "
                        "returns (dpq.v1.ListDatasetsResponse);"));

  CommandResult unknown = Reflect({"describe", "dpq.v1.NoSuchThing"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("NOT_FOUND"));
  EXPECT_THAT(unknown.err, HasSubstr("dpq.v1.NoSuchThing"));
}

TEST_F(DpqReflectTest, CallListDatasetsReturnsTheDemoDataset) {
  CommandResult call = Reflect({"--token-file", token_file_, "call",
                                "dpq.v1.BuyerService/ListDatasets", "{}"});
  ASSERT_EQ(call.exit_code, 0) << call.err;
  EXPECT_THAT(call.out, HasSubstr("\"dataset_id\": \"hospital\""));
  EXPECT_THAT(call.out, HasSubstr("\"public_max_rows\": \"2000\""));
  EXPECT_THAT(call.out, Not(HasSubstr(kHospitalCellValue)));

  // The same over v1alpha only, with the short service name.
  CommandResult alpha =
      Reflect({"--reflection", "v1alpha", "--token-file", token_file_, "call",
               "BuyerService/GetBudget", R"({"dataset_id": "hospital"})"});
  ASSERT_EQ(alpha.exit_code, 0) << alpha.err;
  EXPECT_THAT(alpha.out, HasSubstr("\"granted\": 7.0"));
}

TEST_F(DpqReflectTest, BadRequestJsonIsAClearErrorAndNothingIsSent) {
  CommandResult field =
      Reflect({"--token-file", token_file_, "call", "BuyerService/GetBudget",
               R"({"dataset": "hospital"})"});
  EXPECT_EQ(field.exit_code, 2);
  EXPECT_THAT(field.err, HasSubstr("does not fit dpq.v1.GetBudgetRequest"));
  EXPECT_THAT(field.err, HasSubstr("no field named \"dataset\""));

  CommandResult syntax =
      Reflect({"--token-file", token_file_, "call",
               "BuyerService/MeasureInconsistency", R"({"epsilon": )"});
  EXPECT_EQ(syntax.exit_code, 2);
  EXPECT_THAT(syntax.err, HasSubstr("Failed to load JSON"));

  CommandResult method = Reflect(
      {"--token-file", token_file_, "call", "BuyerService/Steal", "{}"});
  EXPECT_EQ(method.exit_code, 2);
  EXPECT_THAT(method.err, HasSubstr("has no method 'Steal'"));

  // Nothing reached the ledger.
  absl::StatusOr<std::vector<v1::LedgerEntry>> ledger =
      client_->Ledger(admin_token_, "alice", "hospital");
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  EXPECT_TRUE(ledger->empty());
}

TEST_F(DpqReflectTest, AFailedCallPrintsItsCodeAndMessage) {
  CommandResult no_token =
      Reflect({"call", "BuyerService/GetBudget", R"({"dataset_id": "x"})"});
  EXPECT_EQ(no_token.exit_code, 1);
  EXPECT_THAT(no_token.err, HasSubstr("ERROR: UNAUTHENTICATED: "));

  // A charged call gets a client-side request id, reported on stderr.
  CommandResult refused = Reflect(
      {"--token-file", token_file_, "call", "BuyerService/MeasureInconsistency",
       R"({"dataset_id": "hospital", "measure": "MEASURE_MI", "epsilon": 100})"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("request_id: rfl-"));
  EXPECT_THAT(refused.err, HasSubstr("ERROR: RESOURCE_EXHAUSTED: "));
}

TEST_F(DpqReflectTest, ReflectionTurnedOffIsReported) {
  StopServer();
  StartServer({"--reflection", "false"});
  CommandResult ls = Reflect({"ls"});
  EXPECT_EQ(ls.exit_code, 1);
  EXPECT_THAT(ls.err, HasSubstr("UNIMPLEMENTED"));
}

}  // namespace
}  // namespace dpq::integration
