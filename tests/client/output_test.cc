#include "client/output.h"

#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace dpq::client {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

template <typename T>
T FromText(const std::string& text) {
  T message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message))
      << text;
  return message;
}

TEST(TextTableTest, AlignsColumnsWithoutTrailingSpaces) {
  TextTable table({"ID", "VALUE"});
  table.AddRow({"hospital", "1"});
  table.AddRow({"a", "12345"});
  EXPECT_EQ(table.Render(),
            "ID        VALUE\n"
            "hospital  1\n"
            "a         12345\n");
}

TEST(TextTableTest, PadsShortRowsAndCountsUtf8AsOneColumn) {
  TextTable table({"\u00b195%", "X"});
  table.AddRow({"1"});
  table.AddRow({"12345", "y"});
  EXPECT_EQ(table.Render(),
            "\u00b195%   X\n"
            "1\n"
            "12345  y\n");
}

TEST(TextTableTest, EscapesControlsSoACellIsOneLine) {
  TextTable table({"ID", "DESCRIPTION"});
  table.AddRow({"evil", "\x1b[2J\nfake row\tx\xc2\x9b\xff"});
  table.AddRow({"Z\xc3\xbcrich", "ok"});
  EXPECT_EQ(table.Render(),
            "ID      DESCRIPTION\n"
            "evil    \\x1b[2J\\nfake row\\tx\\u009b\\xff\n"
            "Z\xc3\xbcrich  ok\n");
}

TEST(DescribeTextTest, OwnerTextIsEscapedEverywhere) {
  const auto resp = FromText<dpq::v1::DescribeDatasetResponse>(R"pb(
    dataset {
      dataset_id: "d"
      description: "line1\nconstraints:\n  1. forged"
      columns { name: "a\033[31m" type: COLUMN_TYPE_STRING }
      constraints: "a -> b\n  2. forged"
      cube_dimensions { column: "a\r" labels: "x\ny" labels: "\302\233" }
      public_cuboids {
        dimensions: "a\t"
        cells { values: "v\n" count: 3 }
      }
    }
  )pb");
  const std::string text = DescribeText(resp, /*json=*/false);
  EXPECT_THAT(text, HasSubstr("description:      line1\\nconstraints:\\n  "
                              "1. forged\n"));
  EXPECT_THAT(text, HasSubstr("  a\\x1b[31m  string\n"));
  EXPECT_THAT(text, HasSubstr("  1. a -> b\\n  2. forged\n"));
  EXPECT_THAT(text, HasSubstr("  a\\r: x\\ny, \\u009b\n"));
  EXPECT_THAT(text, HasSubstr("  1. a\\t\n"));
  EXPECT_THAT(text, HasSubstr("v\\n"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));
  EXPECT_THAT(text, Not(HasSubstr("\r")));
  EXPECT_THAT(text, Not(HasSubstr("\t")));
  EXPECT_THAT(text, Not(HasSubstr("\xc2\x9b")));
  // Exactly one "constraints:" heading and one numbered constraint.
  EXPECT_THAT(text, Not(HasSubstr("\n  2. forged")));
  EXPECT_EQ(text.find("\nconstraints:\n"), text.rfind("\nconstraints:\n"));
}

TEST(OutputTest, NotesErrorsTreesAndTokensAreEscaped) {
  dpq::v1::DatasetInfo info;
  info.set_dataset_id("d\x1b");
  dpq::v1::DatasetStats stats;
  stats.set_graph_error("bad\nNote: forged");
  google::protobuf::RepeatedPtrField<std::string> notes;
  notes.Add("n\x1b[2J");
  const std::string upload =
      UploadText(info, stats, notes, /*replaced=*/false, /*json=*/false);
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
  const std::string text = TreeText("d", "l\n", "p\x1b", tree, false);
  EXPECT_THAT(text, HasSubstr("(x\\n)"));
  EXPECT_THAT(text, HasSubstr("if f\\x1b == \"c\\u009b\":"));
  EXPECT_THAT(text, HasSubstr("+: l\\n == \"p\\u001b\""));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));

  dpq::v1::CreateBuyerResponse created;
  created.mutable_buyer()->set_buyer_id("b\x1b");
  created.set_token("dpq_x\n");
  EXPECT_THAT(CreateBuyerText(created, false), HasSubstr("b\\x1b"));
  EXPECT_THAT(CreateBuyerText(created, false), HasSubstr("dpq_x\\n\n"));
}

