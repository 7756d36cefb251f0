// `dpq report`: flags, the request sent, the table and the JSON.
#include "client/commands/report.h"

#include <map>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/parse_testing.h"
#include "tests/client/proto_text_testing.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

TEST(ParseBuyerTest, Report) {
  v1::QualityReportRequest inv =
      ParsedRequest<ReportCommand>({"report", "tax", "--epsilon", "3",
                                    "--method=basic", "--request-id", "q"});
  EXPECT_EQ(inv.dataset_id(), "tax");
  EXPECT_DOUBLE_EQ(inv.epsilon(), 3);
  EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_BASIC);
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(inv.request_id(), "q");
  ExpectUsageError({"report", "tax"}, "dpq report: --epsilon is required");
  ExpectUsageError({"report", "--epsilon", "1"}, "dpq report expects ID");
  ExpectUsageError({"report", "tax", "--epsilon", "1", "--measure", "mi"},
                   "Unknown flag '--measure' for 'dpq report'");
}

TEST(ParseBuyerTest, ReportRepairMethod) {
  v1::QualityReportRequest inv = ParsedRequest<ReportCommand>(
      {"report", "tax", "--epsilon", "3", "--repair-method", "vertex_cover"});
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_VERTEX_COVER);
  EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_UNSPECIFIED);
  inv = ParsedRequest<ReportCommand>({"report", "tax", "--epsilon", "3",
                                      "--method", "gem",
                                      "--repair-method=EXACT"});
  EXPECT_EQ(inv.method(), dpq::v1::SELECTION_METHOD_GEM);
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_EXACT);
  inv = ParsedRequest<ReportCommand>(
      {"report", "tax", "--epsilon", "3", "--repair-method", "cover_bound"});
  EXPECT_EQ(inv.repair_method(), dpq::v1::REPAIR_METHOD_COVER_BOUND);
  // report's --method is the method of I_MI and I_P only.
  ExpectUsageError({"report", "tax", "--epsilon", "3", "--method", "exact"},
                   "--method for mi and p must be one of");
  ExpectUsageError(
      {"report", "tax", "--epsilon", "3", "--repair-method", "basic"},
      "the method for r must be one of cover_bound, exact, vertex_cover; got "
      "'basic'");
  ExpectUsageError({"report", "tax", "--epsilon", "3", "--repair-method"},
                   "--repair-method needs a value");
}

const char kReport[] = R"pb(
  results {
    measure: MEASURE_MI
    value: 100
    epsilon: 0.333333333333333
    theta: 7
    bound95: 40
    method: "gem"
    estimate: ESTIMATE_LOWER_BOUND
    lower95: 60
    upper95: 420
    upper_proved: true
    degree_upper: 30
    truncated: true
  }
  results {
    measure: MEASURE_P
    value: 50
    epsilon: 0.333333333333333
    theta: 7
    bound95: 20
    method: "gem"
    estimate: ESTIMATE_LOWER_BOUND
    lower95: 30
    truncated: true
  }
  results {
    measure: MEASURE_R
    value: 30
    epsilon: 0.333333333333333
    bound95: 9
    method: "exact"
    estimate: ESTIMATE_EXACT
    lower95: 21
    upper95: 39
    upper_proved: true
  }
  epsilon_charged: 1
  remaining_budget: 0
  request_id: "rep"
)pb";

TEST(ReportTextTest, HumanTable) {
  const auto resp = FromText<dpq::v1::QualityReportResponse>(kReport);
  EXPECT_EQ(
      ReportText("h", resp),
      "Quality report for h:\n"
      "MEASURE                         VALUE  95% INTERVAL  COVERS          "
      "                      THETA  EPSILON   METHOD\n"
      "I_MI (conflicting pairs)        100    60 to 420     includes the "
      "possible undercount      7      0.333333  gem\n"
      "I_P (tuples in conflicts)       50     at least 30   no upper limit "
      "known: may undercount  7      0.333333  gem\n"
      "I_R (minimal repair deletions)  30     21 to 39      noise only      "
      "                      -      0.333333  exact\n"
      "charged epsilon 1, remaining 0\n"
      "request id: rep\n");
}

