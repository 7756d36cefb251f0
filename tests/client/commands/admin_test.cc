// The smaller admin commands (delete, datasets, revoke-buyer, buyers,
// grant, set-budget, set-cap, ledger, audit): flags, requests, output.
#include <map>
#include <string>
#include <vector>

#include "client/cli.h"
#include "client/commands/admin_audit.h"
#include "client/commands/admin_buyers.h"
#include "client/commands/admin_datasets.h"
#include "client/commands/admin_delete.h"
#include "client/commands/admin_grant.h"
#include "client/commands/admin_ledger.h"
#include "client/commands/admin_revoke_buyer.h"
#include "client/commands/admin_set_budget.h"
#include "client/commands/admin_set_cap.h"
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
using ::testing::StartsWith;

TEST(ParseAdminTest, DeleteDatasetsBuyers) {
  ParsedLine del({"admin", "delete", "h"});
  ASSERT_TRUE(del.ok()) << del.status();
  ASSERT_NE(del.command<AdminDeleteCommand>(), nullptr);
  EXPECT_EQ(del.command<AdminDeleteCommand>()->request().dataset_id(), "h");
  EXPECT_NE(ParsedLine({"admin", "datasets"}).command<AdminDatasetsCommand>(),
            nullptr);
  EXPECT_NE(ParsedLine({"admin", "buyers"}).command<AdminBuyersCommand>(),
            nullptr);
  ExpectUsageError({"admin", "delete"}, "dpq admin delete expects ID");
  ExpectUsageError({"admin", "datasets", "x"},
                   "dpq admin datasets got unexpected argument 'x'.");
}

TEST(ParseAdminTest, CreateAndRevokeBuyer) {
  ParsedLine r({"admin", "revoke-buyer", "alice"});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_NE(r.command<AdminRevokeBuyerCommand>(), nullptr);
  EXPECT_EQ(r.command<AdminRevokeBuyerCommand>()->request().buyer_id(),
            "alice");
  ExpectUsageError({"admin", "revoke-buyer", "a", "b"},
                   "unexpected argument 'b' (it takes NAME)");
}

TEST(ParseAdminTest, GrantSetBudgetSetCap) {
  ParsedLine g({"admin", "grant", "alice", "h", "2.5"});
  ASSERT_TRUE(g.ok()) << g.status();
  const v1::GrantBudgetRequest& grant =
      g.command<AdminGrantCommand>()->request();
  EXPECT_EQ(grant.buyer_id(), "alice");
  EXPECT_EQ(grant.dataset_id(), "h");
  EXPECT_DOUBLE_EQ(grant.epsilon(), 2.5);
  ParsedLine s({"admin", "set-budget", "bob", "tax", "0"});
  ASSERT_TRUE(s.ok()) << s.status();
  const v1::SetBudgetRequest& set =
      s.command<AdminSetBudgetCommand>()->request();
  EXPECT_EQ(set.buyer_id(), "bob");
  EXPECT_EQ(set.dataset_id(), "tax");
  EXPECT_DOUBLE_EQ(set.granted(), 0);
  ParsedLine c({"admin", "set-cap", "tax", "10"});
  ASSERT_TRUE(c.ok()) << c.status();
  const v1::SetDatasetCapRequest& cap =
      c.command<AdminSetCapCommand>()->request();
  EXPECT_EQ(cap.dataset_id(), "tax");
  EXPECT_DOUBLE_EQ(cap.cap(), 10);
  // A negative value is an argument, not a flag (the server checks it).
  ParsedLine negative({"admin", "grant", "alice", "h", "-1"});
  ASSERT_TRUE(negative.ok()) << negative.status();
  EXPECT_DOUBLE_EQ(negative.command<AdminGrantCommand>()->request().epsilon(),
                   -1);
  ExpectUsageError({"admin", "grant", "alice", "h"},
                   "dpq admin grant expects BUYER ID EPS, but alice h was "
                   "given");
  ExpectUsageError({"admin", "grant", "alice", "h", "x"},
                   "EPS expects a finite number, got 'x'");
  ExpectUsageError({"admin", "set-budget", "a", "h", "1", "2"},
                   "unexpected argument '2' (it takes BUYER ID EPS)");
  ExpectUsageError({"admin", "set-cap", "tax"},
                   "dpq admin set-cap expects ID EPS");
  ExpectUsageError({"admin", "set-cap", "tax", "1e999"},
                   "EPS expects a finite number");
}