TEST(OutputTest, JsonStaysValidForControlsAndInvalidUtf8) {
  dpq::v1::ListDatasetsResponse resp;
  dpq::v1::DatasetInfo* d = resp.add_datasets();
  d->set_dataset_id("d");
  d->set_description("\x1b[2J\nfake row \xff");
  dpq::v1::CubeDimensionInfo* dim = d->add_cube_dimensions();
  dim->set_column("a");
  dim->add_labels("\xff\xfe");
  const std::string json = DatasetsText(resp, /*json=*/true);
  EXPECT_THAT(json, HasSubstr(R"("description":"\u001b[2J\nfake row \ufffd")"));
  EXPECT_THAT(json, HasSubstr(R"("labels":["\ufffd\ufffd"])"));
  // One line, ASCII only here: nothing a terminal or a JSON parser chokes on.
  EXPECT_EQ(json.find('\n'), json.size() - 1);
  for (char c : json) {
    EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << static_cast<int>(c);
  }
}

TEST(FormatRealTest, SixSignificantDigits) {
  EXPECT_EQ(FormatReal(1), "1");
  EXPECT_EQ(FormatReal(0), "0");
  EXPECT_EQ(FormatReal(-0.0), "0");
  EXPECT_EQ(FormatReal(1.0 / 3), "0.333333");
  EXPECT_EQ(FormatReal(2.5), "2.5");
  EXPECT_EQ(FormatReal(1234567.0), "1.23457e+06");
  EXPECT_EQ(FormatReal(0.1 + 0.2), "0.3");
}

TEST(FormatTimestampTest, Rfc3339UtcOrDash) {
  google::protobuf::Timestamp ts;
  EXPECT_EQ(FormatTimestamp(ts), "-");
  ts.set_seconds(1714564800);  // 2024-05-01T12:00:00Z
  EXPECT_EQ(FormatTimestamp(ts), "2024-05-01T12:00:00Z");
}

TEST(NamesTest, MeasuresMethodsTypesStates) {
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_MI), "MI");
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_P), "P");
  EXPECT_EQ(MeasureCode(dpq::v1::MEASURE_R), "R");
  EXPECT_EQ(MeasureLabel(dpq::v1::MEASURE_MI), "I_MI (conflicting pairs)");
  EXPECT_EQ(MethodName(dpq::v1::SELECTION_METHOD_BASELINE), "baseline");
  EXPECT_EQ(MethodName(dpq::v1::SELECTION_METHOD_GEM), "gem");
  EXPECT_EQ(MethodName(dpq::v1::SELECTION_METHOD_UNSPECIFIED), "");
  EXPECT_EQ(ColumnTypeName(dpq::v1::COLUMN_TYPE_DOUBLE), "double");
  EXPECT_EQ(LedgerStateName(dpq::v1::LEDGER_ENTRY_STATE_REFUNDED), "REFUNDED");
}

const char kMeasureMi[] = R"pb(
  result {
    measure: MEASURE_MI
    value: 11295
    epsilon: 1
    theta: 100
    bound95: 499
    method: "gem"
    estimate: ESTIMATE_LOWER_BOUND
  }
  epsilon_charged: 1
  remaining_budget: 2
  request_id: "r-1"
)pb";

