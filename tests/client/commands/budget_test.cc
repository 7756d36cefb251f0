// `dpq budget`: flags, the request sent, tables and JSON.
#include "client/commands/budget.h"

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

TEST(ParseBuyerTest, Budget) {
  ParsedLine all({"budget"});
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_NE(all.command<BudgetCommand>(), nullptr);
  EXPECT_EQ(all.command<BudgetCommand>()->request().dataset_id(), "");
  EXPECT_FALSE(all.command<BudgetCommand>()->request().include_history());
  EXPECT_EQ(all.command<BudgetCommand>()->request().history_limit(), 0u);
  ParsedLine one({"budget", "hospital", "--history", "--limit=5"});
  ASSERT_TRUE(one.ok()) << one.status();
  const v1::GetBudgetRequest& request = one.command<BudgetCommand>()->request();
  EXPECT_EQ(request.dataset_id(), "hospital");
  EXPECT_TRUE(request.include_history());
  EXPECT_EQ(request.history_limit(), 5u);
  ExpectUsageError({"budget", "a", "b"},
                   "dpq budget got unexpected argument 'b' (it takes [ID]).");
  ExpectUsageError({"budget", "--limit", "-1"},
                   "--limit expects a non-negative integer, got '-1'");
  ExpectUsageError({"budget", "--limit", "5000000000"},
                   "--limit must be at most");
  ExpectUsageError({"budget", "--history=yes"}, "--history takes no value");
}

TEST(BudgetTextTest, HumanTableWithAndWithoutHistory) {
  const auto resp = AliceBudget();
  EXPECT_EQ(BudgetText(resp, "", false),
            "DATASET   GRANTED  SPENT  RESERVED  REMAINING\n"
            "hospital  3        1      0.5       1.5\n");
  const std::string with_history = BudgetText(resp, "", true);
  EXPECT_THAT(with_history, HasSubstr("History (newest first):\n"
                                      "ENTRY  CREATED               DATASET   "
                                      "OPERATION                          "
                                      "EPSILON  STATE      REQUEST_ID\n"
                                      "7      2024-05-01T12:00:00Z  hospital  "
                                      "MeasureInconsistency MI optimized  1    "
                                      "    COMMITTED  r-1\n"));
}

TEST(BudgetTextTest, EmptyBudgetsSayNoGrant) {
  EXPECT_EQ(BudgetText(dpq::v1::GetBudgetResponse(), "tax", false),
            "No budget granted on tax.\n");
  EXPECT_EQ(BudgetText(dpq::v1::GetBudgetResponse(), "", false),
            "No budget granted on any dataset.\n");
}

// The response as it is: the server sends history only when asked, so it
// is [] otherwise.
TEST(BudgetTextTest, JsonIncludesHistoryOnlyWhenAsked) {
  auto resp = AliceBudget();
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"budgets":[{"buyerId":"alice","datasetId":"hospital","granted":3,)"
      R"("spent":1,"reserved":0.5,"remaining":1.5,"grantedUnits":"0","spentUnits":"0","reservedUnits":"0","remainingUnits":"0"}],"history":[)"
      R"({"entryId":"7","buyerId":"alice","datasetId":"hospital",)"
      R"("requestId":"r-1","operation":"MeasureInconsistency MI optimized",)"
      R"("epsilon":1,"state":"LEDGER_ENTRY_STATE_COMMITTED",)"
      R"("neighbouring":"one row","epsilonUnits":"0","createdAt":"2024-05-01T12:00:00Z",)"
      R"("settledAt":"2024-05-01T12:00:01Z"}]})"
      "\n");
  resp.clear_history();
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"budgets":[{"buyerId":"alice","datasetId":"hospital","granted":3,)"
      R"("spent":1,"reserved":0.5,"remaining":1.5,"grantedUnits":"0","spentUnits":"0","reservedUnits":"0","remainingUnits":"0"}],"history":[]})"
      "\n");
}

// An entry not settled yet has no settledAt (an unset message field).
TEST(LedgerEntryJsonTest, UnsettledEntryHasNoSettledAt) {
  dpq::v1::GetBudgetResponse resp;
  dpq::v1::LedgerEntry* e = resp.add_history();
  e->set_entry_id(1);
  e->set_state(dpq::v1::LEDGER_ENTRY_STATE_RESERVED);
  e->mutable_created_at()->set_seconds(1714564800);
  const std::string json = *ProtoJsonLine(resp);
  EXPECT_THAT(json, Not(HasSubstr("settledAt")));
  EXPECT_THAT(json, HasSubstr(R"("state":"LEDGER_ENTRY_STATE_RESERVED")"));
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
  EXPECT_EQ(out(), *ProtoJsonLine(resp));
}

}  // namespace
}  // namespace dpq::client
