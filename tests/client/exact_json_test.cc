// Exact epsilon amounts in --json output (client/exact_json).
#include "client/exact_json.h"

#include <string>

#include "client/json_output.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/ledger.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(ExactJsonTest, NumbersWithAUnitsSiblingBecomeExactDecimals) {
  EXPECT_THAT(
      WithExactAmounts(R"({"remaining":15.600000000000001,)"
                       R"("remainingUnits":"15600000000000","n":3})"),
      IsOkAndHolds(R"({"remaining":15.6,"remainingUnits":"15600000000000",)"
                   R"("n":3})"));
  // Nested objects and arrays, the sibling before the number, spaces kept.
  EXPECT_THAT(WithExactAmounts(
                  R"({"budgets": [{"spentUnits": "1", "spent": 1e-12},)"
                  R"( {"spent":2,"spentUnits":"-500000000000"}], "x":[]})"),
              IsOkAndHolds(R"({"budgets": [{"spentUnits": "1", "spent": )"
                           R"(0.000000000001}, {"spent":-0.5,"spentUnits":)"
                           R"("-500000000000"}], "x":[]})"));
  // Far above what a double resolves per unit.
  EXPECT_THAT(WithExactAmounts(R"({"cap":1234.0000000000011,)"
                               R"("capUnits":"1234000000000001"})"),
              IsOkAndHolds(R"({"cap":1234.000000000001,)"
                           R"("capUnits":"1234000000000001"})"));
}

TEST(ExactJsonTest, LeavesEverythingElseAlone) {
  // No sibling, a string value, escapes, a units key of another name.
  const std::string json =
      R"({"value":0.1,"tree":"a\"remainingUnits\":\"1","epsilon":"NaN",)"
      R"("epsilonUnits":"x","ok":true,"none":null})";
  EXPECT_THAT(WithExactAmounts(json), IsOkAndHolds(json));
  // A server without the units fields (units 0 beside a non-zero double).
  const std::string old = R"({"remaining":0.25,"remainingUnits":"0"})";
  EXPECT_THAT(WithExactAmounts(old), IsOkAndHolds(old));
  EXPECT_THAT(WithExactAmounts("{}"), IsOkAndHolds("{}"));
}

TEST(ExactJsonTest, MalformedJsonIsAnInternalError) {
  EXPECT_THAT(WithExactAmounts(R"({"a":1)"),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("byte")));
  EXPECT_THAT(WithExactAmounts(R"({"a")"),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("byte")));
  EXPECT_THAT(WithExactAmounts(R"([1,2)"),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("byte")));
}

// Through protobuf's printer: the response's amounts print exactly.
TEST(ExactJsonTest, ProtoJsonLineShowsExactAmounts) {
  v1::GetBudgetResponse response;
  v1::Budget* b = response.add_budgets();
  b->set_remaining(20.0 - 1 - 1 - 1 - 0.9 - 0.5);  // 15.600000000000001
  b->set_remaining_units(15'600'000'000'000);
  v1::LedgerEntry* e = response.add_history();
  e->set_epsilon(0.9);
  e->set_epsilon_units(900'000'000'000);
  absl::StatusOr<std::string> json = ProtoJsonLine(response);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_THAT(*json, HasSubstr(R"("remaining":15.6,)"));
  EXPECT_THAT(*json, Not(HasSubstr("15.600000000000001")));
  EXPECT_THAT(*json, HasSubstr(R"("epsilon":0.9,)"));
  EXPECT_THAT(*json, HasSubstr(R"("remainingUnits":"15600000000000")"));
}

}  // namespace
}  // namespace dpq::client