TEST(MeasureTextTest, HumanSentence) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  EXPECT_EQ(MeasureText("hospital", resp, false),
            "I_MI (conflicting pairs) ~ 11295 \u00b1 499 (95% noise; "
            "estimates a lower bound: may undercount), theta 100, "
            "method gem; charged epsilon 1, remaining 2\n"
            "request id: r-1\n");
}

TEST(MeasureTextTest, Json) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  EXPECT_EQ(MeasureText("hospital", resp, true),
            R"({"dataset":"hospital","measure":"MI","value":11295,)"
            R"("epsilon_charged":1,"remaining_budget":2,"theta":100,)"
            R"("bound95":499,"method":"gem","estimates":"lower_bound",)"
            R"("request_id":"r-1","replayed":false})"
            "\n");
}

// An exact estimate gets no caveat: the noise is all the error.
TEST(MeasureTextTest, ExactRepairHasNoCaveat) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(R"pb(
    result {
      measure: MEASURE_R
      value: 41
      epsilon: 1
      bound95: 3
      method: "exact"
      estimate: ESTIMATE_EXACT
    }
    epsilon_charged: 1
    remaining_budget: 0
    request_id: "x"
  )pb");
  const std::string human = MeasureText("tax", resp, false);
  EXPECT_EQ(human,
            "I_R (minimal repair deletions) ~ 41 \u00b1 3 (95% noise), method "
            "exact; charged epsilon 1, remaining 0\n"
            "request id: x\n");
  EXPECT_THAT(human, Not(HasSubstr("undercount")));
  EXPECT_THAT(MeasureText("tax", resp, true),
              HasSubstr(R"("method":"exact","estimates":"exact",)"));
  // cover_bound on the same measure: a lower bound, said so.
  auto bound = resp;
  bound.mutable_result()->set_method("cover_bound");
  bound.mutable_result()->set_estimate(dpq::v1::ESTIMATE_LOWER_BOUND);
  EXPECT_THAT(MeasureText("tax", bound, false),
              HasSubstr("(95% noise; estimates a lower bound: may "
                        "undercount), method cover_bound;"));
  EXPECT_THAT(MeasureText("tax", bound, true),
              HasSubstr(R"("estimates":"lower_bound")"));
}

// A server from before the estimate field sends none: nothing is claimed.
TEST(MeasureTextTest, MissingEstimateClaimsNothing) {
  auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(kMeasureMi);
  resp.mutable_result()->clear_estimate();
  EXPECT_THAT(MeasureText("hospital", resp, false),
              HasSubstr("\u00b1 499 (95% noise), theta 100"));
  EXPECT_THAT(MeasureText("hospital", resp, true),
              HasSubstr(R"("estimates":"unspecified")"));
}

TEST(EstimateNamesTest, CodeLabelAndCaveat) {
  EXPECT_EQ(EstimateCode(dpq::v1::ESTIMATE_EXACT), "exact");
  EXPECT_EQ(EstimateCode(dpq::v1::ESTIMATE_LOWER_BOUND), "lower_bound");
  EXPECT_EQ(EstimateCode(dpq::v1::ESTIMATE_UPPER_BOUND), "upper_bound");
  EXPECT_EQ(EstimateCode(dpq::v1::ESTIMATE_UNSPECIFIED), "unspecified");
  EXPECT_EQ(EstimateLabel(dpq::v1::ESTIMATE_EXACT), "exact");
  EXPECT_EQ(EstimateLabel(dpq::v1::ESTIMATE_LOWER_BOUND), "lower bound");
  EXPECT_EQ(EstimateLabel(dpq::v1::ESTIMATE_UPPER_BOUND), "upper bound");
  EXPECT_EQ(EstimateLabel(dpq::v1::ESTIMATE_UNSPECIFIED), "-");
  EXPECT_EQ(EstimateCaveat(dpq::v1::ESTIMATE_EXACT), "");
  EXPECT_EQ(EstimateCaveat(dpq::v1::ESTIMATE_UNSPECIFIED), "");
  EXPECT_THAT(EstimateCaveat(dpq::v1::ESTIMATE_LOWER_BOUND),
              HasSubstr("may undercount"));
  EXPECT_THAT(EstimateCaveat(dpq::v1::ESTIMATE_UPPER_BOUND),
              HasSubstr("may overcount"));
}

