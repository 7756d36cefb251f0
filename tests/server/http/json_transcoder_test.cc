#include "server/http/json_transcoder.h"

#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::server::http {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

TEST(JsonTranscoderTest, QueryParametersSetTypedFieldsByEitherName) {
  v1::GetBudgetRequest request;
  ASSERT_OK(SetFields({{"dataset_id", "hospital"},
                       {"includeHistory", "true"},
                       {"history_limit", "7"}},
                      &request));
  EXPECT_EQ(request.dataset_id(), "hospital");
  EXPECT_TRUE(request.include_history());
  EXPECT_EQ(request.history_limit(), 7u);
  v1::GetBudgetRequest off;
  ASSERT_OK(SetFields({{"include_history", "0"}}, &off));
  EXPECT_FALSE(off.include_history());
}

TEST(JsonTranscoderTest, EnumsRepeatedAndNestedFields) {
  v1::SelectInfluentialNodesRequest request;
  ASSERT_OK(SetFields({{"objectives", "NODE_OBJECTIVE_DEGREE"},
                       {"objectives", "NODE_OBJECTIVE_EGOCENTRIC_DENSITY"},
                       {"weights", "0.5"},
                       {"weights", "2"},
                       {"epsilon", "1.25"}},
                      &request));
  ASSERT_EQ(request.objectives_size(), 2);
  EXPECT_EQ(request.objectives(1), v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY);
  ASSERT_EQ(request.weights_size(), 2);
  EXPECT_EQ(request.weights(1), 2.0);
  EXPECT_EQ(request.epsilon(), 1.25);
  v1::PreviewCostRequest preview;
  ASSERT_OK(SetFields({{"measure_inconsistency.dataset_id", "hospital"},
                       {"measureInconsistency.epsilon", "1"}},
                      &preview));
  EXPECT_EQ(preview.measure_inconsistency().dataset_id(), "hospital");
  EXPECT_EQ(preview.measure_inconsistency().epsilon(), 1.0);
}

TEST(JsonTranscoderTest, BadParametersNameThemselves) {
  v1::GetBudgetRequest request;
  EXPECT_THAT(
      SetFields({{"colour", "red"}}, &request),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'colour'")));
  EXPECT_THAT(
      SetFields({{"include_history", "maybe"}}, &request),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("true or false")));
  EXPECT_THAT(SetFields({{"history_limit", "many"}}, &request),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(SetFields({{"dataset_id", "\xff\xfe"}}, &request),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("UTF-8")));
  v1::PreviewCostRequest preview;
  EXPECT_THAT(
      SetFields({{"measure_inconsistency", "x"}}, &preview),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("message field")));
  EXPECT_THAT(SetFields({{"dataset_id.x", "y"}}, &request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a message field")));
}

TEST(JsonTranscoderTest, BodiesParseStrictly) {
  v1::MeasureInconsistencyRequest request;
  ASSERT_OK(MessageFromJson(
      R"({"dataset_id": "a", "measure": "MEASURE_MI", "epsilon": 0.5,
          "requestId": "r"})",
      &request));
  EXPECT_EQ(request.measure(), v1::MEASURE_MI);
  EXPECT_EQ(request.request_id(), "r");
  EXPECT_THAT(MessageFromJson(R"({"colour": 1})", &request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("dpq.v1.MeasureInconsistencyRequest")));
  EXPECT_THAT(MessageFromJson("{", &request),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  v1::MeasureInconsistencyRequest empty;
  ASSERT_OK(MessageFromJson("  \n", &empty));
  EXPECT_EQ(empty.ByteSizeLong(), 0u);
}

TEST(JsonTranscoderTest, ThePathWinsOverTheBody) {
  ASSERT_OK_AND_ASSIGN(RouteTable table, RouteTable::ForDpqV1());
  ASSERT_OK_AND_ASSIGN(RouteMatch match,
                       table.Find("POST", "/v1/datasets/hospital:measure"));
  ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<google::protobuf::Message> message,
      RequestFromHttp(match, {}, R"({"datasetId": "other", "epsilon": 1})"));
  const auto& request =
      static_cast<const v1::MeasureInconsistencyRequest&>(*message);
  EXPECT_EQ(request.dataset_id(), "hospital");
  EXPECT_EQ(request.epsilon(), 1.0);
  EXPECT_THAT(
      RequestFromHttp(match, {{"epsilon", "1"}}, "{}"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("JSON body")));
  ASSERT_OK_AND_ASSIGN(RouteMatch get,
                       table.Find("GET", "/v1/datasets/hospital/budget"));
  EXPECT_THAT(
      RequestFromHttp(get, {}, R"({"x": 1})"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("takes no body")));
}

TEST(JsonTranscoderTest, ResponsesPrintEveryFieldInCamelCase) {
  v1::MeasureInconsistencyResponse measured;
  measured.set_epsilon_charged_units(1000000000000);
  ASSERT_OK_AND_ASSIGN(const std::string json, JsonFromMessage(measured));
  // int64 as a string, names in lowerCamelCase, zeros printed.
  EXPECT_THAT(json, HasSubstr(R"("epsilonChargedUnits":"1000000000000")"));
  EXPECT_THAT(json, HasSubstr(R"("replayed":false)"));
}

}  // namespace
}  // namespace dpq::server::http