TEST(ParseAdminTest, LedgerAndAudit) {
  ParsedLine l(
      {"admin", "ledger", "--buyer", "alice", "--dataset=h", "--limit", "20"});
  ASSERT_TRUE(l.ok()) << l.status();
  const v1::ListLedgerRequest& ledger =
      l.command<AdminLedgerCommand>()->request();
  EXPECT_EQ(ledger.buyer_id(), "alice");
  EXPECT_EQ(ledger.dataset_id(), "h");
  EXPECT_EQ(ledger.limit(), 20u);
  ParsedLine all({"admin", "ledger"});
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all.command<AdminLedgerCommand>()->request().buyer_id(), "");
  EXPECT_EQ(all.command<AdminLedgerCommand>()->request().limit(), 0u);
  ParsedLine a({"admin", "audit", "--limit=3"});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a.command<AdminAuditCommand>()->request().limit(), 3u);
  ExpectUsageError({"admin", "ledger", "alice"}, "unexpected argument 'alice'");
  ExpectUsageError({"admin", "audit", "--buyer", "x"},
                   "Unknown flag '--buyer' for 'dpq admin audit'");
  ExpectUsageError({"admin", "audit", "--limit", "1.5"},
                   "--limit expects a non-negative integer, got '1.5'");
}

TEST(AdminTextTest, BudgetChange) {
  dpq::v1::Budget b;
  b.set_buyer_id("alice");
  b.set_dataset_id("h");
  b.set_granted(3);
  b.set_remaining(3);
  EXPECT_EQ(BudgetChangeText(b),
            "Budget of alice on h: granted 3, spent 0, reserved 0, remaining "
            "3.\n");
  v1::GrantBudgetResponse resp;
  *resp.mutable_budget() = b;
  EXPECT_EQ(
      *ProtoJsonLine(resp),
      R"({"budget":{"buyerId":"alice","datasetId":"h","granted":3,)"
      R"("spent":0,"reserved":0,"remaining":3,"grantedUnits":"0","spentUnits":"0","reservedUnits":"0","remainingUnits":"0"}})"
      "\n");
}

TEST(AdminTextTest, AdminDatasetsShowTrueSizes) {
  dpq::v1::AdminListDatasetsResponse resp;
  dpq::v1::AdminDatasetInfo* a = resp.add_datasets();
  *a->mutable_dataset() = HospitalInfo();
  a->mutable_stats()->set_rows(998);
  a->mutable_stats()->set_csv_bytes(4096);
  a->mutable_stats()->set_edges(17);
  a->mutable_stats()->set_release_cost("light");
  a->set_cap(0);
  a->set_spent_all_buyers(1.5);
  EXPECT_EQ(AdminDatasetsText(resp),
            "ID        VERSION  ROWS  MAX_ROWS  CSV_BYTES  EDGES  COST   CAP   "
            "SPENT_ALL\n"
            "hospital  2        998   1000      4096       17     light  none  "
            "1.5\n");
  const std::string json = *ProtoJsonLine(resp);
  EXPECT_THAT(json, StartsWith(R"({"datasets":[{"dataset":{)"
                               R"("datasetId":"hospital",)"));
  EXPECT_THAT(
      json,
      HasSubstr(
          R"("stats":{"rows":"998","csvBytes":"4096",)"
          R"("edges":"17","graphBuildSeconds":0,)"
          R"("graphReady":false,"graphError":"",)"
          R"("nodes":"0","releaseCost":"light"},"cap":0,"spentAllBuyers":1.5,"capUnits":"0","spentAllBuyersUnits":"0"}],)"
          R"("nextPageToken":""})"));
}

TEST(AdminTextTest, BuyersLedgerAudit) {
  dpq::v1::ListBuyersResponse buyers;
  dpq::v1::Buyer* b = buyers.add_buyers();
  b->set_buyer_id("alice");
  b->mutable_created_at()->set_seconds(1714564800);
  buyers.add_buyers()->set_buyer_id("bob");
  buyers.mutable_buyers(1)->set_revoked(true);
  EXPECT_EQ(BuyersText(buyers),
            "BUYER  CREATED               REVOKED\n"
            "alice  2024-05-01T12:00:00Z  no\n"
            "bob    -                     yes\n");
  // bob has no createdAt: an unset Timestamp is left out.
  EXPECT_EQ(
      *ProtoJsonLine(buyers),
      R"({"buyers":[{"buyerId":"alice","revoked":false,)"
      R"("createdAt":"2024-05-01T12:00:00Z"},{"buyerId":"bob","revoked":true}]})"
      "\n");

  const auto budget = AliceBudget();
  dpq::v1::ListLedgerResponse ledger;
  *ledger.mutable_entries() = budget.history();
  *ledger.mutable_budgets() = budget.budgets();
  const std::string human = LedgerText(ledger);
  EXPECT_THAT(human, HasSubstr("Budgets:\nBUYER  DATASET   GRANTED"));
  EXPECT_THAT(human, HasSubstr("alice  hospital  3"));
  EXPECT_THAT(human, HasSubstr("Entries (newest first):\nENTRY  CREATED  "));
  const std::string ledger_json = *ProtoJsonLine(ledger);
  EXPECT_THAT(ledger_json, HasSubstr(R"({"entries":[{"entryId":"7",)"));
  EXPECT_THAT(ledger_json, HasSubstr(R"("budgets":[{"buyerId":"alice")"));

  dpq::v1::ListAuditLogResponse audit;
  dpq::v1::AuditEntry* e = audit.add_entries();
  e->mutable_time()->set_seconds(1714564800);
  e->set_actor("admin");
  e->set_action("GrantBudget");
  e->set_details("buyer=alice dataset=h epsilon=1");
  EXPECT_EQ(AuditText(audit),
            "TIME                  ACTOR  ACTION       DETAILS\n"
            "2024-05-01T12:00:00Z  admin  GrantBudget  buyer=alice dataset=h "
            "epsilon=1\n");
  EXPECT_EQ(*ProtoJsonLine(audit),
            R"({"entries":[{"actor":"admin","action":"GrantBudget",)"
            R"("details":"buyer=alice dataset=h epsilon=1",)"
            R"("time":"2024-05-01T12:00:00Z"}],"nextPageToken":""})"
            "\n");
}