TEST(MeasureTextTest, RHasNoThetaAndReplayIsExplained) {
  const auto resp = FromText<dpq::v1::MeasureInconsistencyResponse>(R"pb(
    result {
      measure: MEASURE_R
      value: -3
      epsilon: 0.5
      bound95: 12
      method: "vertex_cover"
      estimate: ESTIMATE_UPPER_BOUND
    }
    epsilon_charged: 0
    remaining_budget: 0.25
    request_id: "again"
    replayed: true
  )pb");
  const std::string human = MeasureText("tax", resp, false);
  EXPECT_EQ(human,
            "I_R (minimal repair deletions) ~ -3 \u00b1 12 (95% noise; "
            "estimates an upper bound: may overcount up to 2x), method "
            "vertex_cover; charged epsilon 0 (recorded answer of an earlier "
            "call), remaining 0.25\n"
            "request id: again\n");
  EXPECT_EQ(MeasureText("tax", resp, true),
            R"({"dataset":"tax","measure":"R","value":-3,)"
            R"("epsilon_charged":0,"remaining_budget":0.25,"theta":null,)"
            R"("bound95":12,"method":"vertex_cover","estimates":"upper_bound",)"
            R"("request_id":"again","replayed":true})"
            "\n");
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
  }
  results {
    measure: MEASURE_P
    value: 50
    epsilon: 0.333333333333333
    theta: 7
    bound95: 20
    method: "gem"
    estimate: ESTIMATE_LOWER_BOUND
  }
  results {
    measure: MEASURE_R
    value: 30
    epsilon: 0.333333333333333
    bound95: 9
    method: "exact"
    estimate: ESTIMATE_EXACT
  }
  epsilon_charged: 1
  remaining_budget: 0
  request_id: "rep"
)pb";

TEST(ReportTextTest, HumanTable) {
  const auto resp = FromText<dpq::v1::QualityReportResponse>(kReport);
  EXPECT_EQ(
      ReportText("h", resp, false),
      "Quality report for h:\n"
      "MEASURE                         VALUE  \u00b195%  ESTIMATES    THETA  "
      "EPSILON   METHOD\n"
      "I_MI (conflicting pairs)        100    40    lower bound  7      "
      "0.333333  gem\n"
      "I_P (tuples in conflicts)       50     20    lower bound  7      "
      "0.333333  gem\n"
      "I_R (minimal repair deletions)  30     9     exact        -      "
      "0.333333  exact\n"
      "charged epsilon 1, remaining 0\n"
      "request id: rep\n");
}

TEST(ReportTextTest, Json) {
  const auto resp = FromText<dpq::v1::QualityReportResponse>(kReport);
  EXPECT_EQ(
      ReportText("h", resp, true),
      R"({"dataset":"h","results":[)"
      R"({"measure":"MI","value":100,"epsilon":0.333333333333333,"theta":7,"bound95":40,"method":"gem","estimates":"lower_bound"},)"
      R"({"measure":"P","value":50,"epsilon":0.333333333333333,"theta":7,"bound95":20,"method":"gem","estimates":"lower_bound"},)"
      R"({"measure":"R","value":30,"epsilon":0.333333333333333,"theta":null,"bound95":9,"method":"exact","estimates":"exact"}],)"
      R"("epsilon_charged":1,"remaining_budget":0,"request_id":"rep","replayed":false})"
      "\n");
}

const char kInfo[] = R"pb(
  dataset_id: "hospital"
  description: "Hospital \"quality\" data"
  columns { name: "zip" type: COLUMN_TYPE_INT64 }
  columns { name: "city" type: COLUMN_TYPE_STRING }
  constraints: "zip -> city"
  public_max_rows: 1000
  supported_measures: MEASURE_MI
  supported_measures: MEASURE_P
  supported_measures: MEASURE_R
  neighbouring: "one row added or removed (unbounded DP)"
  version: 2
  registered_at { seconds: 1714564800 }
)pb";