// The row count line: the DP count with its interval, or the owner's, and
// the measures per row.
TEST(ReportTextTest, RowCountAndPerRowValues) {
  auto resp = FromText<dpq::v1::QualityReportResponse>(kReport);
  dpq::v1::RowCount* rows = resp.mutable_row_count();
  rows->set_value(1000);
  rows->set_lower95(970);
  rows->set_upper95(1030);
  rows->set_epsilon(0.1);
  EXPECT_THAT(ReportText("h", resp),
              HasSubstr("rows ~ 1000 (95% interval: 970 to 1030, epsilon "
                        "0.1); per row: MI 0.1, P 0.05, R 0.03\n"));
  rows->set_exact(true);
  EXPECT_THAT(ReportText("h", resp),
              HasSubstr("rows: 1000 (published by the owner); per row: MI "
                        "0.1, P 0.05, R 0.03\n"));
  resp.clear_row_count();
  EXPECT_THAT(ReportText("h", resp), Not(HasSubstr("rows")));
}

TEST(ReportTextTest, Json) {
  const auto resp = FromText<dpq::v1::QualityReportResponse>(kReport);
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"results":[)"
      R"({"measure":"MEASURE_MI","value":"100","epsilon":0.333333333333333,"theta":7,"bound95":"40","method":"gem","estimate":"ESTIMATE_LOWER_BOUND","epsilonUnits":"0",)"
      R"("lower95":"60","upper95":"420","upperProved":true,"degreeUpper":"30","truncated":true},)"
      R"({"measure":"MEASURE_P","value":"50","epsilon":0.333333333333333,"theta":7,"bound95":"20","method":"gem","estimate":"ESTIMATE_LOWER_BOUND","epsilonUnits":"0",)"
      R"("lower95":"30","upper95":"0","upperProved":false,"degreeUpper":"0","truncated":true},)"
      R"({"measure":"MEASURE_R","value":"30","epsilon":0.333333333333333,"theta":0,"bound95":"9","method":"exact","estimate":"ESTIMATE_EXACT","epsilonUnits":"0",)"
      R"("lower95":"21","upper95":"39","upperProved":true,"degreeUpper":"0","truncated":false}],)"
      R"("epsilonCharged":1,"remainingBudget":0,"requestId":"rep","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
      "\n");
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
  EXPECT_EQ(Run({"report", "tax", "--epsilon=3", "--method", "baseline",
                 "--row-count", "--json"}),
            kExitOk);
  EXPECT_TRUE(sent.include_row_count());
  EXPECT_EQ(sent.dataset_id(), "tax");
  EXPECT_DOUBLE_EQ(sent.epsilon(), 3);
  EXPECT_EQ(sent.method(), v1::SELECTION_METHOD_BASELINE);
  EXPECT_EQ(sent.repair_method(), v1::REPAIR_METHOD_UNSPECIFIED);
  EXPECT_EQ(sent.request_id(), "dpq-generated");
  EXPECT_EQ(out(), *ProtoJsonLine(resp));
  EXPECT_THAT(out(), HasSubstr(R"("epsilonCharged":3,"remainingBudget":0)"));
}

TEST_F(CliTest, ReportSendsTheRepairMethodAndShowsWhatEachIntervalCovers) {
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
  EXPECT_EQ(out(), ReportText("tax", resp));
  EXPECT_THAT(out(), HasSubstr("COVERS"));
  EXPECT_THAT(out(),
              HasSubstr("7 to 13       includes the possible overcount"));
  EXPECT_THAT(out(),
              HasSubstr("7 to 30       includes the possible undercount"));
  EXPECT_THAT(out(), HasSubstr("at least 7    no upper limit known"));
}

}  // namespace
}  // namespace dpq::client