TEST(OutputTest, EmptyResponsesRenderHeaderOrEmptyArrays) {
  EXPECT_EQ(BuyersText(dpq::v1::ListBuyersResponse()),
            "BUYER  CREATED  REVOKED\n");
  EXPECT_EQ(*ProtoJsonLine(dpq::v1::ListLedgerResponse()),
            "{\"entries\":[],\"budgets\":[],\"nextPageToken\":\"\"}\n");
}

TEST_F(CliTest, RevokeDeleteBuyersDatasetsAudit) {
  v1::RevokeBuyerRequest revoke;
  EXPECT_CALL(*admin_, RevokeBuyer(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&revoke), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "revoke-buyer", "bob"}), kExitOk);
  EXPECT_EQ(revoke.buyer_id(), "bob");
  EXPECT_EQ(out(), "Revoked buyer bob (its ledger entries are kept).\n");

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
  EXPECT_EQ(out(), BuyersText(buyers));

  v1::AdminListDatasetsResponse datasets;
  datasets.add_datasets()->mutable_stats()->set_rows(998);
  EXPECT_CALL(*admin_, ListDatasets(_, _, _))
      .WillOnce(DoAll(SetArgPointee<2>(datasets), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "datasets", "--json"}), kExitOk);
  EXPECT_THAT(out(), HasSubstr("\"rows\":\"998\""));

  v1::ListAuditLogRequest audit;
  EXPECT_CALL(*admin_, ListAuditLog(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&audit), Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "audit", "--limit", "4"}), kExitOk);
  EXPECT_EQ(audit.limit(), 4u);
  EXPECT_EQ(out(), "TIME  ACTOR  ACTION  DETAILS\n");
}

// delete, revoke-buyer and set-cap answer an empty message: their JSON is a
// small object of dpq's own, their text a sentence.
TEST(AdminTextTest, DeleteRevokeCap) {
  EXPECT_EQ(SetCapText("h", 5),
            "Capped the epsilon of all buyers together on h at 5.\n");
  EXPECT_EQ(SetCapText("h", 0), "Removed the cap on h.\n");
  EXPECT_EQ(SetCapText("h\x1b", 0), "Removed the cap on h\\x1b.\n");
}

TEST_F(CliTest, DeleteAndRevokePrintWhatTheyDid) {
  EXPECT_CALL(*admin_, DeleteDataset(_, _, _))
      .WillOnce(Return(grpc::Status::OK));
  EXPECT_EQ(Run({"admin", "delete", "h"}), kExitOk);
  EXPECT_EQ(out(), "Deleted h (its ledger entries are kept).\n");
  EXPECT_CALL(*admin_, RevokeBuyer(_, _, _)).WillOnce(Return(grpc::Status::OK));
  EXPECT_EQ(Run({"--json", "admin", "revoke-buyer", "bob"}), kExitOk);
  EXPECT_EQ(out(), "{\"buyer\":\"bob\",\"revoked\":true}\n");
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
  EXPECT_EQ(out(), "{\"entries\":[],\"budgets\":[],\"nextPageToken\":\"\"}\n");
}

// Pages: the token and the action filter are sent; a page with older
// entries says how to ask for them.
TEST_F(CliTest, LedgerAndAuditPageAndFilter) {
  v1::ListLedgerRequest ledger;
  v1::ListLedgerResponse ledger_page;
  ledger_page.set_next_page_token("41");
  EXPECT_CALL(*admin_, ListLedger(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&ledger), SetArgPointee<2>(ledger_page),
                      Return(grpc::Status::OK)));
  EXPECT_EQ(Run({"admin", "ledger", "--limit", "1", "--page-token", "57"}),
            kExitOk);
  EXPECT_EQ(ledger.page_token(), "57");
  EXPECT_THAT(out(), HasSubstr("Older entries: the same command with "
                               "--page-token 41\n"));

  v1::ListAuditLogRequest audit;
  EXPECT_CALL(*admin_, ListAuditLog(_, _, _))
      .WillOnce(DoAll(SaveArg<1>(&audit), Return(grpc::Status::OK)));
  EXPECT_EQ(
      Run({"admin", "audit", "--action", "GrantBudget", "--page-token", "9"}),
      kExitOk);
  EXPECT_EQ(audit.action(), "GrantBudget");
  EXPECT_EQ(audit.page_token(), "9");
  EXPECT_THAT(out(), Not(HasSubstr("Older entries")));
}

}  // namespace
}  // namespace dpq::client