TEST(DatasetsTextTest, TableHidesRowCountUnlessPublic) {
  dpq::v1::ListDatasetsResponse resp;
  *resp.add_datasets() = FromText<dpq::v1::DatasetInfo>(kInfo);
  dpq::v1::DatasetInfo* tax = resp.add_datasets();
  tax->set_dataset_id("tax");
  tax->set_public_max_rows(200000);
  tax->set_row_count_public(true);
  tax->set_row_count(199999);
  tax->set_version(1);
  EXPECT_EQ(
      DatasetsText(resp, false),
      "ID        VERSION  KIND   MAX_ROWS  ROWS    MEASURES  DESCRIPTION\n"
      "hospital  2        table  1000      -       MI,P,R    Hospital "
      "\"quality\" data\n"
      "tax       1        table  200000    199999  -         -\n");
}

TEST(DatasetsTextTest, JsonEscapesAndUsesNullForPrivateRowCount) {
  dpq::v1::ListDatasetsResponse resp;
  *resp.add_datasets() = FromText<dpq::v1::DatasetInfo>(kInfo);
  EXPECT_EQ(
      DatasetsText(resp, true),
      R"({"datasets":[{"dataset":"hospital","description":"Hospital \"quality\" data",)"
      R"("version":2,"columns":[{"name":"zip","type":"int64"},{"name":"city","type":"string"}],)"
      R"("constraints":["zip -> city"],"public_max_rows":1000,"row_count_public":false,)"
      R"("row_count":null,"supported_measures":["MI","P","R"],)"
      R"j("neighbouring":"one row added or removed (unbounded DP)",)j"
      R"("charge_multiplier":0,)"
      R"("registered_at":"2024-05-01T12:00:00Z","kind":"table",)"
      R"("exact_repair":false,)"
      R"("cube_dimensions":[],"public_cuboids":[],"supported_releases":[]}]})"
      "\n");
  EXPECT_EQ(DatasetsText(dpq::v1::ListDatasetsResponse(), true),
            "{\"datasets\":[]}\n");
}

TEST(DescribeTextTest, HumanListsSchemaAndConstraints) {
  dpq::v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = FromText<dpq::v1::DatasetInfo>(kInfo);
  const std::string text = DescribeText(resp, false);
  EXPECT_THAT(text, HasSubstr("dataset:          hospital\n"));
  EXPECT_THAT(text, HasSubstr("version:          2 (registered "
                              "2024-05-01T12:00:00Z)\n"));
  EXPECT_THAT(text, HasSubstr("public max rows:  1000\n"));
  EXPECT_THAT(text, HasSubstr("row count:        not public\n"));
  EXPECT_THAT(text, HasSubstr("measures:         MI, P, R\n"
                              "I_R released as:  a lower bound (cover_bound: "
                              "clique LP)\n"));
  EXPECT_THAT(text, HasSubstr("  NAME  TYPE\n  zip   int64\n  city  string\n"));
  EXPECT_THAT(text, HasSubstr("constraints:\n  1. zip -> city\n"));
  EXPECT_EQ(DescribeText(resp, true), DatasetInfoJson(resp.dataset()) + "\n");
}

TEST(DescribeTextTest, ExactRepairIsShownInTextAndJson) {
  dpq::v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = FromText<dpq::v1::DatasetInfo>(kInfo);
  resp.mutable_dataset()->set_exact_repair(true);
  EXPECT_THAT(DescribeText(resp, false),
              HasSubstr("I_R released as:  the exact minimum repair (owner's "
                        "exact_repair)\n"));
  EXPECT_THAT(DescribeText(resp, true),
              HasSubstr(R"("kind":"table","exact_repair":true,)"));
  // A graph has no I_R: neither the line nor the JSON field.
  resp.mutable_dataset()->set_kind(dpq::v1::DATASET_KIND_GRAPH);
  EXPECT_THAT(DescribeText(resp, false), Not(HasSubstr("I_R released as")));
  EXPECT_THAT(DescribeText(resp, true), Not(HasSubstr("exact_repair")));
}

