// BuyerService over a real dpq-server on loopback: the thin gRPC methods,
// the caller identity from bearer tokens, status codes on the wire and
// durability of recorded answers across a restart.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/time.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/testing/server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::buyer {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::TestServer;
using ::testing::DoubleNear;
using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr char kCsv[] =
    "Zip,City\n"
    "10,springfield\n"
    "10,shelbyville\n"
    "10,springfield\n"
    "20,ogdenville\n";

class BuyerGrpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(server_, TestServer::Start());
    ASSERT_THAT(server_->RegisterDataset("zips", kCsv, "Zip -> City", 100),
                IsOk());
    ASSERT_OK_AND_ASSIGN(alice_, server_->CreateBuyer("alice"));
    ASSERT_OK_AND_ASSIGN(bob_, server_->CreateBuyer("bob"));
    ASSERT_THAT(server_->GrantBudget("alice", "zips", 1.0), IsOk());
    ASSERT_THAT(server_->GrantBudget("bob", "zips", 1.0), IsOk());
  }

  grpc::Status Measure(const std::string& token,
                       const v1::MeasureInconsistencyRequest& request,
                       v1::MeasureInconsistencyResponse* response,
                       absl::Duration timeout = absl::Seconds(60)) {
    grpc::ClientContext context;
    TestServer::Authorize(context, token, timeout);
    return server_->BuyerStub()->MeasureInconsistency(&context, request,
                                                      response);
  }

  static v1::MeasureInconsistencyRequest Request(double epsilon,
                                                 const std::string& id) {
    v1::MeasureInconsistencyRequest request;
    request.set_dataset_id("zips");
    request.set_measure(v1::MEASURE_MI);
    request.set_epsilon(epsilon);
    request.set_request_id(id);
    return request;
  }

  std::unique_ptr<TestServer> server_;
  std::string alice_;
  std::string bob_;
};

TEST_F(BuyerGrpcTest, EveryBuyerRpcWorksAndLeaksNoRows) {
  std::vector<std::string> wire;
  auto stub = server_->BuyerStub();
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, alice_);
    v1::ListDatasetsResponse response;
    ASSERT_TRUE(stub->ListDatasets(&context, {}, &response).ok());
    ASSERT_THAT(response.datasets(), SizeIs(1));
    EXPECT_EQ(response.datasets(0).dataset_id(), "zips");
    wire.push_back(response.SerializeAsString());
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, alice_);
    v1::DescribeDatasetRequest request;
    request.set_dataset_id("zips");
    v1::DescribeDatasetResponse response;
    ASSERT_TRUE(stub->DescribeDataset(&context, request, &response).ok());
    EXPECT_EQ(response.dataset().public_max_rows(), 100u);
    EXPECT_EQ(response.dataset().row_count(), 0u);
    wire.push_back(response.SerializeAsString());
  }
  v1::MeasureInconsistencyResponse measured;
  ASSERT_TRUE(Measure(alice_, Request(0.2, "m1"), &measured).ok());
  EXPECT_DOUBLE_EQ(measured.epsilon_charged(), 0.2);
  EXPECT_THAT(measured.remaining_budget(), DoubleNear(0.8, 1e-12));
  wire.push_back(measured.SerializeAsString());
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, alice_);
    v1::QualityReportRequest request;
    request.set_dataset_id("zips");
    request.set_epsilon(0.3);
    request.set_request_id("q1");
    v1::QualityReportResponse response;
    ASSERT_TRUE(stub->QualityReport(&context, request, &response).ok());
    ASSERT_THAT(response.results(), SizeIs(3));
    EXPECT_THAT(response.remaining_budget(), DoubleNear(0.5, 1e-12));
    wire.push_back(response.SerializeAsString());
  }
  {
    grpc::ClientContext context;
    TestServer::Authorize(context, alice_);
    v1::GetBudgetRequest request;
    request.set_include_history(true);
    v1::GetBudgetResponse response;
    ASSERT_TRUE(stub->GetBudget(&context, request, &response).ok());
    ASSERT_THAT(response.budgets(), SizeIs(1));
    EXPECT_EQ(response.budgets(0).buyer_id(), "alice");
    EXPECT_THAT(response.budgets(0).spent(), DoubleNear(0.5, 1e-12));
    ASSERT_THAT(response.history(), SizeIs(2));
    wire.push_back(response.SerializeAsString());
  }
  for (const std::string& bytes : wire) {
    for (const char* cell : {"springfield", "shelbyville", "ogdenville"}) {
      EXPECT_FALSE(absl::StrContains(bytes, cell)) << cell;
    }
  }
}

TEST_F(BuyerGrpcTest, TheTokenDecidesWhoseLedgerIsCharged) {
  v1::MeasureInconsistencyResponse response;
  ASSERT_TRUE(Measure(bob_, Request(0.4, "b"), &response).ok());
  grpc::ClientContext context;
  TestServer::Authorize(context, alice_);
  v1::GetBudgetRequest request;
  request.set_include_history(true);
  v1::GetBudgetResponse budget;
  ASSERT_TRUE(server_->BuyerStub()->GetBudget(&context, request, &budget).ok());
  ASSERT_THAT(budget.budgets(), SizeIs(1));
  EXPECT_EQ(budget.budgets(0).spent(), 0);  // bob's charge is not alice's
  EXPECT_EQ(budget.history_size(), 0);
}

TEST_F(BuyerGrpcTest, StatusCodesOnTheWire) {
  v1::MeasureInconsistencyResponse response;
  // No token.
  {
    grpc::ClientContext context;
    const grpc::Status s = server_->BuyerStub()->MeasureInconsistency(
        &context, Request(0.1, "x"), &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  // A wrong token.
  EXPECT_EQ(Measure("dpq_" + std::string(64, '0'), Request(0.1, "x"), &response)
                .error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // Bad arguments name the field.
  grpc::Status s = Measure(alice_, Request(-1, "x"), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("epsilon"));
  v1::MeasureInconsistencyRequest no_measure = Request(0.1, "x");
  no_measure.set_measure(v1::MEASURE_UNSPECIFIED);
  s = Measure(alice_, no_measure, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("measure"));
  // Unknown dataset.
  v1::MeasureInconsistencyRequest ghost = Request(0.1, "x");
  ghost.set_dataset_id("ghost");
  s = Measure(alice_, ghost, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("ghost"));
  // Over budget, with the remaining budget in the message.
  s = Measure(alice_, Request(1.5, "x"), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("remaining 1"));
  // Reused id with other parameters.
  ASSERT_TRUE(Measure(alice_, Request(0.1, "once"), &response).ok());
  s = Measure(alice_, Request(0.2, "once"), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
}

TEST_F(BuyerGrpcTest, RecordedAnswerSurvivesARestart) {
  v1::MeasureInconsistencyResponse first;
  ASSERT_TRUE(Measure(alice_, Request(0.3, "durable"), &first).ok());
  ASSERT_THAT(server_->Restart(), IsOk());
  v1::MeasureInconsistencyResponse again;
  ASSERT_TRUE(Measure(alice_, Request(0.3, "durable"), &again).ok());
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.epsilon_charged(), 0);
  EXPECT_EQ(again.result().SerializeAsString(),
            first.result().SerializeAsString());
  EXPECT_THAT(again.remaining_budget(), DoubleNear(0.7, 1e-12));
}

}  // namespace
}  // namespace dpq::server::buyer
