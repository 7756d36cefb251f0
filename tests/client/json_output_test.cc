// `dpq --json` (client/json_output): protobuf's canonical JSON mapping of
// the response messages, one line, always valid JSON.
#include "client/json_output.h"

#include <string>

#include "core/util/json_writer.h"
#include "dpq/v1/buyer_service.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::HasSubstr;

// `json` is one JSON object (whatever its fields).
bool IsJsonObject(const std::string& json) {
  google::protobuf::Struct any_object;
  return google::protobuf::util::JsonStringToMessage(json, &any_object).ok();
}

v1::MeasureInconsistencyResponse Measure() {
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
  resp.set_remaining_budget(2.5);
  resp.set_request_id("r-1");
  return resp;
}

// As grpcurl prints it: lowerCamelCase names, int64 as strings, enums by
// name; and every field, false and zero included.
TEST(ProtoJsonLineTest, CanonicalProto3MappingWithZeroValues) {
  EXPECT_THAT(
      ProtoJsonLine(Measure()),
      ::dpq::testing::IsOkAndHolds(
          R"({"result":{"measure":"MEASURE_MI","value":"11295","epsilon":1,)"
          R"("theta":100,"bound95":"499","method":"gem",)"
          R"("estimate":"ESTIMATE_LOWER_BOUND","epsilonUnits":"0","lower95":"0",)"
          R"("upper95":"0","upperProved":false,"degreeUpper":"0","truncated":false},"epsilonCharged":1,)"
          R"("remainingBudget":2.5,"requestId":"r-1","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
          "\n"));
  EXPECT_THAT(
      ProtoJsonLine(v1::QualityReportResponse()),
      ::dpq::testing::IsOkAndHolds(
          R"({"results":[],"epsilonCharged":0,"remainingBudget":0,)"
          R"("requestId":"","replayed":false,"epsilonChargedUnits":"0","remainingBudgetUnits":"0"})"
          "\n"));
}

// What dpq prints, another gRPC tool (or a script) reads back unchanged.
TEST(ProtoJsonLineTest, ParsesBackIntoTheSameMessage) {
  const v1::MeasureInconsistencyResponse sent = Measure();
  const absl::StatusOr<std::string> json = ProtoJsonLine(sent);
  ASSERT_TRUE(json.ok()) << json.status();
  v1::MeasureInconsistencyResponse read;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(*json, &read).ok());
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(sent, read));
}

// Text from the server cannot act on a terminal through --json either, and
// the output stays one line of valid JSON. (A reply whose strings are not
// UTF-8 does not parse, so dpq never prints one; should such a message
// reach the printer, protobuf drops the bad bytes.)
TEST(OutputTest, JsonStaysValidForControlsAndInvalidUtf8) {
  v1::ListDatasetsResponse resp;
  v1::DatasetInfo* d = resp.add_datasets();
  d->set_dataset_id("d");
  d->set_description("\x1b[2J\nfake row \xc2\x9b\xff");
  v1::CubeDimensionInfo* dim = d->add_cube_dimensions();
  dim->set_column("a");
  dim->add_labels("\xff\xfe");
  const absl::StatusOr<std::string> json = ProtoJsonLine(resp);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_THAT(*json,
              HasSubstr(R"("description":"\u001b[2J\nfake row \u009b")"));
  EXPECT_THAT(*json, HasSubstr(R"("labels":[""])"));
  // One line, ASCII only here: nothing a terminal or a JSON parser chokes on.
  EXPECT_EQ(json->find('\n'), json->size() - 1);
  for (char c : *json) {
    EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << static_cast<int>(c);
  }
  EXPECT_TRUE(IsJsonObject(*json)) << *json;
}

TEST(ResponseOutputTest, JsonOrTheTable) {
  const v1::MeasureInconsistencyResponse resp = Measure();
  absl::StatusOr<CommandOutput> table =
      ResponseOutput(resp, /*json=*/false, [] { return "table\n"; });
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->text, "table\n");
  absl::StatusOr<CommandOutput> json =
      ResponseOutput(resp, /*json=*/true, [] { return "table\n"; });
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(json->text, *ProtoJsonLine(resp));
}

TEST(JsonLineTest, OneObjectOnOneLine) {
  const std::string line = JsonLine(
      core::util::JsonObjectWriter().Add("dataset", "h\n").Add("cap", 2.5));
  EXPECT_EQ(line, "{\"dataset\":\"h\\n\",\"cap\":2.5}\n");
  EXPECT_TRUE(IsJsonObject(line));
}

}  // namespace
}  // namespace dpq::client