const char kBudget[] = R"pb(
  budgets {
    buyer_id: "alice"
    dataset_id: "hospital"
    granted: 3
    spent: 1
    reserved: 0.5
    remaining: 1.5
  }
  history {
    entry_id: 7
    buyer_id: "alice"
    dataset_id: "hospital"
    request_id: "r-1"
    operation: "MeasureInconsistency MI optimized"
    epsilon: 1
    state: LEDGER_ENTRY_STATE_COMMITTED
    created_at { seconds: 1714564800 }
    settled_at { seconds: 1714564801 }
    neighbouring: "one row"
  }
)pb";

TEST(BudgetTextTest, HumanTableWithAndWithoutHistory) {
  const auto resp = FromText<dpq::v1::GetBudgetResponse>(kBudget);
  EXPECT_EQ(BudgetText(resp, "", false, false),
            "DATASET   GRANTED  SPENT  RESERVED  REMAINING\n"
            "hospital  3        1      0.5       1.5\n");
  const std::string with_history = BudgetText(resp, "", true, false);
  EXPECT_THAT(with_history, HasSubstr("History (newest first):\n"
                                      "ENTRY  CREATED               DATASET   "
                                      "OPERATION                          "
                                      "EPSILON  STATE      REQUEST_ID\n"
                                      "7      2024-05-01T12:00:00Z  hospital  "
                                      "MeasureInconsistency MI optimized  1    "
                                      "    COMMITTED  r-1\n"));
}

TEST(BudgetTextTest, EmptyBudgetsSayNoGrant) {
  EXPECT_EQ(BudgetText(dpq::v1::GetBudgetResponse(), "tax", false, false),
            "No budget granted on tax.\n");
  EXPECT_EQ(BudgetText(dpq::v1::GetBudgetResponse(), "", false, false),
            "No budget granted on any dataset.\n");
}

TEST(BudgetTextTest, JsonIncludesHistoryOnlyWhenAsked) {
  const auto resp = FromText<dpq::v1::GetBudgetResponse>(kBudget);
  EXPECT_EQ(BudgetText(resp, "", false, true),
            R"({"budgets":[{"buyer":"alice","dataset":"hospital","granted":3,)"
            R"("spent":1,"reserved":0.5,"remaining":1.5}]})"
            "\n");
  EXPECT_EQ(
      BudgetText(resp, "", true, true),
      R"({"budgets":[{"buyer":"alice","dataset":"hospital","granted":3,)"
      R"("spent":1,"reserved":0.5,"remaining":1.5}],"history":[)"
      R"({"entry_id":7,"buyer":"alice","dataset":"hospital","request_id":"r-1",)"
      R"("operation":"MeasureInconsistency MI optimized","epsilon":1,)"
      R"("state":"COMMITTED","created_at":"2024-05-01T12:00:00Z",)"
      R"("settled_at":"2024-05-01T12:00:01Z","neighbouring":"one row"}]})"
      "\n");
}

TEST(LedgerEntryJsonTest, UnsettledEntryHasNullSettledAt) {
  dpq::v1::LedgerEntry e;
  e.set_entry_id(1);
  e.set_state(dpq::v1::LEDGER_ENTRY_STATE_RESERVED);
  e.mutable_created_at()->set_seconds(1714564800);
  EXPECT_THAT(LedgerEntryJson(e), HasSubstr(R"("settled_at":null)"));
  EXPECT_THAT(LedgerEntryJson(e), HasSubstr(R"("state":"RESERVED")"));
}

