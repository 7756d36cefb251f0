// `dpq measure --preview`, `dpq report --preview`: PreviewCost instead of
// the release, and how its answer reads.
#include "client/commands/preview.h"

#include <string>

#include "client/cli.h"
#include "client/json_output.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/client/cli_test_fixture.h"
#include "tests/client/proto_text_testing.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::_;
using ::testing::DoAll;
using ::testing::HasSubstr;
using ::testing::Return;
using ::testing::SaveArg;
using ::testing::SetArgPointee;

v1::PreviewCostResponse PeopleReportCost() {
  return FromText<v1::PreviewCostResponse>(R"pb(
    epsilon_charged: 1
    epsilon_charged_units: 1000000000000
    charge_multiplier: 2
    charge_basis: "2 x 0.5: the dataset publishes an exact cuboid"
    remaining_budget: 0.75
    remaining_budget_units: 750000000000
    fits_budget: false
    noise {
      measure: MEASURE_MI
      method: "group_bound"
      release_epsilon: 0.133333
      theta_coefficient: 1
    }
    noise {
      measure: MEASURE_P
      method: "group_bound"
      release_epsilon: 0.129167
      theta_coefficient: 1
      sensitivity_constant: 1
    }
    noise {
      measure: MEASURE_R
      method: "cover_bound"
      release_epsilon: 0.166667
      sensitivity_constant: 1
    }
  )pb");
}

TEST(PreviewTextTest, TheChargeThenEachMeasuresNoise) {
  EXPECT_EQ(
      PreviewText(PeopleReportCost()),
      "Would charge epsilon 1 (2 x 0.5: the dataset publishes an exact "
      "cuboid); remaining 0.75: it does not fit. Nothing was charged.\n"
      "I_MI (conflicting pairs), method group_bound: noise scale theta / "
      "0.133333\n"
      "I_P (tuples in conflicts), method group_bound: noise scale (theta + "
      "1) / 0.129167\n"
      "I_R (minimal repair deletions), method cover_bound: noise scale 1 / "
      "0.166667\n"
      "(theta is chosen from the data by the release, which reports it; it "
      "never exceeds the public maximum N.)\n");
}

TEST_F(CliTest, MeasurePreviewSendsPreviewCostAndNoRelease) {
  v1::PreviewCostRequest sent;
  EXPECT_CALL(*buyer_, PreviewCost(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(PeopleReportCost()),
                      Return(grpc::Status::OK)));
  // The StrictMock fails the test on any MeasureInconsistency call.
  EXPECT_EQ(Run({"measure", "people", "--measure", "p", "--epsilon", "0.5",
                 "--preview"}),
            kExitOk);
  ASSERT_TRUE(sent.has_measure_inconsistency());
  EXPECT_EQ(sent.measure_inconsistency().dataset_id(), "people");
  EXPECT_EQ(sent.measure_inconsistency().measure(), v1::MEASURE_P);
  EXPECT_EQ(sent.measure_inconsistency().epsilon(), 0.5);
  EXPECT_THAT(out(), HasSubstr("Would charge epsilon 1 (2 x 0.5"));
}

TEST_F(CliTest, ReportPreviewPrintsTheResponseAsJson) {
  v1::PreviewCostRequest sent;
  EXPECT_CALL(*buyer_, PreviewCost(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&sent), SetArgPointee<2>(PeopleReportCost()),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"report", "people", "--epsilon", "0.5", "--row-count",
                 "--preview", "--json"}),
            kExitOk);
  ASSERT_TRUE(sent.has_quality_report());
  EXPECT_TRUE(sent.quality_report().include_row_count());
  EXPECT_EQ(out(), *ProtoJsonLine(PeopleReportCost()));
}

}  // namespace
}  // namespace dpq::client