TEST(CreateBuyerTextTest, JsonIsExactlyBuyerAndToken) {
  dpq::v1::CreateBuyerResponse resp;
  resp.mutable_buyer()->set_buyer_id("alice");
  resp.mutable_buyer()->mutable_created_at()->set_seconds(1714564800);
  resp.set_token("dpq_0123");
  EXPECT_EQ(CreateBuyerText(resp, true),
            "{\"buyer\":\"alice\",\"token\":\"dpq_0123\"}\n");
  const std::string human = CreateBuyerText(resp, false);
  EXPECT_THAT(human, HasSubstr("Created buyer alice."));
  EXPECT_THAT(human, HasSubstr("shown only once"));
  EXPECT_THAT(human, HasSubstr("\ndpq_0123\n"));
}

TEST(AdminTextTest, UploadDeleteRevokeCap) {
  const auto info = FromText<dpq::v1::DatasetInfo>(kInfo);
  dpq::v1::DatasetStats stats;
  stats.set_rows(1000);
  stats.set_csv_bytes(52000);
  stats.set_edges(11295);
  stats.set_graph_build_seconds(0.125);
  const google::protobuf::RepeatedPtrField<std::string> no_notes;
  EXPECT_EQ(UploadText(info, stats, no_notes, false, false),
            "Registered hospital (version 2): 1000 rows, 52000 bytes, 11295 "
            "conflicting pairs; graph built in 0.125 s.\n");
  EXPECT_THAT(UploadText(info, stats, no_notes, true, false),
              HasSubstr("Replaced hospital (version 2)"));
  EXPECT_EQ(
      UploadText(info, stats, no_notes, false, true),
      R"({"dataset":"hospital","version":2,"rows":1000,"csv_bytes":52000,)"
      R"("edges":11295,"graph_build_seconds":0.125,"public_max_rows":1000,)"
      R"("kind":"table","nodes":0,"graph_ready":false,"graph_error":"",)"
      R"("charge_multiplier":0,"notes":[]})"
      "\n");
  EXPECT_EQ(DeleteText("h", true), "{\"dataset\":\"h\",\"deleted\":true}\n");
  EXPECT_THAT(DeleteText("h", false), HasSubstr("Deleted h"));
  EXPECT_EQ(RevokeBuyerText("bob", true),
            "{\"buyer\":\"bob\",\"revoked\":true}\n");
  EXPECT_EQ(SetCapText("h", 5, true), "{\"dataset\":\"h\",\"cap\":5}\n");
  EXPECT_EQ(SetCapText("h", 5, false),
            "Capped the epsilon of all buyers together on h at 5.\n");
  EXPECT_EQ(SetCapText("h", 0, false), "Removed the cap on h.\n");
}

TEST(AdminTextTest, BudgetChange) {
  dpq::v1::Budget b;
  b.set_buyer_id("alice");
  b.set_dataset_id("h");
  b.set_granted(3);
  b.set_remaining(3);
  EXPECT_EQ(BudgetChangeText(b, false),
            "Budget of alice on h: granted 3, spent 0, reserved 0, remaining "
            "3.\n");
  EXPECT_EQ(BudgetChangeText(b, true),
            R"({"buyer":"alice","dataset":"h","granted":3,"spent":0,)"
            R"("reserved":0,"remaining":3})"
            "\n");
}

TEST(AdminTextTest, AdminDatasetsShowTrueSizes) {
  dpq::v1::AdminListDatasetsResponse resp;
  dpq::v1::AdminDatasetInfo* a = resp.add_datasets();
  *a->mutable_dataset() = FromText<dpq::v1::DatasetInfo>(kInfo);
  a->mutable_stats()->set_rows(998);
  a->mutable_stats()->set_csv_bytes(4096);
  a->mutable_stats()->set_edges(17);
  a->set_cap(0);
  a->set_spent_all_buyers(1.5);
  EXPECT_EQ(AdminDatasetsText(resp, false),
            "ID        VERSION  ROWS  MAX_ROWS  CSV_BYTES  EDGES  CAP   "
            "SPENT_ALL\n"
            "hospital  2        998   1000      4096       17     none  1.5\n");
  EXPECT_EQ(AdminDatasetsText(resp, true),
            R"({"datasets":[{"dataset":"hospital","version":2,"rows":998,)"
            R"("csv_bytes":4096,"edges":17,"graph_build_seconds":0,)"
            R"("public_max_rows":1000,"cap":0,"spent_all_buyers":1.5,)"
            R"("description":"Hospital \"quality\" data"}]})"
            "\n");
}

TEST(AdminTextTest, BuyersLedgerAudit) {
  dpq::v1::ListBuyersResponse buyers;
  dpq::v1::Buyer* b = buyers.add_buyers();
  b->set_buyer_id("alice");
  b->mutable_created_at()->set_seconds(1714564800);
  buyers.add_buyers()->set_buyer_id("bob");
  buyers.mutable_buyers(1)->set_revoked(true);
  EXPECT_EQ(BuyersText(buyers, false),
            "BUYER  CREATED               REVOKED\n"
            "alice  2024-05-01T12:00:00Z  no\n"
            "bob    -                     yes\n");
  EXPECT_EQ(
      BuyersText(buyers, true),
      R"({"buyers":[{"buyer":"alice","created_at":"2024-05-01T12:00:00Z",)"
      R"("revoked":false},{"buyer":"bob","created_at":null,"revoked":true}]})"
      "\n");

  const auto budget = FromText<dpq::v1::GetBudgetResponse>(kBudget);
  dpq::v1::ListLedgerResponse ledger;
  *ledger.mutable_entries() = budget.history();
  *ledger.mutable_budgets() = budget.budgets();
  const std::string human = LedgerText(ledger, false);
  EXPECT_THAT(human, HasSubstr("Budgets:\nBUYER  DATASET   GRANTED"));
  EXPECT_THAT(human, HasSubstr("alice  hospital  3"));
  EXPECT_THAT(human, HasSubstr("Entries (newest first):\nENTRY  CREATED  "));
  const std::string json = LedgerText(ledger, true);
  EXPECT_THAT(json, HasSubstr(R"({"entries":[{"entry_id":7,)"));
  EXPECT_THAT(json, HasSubstr(R"("budgets":[{"buyer":"alice")"));

  dpq::v1::ListAuditLogResponse audit;
  dpq::v1::AuditEntry* e = audit.add_entries();
  e->mutable_time()->set_seconds(1714564800);
  e->set_actor("admin");
  e->set_action("GrantBudget");
  e->set_details("buyer=alice dataset=h epsilon=1");
  EXPECT_EQ(AuditText(audit, false),
            "TIME                  ACTOR  ACTION       DETAILS\n"
            "2024-05-01T12:00:00Z  admin  GrantBudget  buyer=alice dataset=h "
            "epsilon=1\n");
  EXPECT_EQ(
      AuditText(audit, true),
      R"({"entries":[{"time":"2024-05-01T12:00:00Z","actor":"admin",)"
      R"("action":"GrantBudget","details":"buyer=alice dataset=h epsilon=1"}]})"
      "\n");
}

TEST(HealthTextTest, StatusWord) {
  EXPECT_EQ(HealthText("SERVING", false), "SERVING\n");
  EXPECT_EQ(HealthText("NOT_SERVING", true), "{\"status\":\"NOT_SERVING\"}\n");
}

TEST(OutputTest, EmptyResponsesRenderHeaderOrEmptyArrays) {
  EXPECT_EQ(BuyersText(dpq::v1::ListBuyersResponse(), false),
            "BUYER  CREATED  REVOKED\n");
  EXPECT_EQ(LedgerText(dpq::v1::ListLedgerResponse(), true),
            "{\"entries\":[],\"budgets\":[]}\n");
}

}  // namespace
}  // namespace dpq::client
