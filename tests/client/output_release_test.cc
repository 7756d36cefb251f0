// Output of the cube and selection commands, and the cube/graph parts of
// `dpq describe`: golden tables and JSON from canned responses.
#include <limits>
#include <string>

#include "absl/strings/str_format.h"
#include "client/output.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::testing::HasSubstr;
using ::testing::Not;

template <typename T>
T FromText(const std::string& text) {
  T message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message))
      << text;
  return message;
}

TEST(FormatCountTest, IntegersExactlyOthersWithTwoDecimals) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(-0.0), "0");
  EXPECT_EQ(FormatCount(12), "12");
  EXPECT_EQ(FormatCount(-3), "-3");
  EXPECT_EQ(FormatCount(1234567), "1234567");
  EXPECT_EQ(FormatCount(12.345), "12.35");
  EXPECT_EQ(FormatCount(-0.5), "-0.50");
  EXPECT_EQ(FormatCount(1e300), absl::StrFormat("%.2f", 1e300));
  EXPECT_EQ(FormatCount(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatCount(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatCount(std::numeric_limits<double>::quiet_NaN()), "nan");
}

TEST(KindNameTest, UnspecifiedIsATable) {
  EXPECT_EQ(KindName(v1::DATASET_KIND_UNSPECIFIED), "table");
  EXPECT_EQ(KindName(v1::DATASET_KIND_TABLE), "table");
  EXPECT_EQ(KindName(v1::DATASET_KIND_GRAPH), "graph");
}

// --- register --------------------------------------------------------------

TEST(UploadTextTest, GraphsCountNodesAndEdges) {
  v1::DatasetInfo info;
  info.set_dataset_id("net");
  info.set_version(1);
  info.set_kind(v1::DATASET_KIND_GRAPH);
  v1::DatasetStats stats;
  stats.set_rows(9);
  stats.set_edges(9);
  stats.set_nodes(8);
  stats.set_csv_bytes(50);
  stats.set_graph_ready(true);
  const google::protobuf::RepeatedPtrField<std::string> no_notes;
  EXPECT_EQ(UploadText(info, stats, no_notes, false, false),
            "Registered net (version 1): a graph with 8 declared nodes and 9 "
            "edges, 50 bytes.\n");
  EXPECT_EQ(
      UploadText(info, stats, no_notes, false, true),
      R"j({"dataset":"net","version":1,"rows":9,"csv_bytes":50,"edges":9,)j"
      R"j("graph_build_seconds":0,"public_max_rows":0,"kind":"graph",)j"
      R"j("nodes":8,"graph_ready":true,"graph_error":"",)j"
      R"j("charge_multiplier":0,"notes":[]})j"
      "\n");
}

TEST(UploadTextTest, TablesShowTheOwnersNotesAndAFailedRebuild) {
  v1::DatasetInfo info;
  info.set_dataset_id("h");
  info.set_version(3);
  v1::DatasetStats stats;
  stats.set_rows(10);
  stats.set_csv_bytes(100);
  stats.set_edges(4);
  google::protobuf::RepeatedPtrField<std::string> notes;
  notes.Add("Column types inferred from the data, now frozen and public: "
            "a int64.");
  EXPECT_EQ(UploadText(info, stats, notes, true, false),
            "Replaced h (version 3): 10 rows, 100 bytes, 4 conflicting pairs; "
            "graph built in 0 s.\nNote: Column types inferred from the data, "
            "now frozen and public: a int64.\n");
  EXPECT_THAT(UploadText(info, stats, notes, true, true),
              HasSubstr(R"("notes":["Column types inferred)"));
  stats.set_graph_error("out of memory");
  EXPECT_EQ(UploadText(info, stats, {}, false, false),
            "Registered h (version 3): 10 rows, 100 bytes; the conflict graph "
            "failed: out of memory\n");
}

TEST(DatasetsTextTest, GraphsShowTheirKindAndNoRowBound) {
  v1::ListDatasetsResponse resp;
  v1::DatasetInfo* net = resp.add_datasets();
  net->set_dataset_id("net");
  net->set_version(1);
  net->set_kind(v1::DATASET_KIND_GRAPH);
  EXPECT_EQ(DatasetsText(resp, false),
            "ID   VERSION  KIND   MAX_ROWS  ROWS  MEASURES  DESCRIPTION\n"
            "net  1        graph  -         -     -         -\n");
}

// --- describe --------------------------------------------------------------

const char kCubeInfo[] = R"pb(
  dataset_id: "adult"
  public_max_rows: 50000
  version: 1
  kind: DATASET_KIND_TABLE
  columns { name: "Sex" type: COLUMN_TYPE_STRING }
  columns { name: "Age" type: COLUMN_TYPE_INT64 }
  constraints: "Sex -> Sex"
  cube_dimensions { column: "Sex" labels: "F" labels: "M" }
  cube_dimensions {
    column: "Age"
    labels: "[0,30)"
    labels: "[30,100]"
    labels: "other"
  }
  public_cuboids {
    dimensions: "Sex"
    cells { values: "F" count: 400 }
    cells { values: "M" count: 600 }
  }
  supported_releases: "ReleaseCuboids"
  supported_releases: "TrainDecisionTree"
)pb";

TEST(DescribeCubeTest, HumanShowsKindDimensionsExactCuboidsAndReleases) {
  v1::DescribeDatasetResponse resp;
  *resp.mutable_dataset() = FromText<v1::DatasetInfo>(kCubeInfo);
  const std::string text = DescribeText(resp, false);
  EXPECT_THAT(text, HasSubstr("kind:             table\n"
                              "privacy unit:     -\n"
                              "releases:         ReleaseCuboids, "
                              "TrainDecisionTree\n"));
  EXPECT_THAT(text, HasSubstr("cube dimensions:\n"
                              "  Sex: F, M\n"
                              "  Age: [0,30), [30,100], other\n"
                              "public exact cuboids:\n"
                              "  1. Sex\n"
                              "     Sex  COUNT\n"
                              "     F    400\n"
                              "     M    600\n"));
}

TEST(DescribeCubeTest, GraphShowsKindPrivacyUnitAndReleasesOnly) {
  v1::DescribeDatasetResponse resp;
  v1::DatasetInfo* d = resp.mutable_dataset();
  d->set_dataset_id("karate");
  d->set_kind(v1::DATASET_KIND_GRAPH);
  d->set_neighbouring("one edge added or removed (edge-DP)");
  d->add_supported_releases("SelectInfluentialNodes");
  const std::string text = DescribeText(resp, false);
  EXPECT_THAT(text, HasSubstr("kind:             graph\n"
                              "privacy unit:     one edge added or removed "
                              "(edge-DP)\n"
                              "releases:         SelectInfluentialNodes\n"));
  // None of a table's parts.
  for (const char* table_part : {"public max rows", "columns:", "constraints:",
                                 "cube dimensions:", "public exact cuboids:"}) {
    EXPECT_THAT(text, Not(HasSubstr(table_part)));
  }
}

TEST(DescribeCubeTest, JsonHasKindDimensionsCuboidsAndReleases) {
  const std::string json =
      DatasetInfoJson(FromText<v1::DatasetInfo>(kCubeInfo));
  EXPECT_THAT(
      json,
      HasSubstr(
          R"j("kind":"table","exact_repair":false,)j"
          R"j("cube_dimensions":[{"column":"Sex","labels":["F","M"]},)j"
          R"j({"column":"Age","labels":["[0,30)","[30,100]","other"]}],)j"
          R"j("public_cuboids":[{"dimensions":["Sex"],"cells":[)j"
          R"j({"values":{"Sex":"F"},"count":400},{"values":{"Sex":"M"},"count":600}]}],)j"
          R"j("supported_releases":["ReleaseCuboids","TrainDecisionTree"]})j"));
}

TEST(DescribeCubeTest, TableWithoutCubeSaysNone) {
  v1::DescribeDatasetResponse resp;
  resp.mutable_dataset()->set_dataset_id("plain");
  EXPECT_THAT(DescribeText(resp, false),
              HasSubstr("cube dimensions:\n  (none)\n"
                        "public exact cuboids:\n  (none)\n"));
}

TEST(CuboidJsonTest, ApexCuboidAndShortCells) {
  v1::Cuboid apex;
  apex.add_cells()->set_count(1000);
  EXPECT_EQ(CuboidJson(apex),
            R"j({"dimensions":[],"cells":[{"values":{},"count":1000}]})j");
  v1::Cuboid short_cell;
  short_cell.add_dimensions("A");
  short_cell.add_dimensions("B");
  short_cell.add_cells()->add_values("a");
  EXPECT_EQ(CuboidJson(short_cell),
            R"j({"dimensions":["A","B"],"cells":[{"values":{"A":"a","B":""},)j"
            R"j("count":0}]})j");
}

// --- cuboids ---------------------------------------------------------------

const char kCuboids[] = R"pb(
  cuboids {
    dimensions: "Sex"
    dimensions: "Age"
    cells { values: "F" values: "[0,30)" count: 101.25 }
    cells { values: "F" values: "other" count: -2 }
    cells { values: "M" values: "[0,30)" count: 99 }
    cells { values: "M" values: "other" count: 0.5 }
  }
  cuboids { cells { count: 1000 } }
  noise_stddev: 2.82843
  noise_stddev: 1.41421
  strategy: "per_cuboid"
  sensitivity: 2
  epsilon_charged: 1
  remaining_budget: 2
  request_id: "c-1"
)pb";

TEST(CuboidsTextTest, HumanTablesPerCuboidThenNoiseAndCharge) {
  const auto resp = FromText<v1::ReleaseCuboidsResponse>(kCuboids);
  EXPECT_EQ(CuboidsText("adult", resp, false),
            "Cuboid 1 of adult: Sex, Age (noise stddev 2.82843 per cell)\n"
            "Sex  Age     COUNT\n"
            "F    [0,30)  101.25\n"
            "F    other   -2\n"
            "M    [0,30)  99\n"
            "M    other   0.50\n"
            "\n"
            "Cuboid 2 of adult: (total) (noise stddev 1.41421 per cell)\n"
            "COUNT\n"
            "1000\n"
            "\n"
            "strategy per cuboid, sensitivity 2; charged epsilon 1, "
            "remaining 2\n"
            "request id: c-1\n");
}

TEST(CuboidsTextTest, JsonCellsCarryTheirDimensionValues) {
  const auto resp = FromText<v1::ReleaseCuboidsResponse>(kCuboids);
  EXPECT_EQ(CuboidsText("adult", resp, true),
            R"j({"dataset":"adult","cuboids":[{"dimensions":["Sex","Age"],)j"
            R"j("noise_stddev":2.82843,"cells":[)j"
            R"j({"values":{"Sex":"F","Age":"[0,30)"},"count":101.25},)j"
            R"j({"values":{"Sex":"F","Age":"other"},"count":-2},)j"
            R"j({"values":{"Sex":"M","Age":"[0,30)"},"count":99},)j"
            R"j({"values":{"Sex":"M","Age":"other"},"count":0.5}]},)j"
            R"j({"dimensions":[],"noise_stddev":1.41421,"cells":[)j"
            R"j({"values":{},"count":1000}]}],)j"
            R"j("strategy":"per_cuboid","sensitivity":2,"epsilon_charged":1,)j"
            R"j("remaining_budget":2,"request_id":"c-1","replayed":false})j"
            "\n");
}

TEST(CuboidsTextTest, MissingStddevIsDashOrNullAndReplayIsExplained) {
  v1::ReleaseCuboidsResponse resp;
  v1::Cuboid* c = resp.add_cuboids();
  c->add_dimensions("Sex");
  v1::CuboidCell* cell = c->add_cells();
  cell->add_values("F");
  cell->set_count(3);
  resp.set_strategy("base_cuboid");
  resp.set_sensitivity(1);
  resp.set_remaining_budget(2);
  resp.set_request_id("c-2");
  resp.set_replayed(true);
  const std::string text = CuboidsText("adult", resp, false);
  EXPECT_THAT(text, HasSubstr("Sex (noise stddev - per cell)\n"));
  EXPECT_THAT(text, HasSubstr("strategy base cuboid, sensitivity 1; charged "
                              "epsilon 0 (recorded answer of an earlier "
                              "call), remaining 2\n"));
  EXPECT_THAT(CuboidsText("adult", resp, true),
              HasSubstr(R"j("noise_stddev":null,)j"));
  EXPECT_THAT(CuboidsText("adult", resp, true),
              HasSubstr(R"j("replayed":true})j"));
}

// --- tree ------------------------------------------------------------------

// (age<=37.5 ? (sex=='Male' ? + : -) : +)
const char kTree[] = R"pb(
  nodes { feature: "age" numeric_test: true threshold: 37.5 left: 1 right: 4 }
  nodes { feature: "sex" category: "Male" left: 2 right: 3 }
  nodes { leaf: true positive: true left: -1 right: -1 }
  nodes { leaf: true positive: false left: -1 right: -1 }
  nodes { leaf: true positive: true left: -1 right: -1 }
  tree_text: "(age<=37.5 ? (sex=='Male' ? + : -) : +)"
  depth: 2
  tpr: 0.8125
  tnr: 0.75
  epsilon_charged: 1.5
  remaining_budget: 0.5
  request_id: "t-1"
)pb";

TEST(TreeRulesTest, IndentedIfElse) {
  const auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(TreeRules(resp.nodes()),
            "if age <= 37.5:\n"
            "  if sex == \"Male\":\n"
            "    +\n"
            "  else:\n"
            "    -\n"
            "else:\n"
            "  +\n");
}

TEST(TreeRulesTest, MalformedTreesDoNotLoop) {
  EXPECT_EQ(TreeRules({}), "(empty tree)\n");
  auto resp = FromText<v1::TrainDecisionTreeResponse>(R"pb(
    nodes { feature: "a" numeric_test: true threshold: 1 left: 0 right: 7 }
  )pb");
  EXPECT_EQ(TreeRules(resp.nodes()),
            "if a <= 1:\n"
            "  <invalid node 0>\n"
            "else:\n"
            "  <invalid node 7>\n");
}

TEST(TreeRulesTest, VeryDeepTreesAreCut) {
  // A chain of 100 inner nodes, each with a leaf on the right.
  v1::TrainDecisionTreeResponse resp;
  for (int i = 0; i < 100; ++i) {
    v1::DecisionTreeNode* inner = resp.add_nodes();
    inner->set_feature("x");
    inner->set_numeric_test(true);
    inner->set_threshold(i);
    inner->set_left(i == 99 ? 200 : 2 * i + 2);
    inner->set_right(2 * i + 1);
    v1::DecisionTreeNode* leaf = resp.add_nodes();
    leaf->set_leaf(true);
  }
  const std::string rules = TreeRules(resp.nodes());
  EXPECT_THAT(rules, HasSubstr(std::string(2 * 64, ' ') +
                               "... (deeper levels omitted; see --json)\n"));
  EXPECT_THAT(rules, Not(HasSubstr("invalid")));
}

TEST(TreeTextTest, HumanShowsCompactFormRulesRatesAndCharge) {
  const auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(TreeText("adult", "income", ">50K", resp, false),
            "Decision tree for adult (depth 2; +: income == \">50K\", -: "
            "otherwise; NULL takes else):\n"
            "(age<=37.5 ? (sex=='Male' ? + : -) : +)\n"
            "\n"
            "if age <= 37.5:\n"
            "  if sex == \"Male\":\n"
            "    +\n"
            "  else:\n"
            "    -\n"
            "else:\n"
            "  +\n"
            "\n"
            "DP accuracy on the training data: TPR 0.8125, TNR 0.75\n"
            "charged epsilon 1.5, remaining 0.5\n"
            "request id: t-1\n");
}

TEST(TreeTextTest, HumanSaysWhenRatesWereNotBought) {
  auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  resp.clear_tpr();
  resp.clear_tnr();
  EXPECT_THAT(TreeText("adult", "income", ">50K", resp, false),
              HasSubstr("TPR/TNR not released (pay for them with "
                        "--accuracy-epsilon)\n"));
}

TEST(TreeTextTest, JsonHasNodesTextAndNullRatesUnlessPaid) {
  auto resp = FromText<v1::TrainDecisionTreeResponse>(kTree);
  EXPECT_EQ(
      TreeText("adult", "income", ">50K", resp, true),
      R"j({"dataset":"adult","label":"income","positive_class":">50K",)j"
      R"j("tree_text":"(age<=37.5 ? (sex=='Male' ? + : -) : +)","depth":2,)j"
      R"j("nodes":[{"leaf":false,"feature":"age","op":"<=","threshold":37.5,)j"
      R"j("left":1,"right":4},{"leaf":false,"feature":"sex","op":"==",)j"
      R"j("category":"Male","left":2,"right":3},{"leaf":true,"positive":true},)j"
      R"j({"leaf":true,"positive":false},{"leaf":true,"positive":true}],)j"
      R"j("tpr":0.8125,"tnr":0.75,"epsilon_charged":1.5,)j"
      R"j("remaining_budget":0.5,"request_id":"t-1","replayed":false})j"
      "\n");
  resp.clear_tpr();
  resp.clear_tnr();
  EXPECT_THAT(TreeText("adult", "income", ">50K", resp, true),
              HasSubstr(R"j("tpr":null,"tnr":null,)j"));
}

// --- top-nodes -------------------------------------------------------------

const char kTopNodes[] = R"pb(
  nodes: "34"
  nodes: "1"
  nodes: "33"
  epsilon_charged: 1
  remaining_budget: 4
  request_id: "n-1"
)pb";

TEST(TopNodesTextTest, HumanRankedTable) {
  const auto resp = FromText<v1::SelectInfluentialNodesResponse>(kTopNodes);
  EXPECT_EQ(TopNodesText("karate", resp, false),
            "Influential nodes of karate (in selection order):\n"
            "RANK  NODE\n"
            "1     34\n"
            "2     1\n"
            "3     33\n"
            "charged epsilon 1, remaining 4\n"
            "request id: n-1\n");
}

TEST(TopNodesTextTest, JsonNodesAreStrings) {
  const auto resp = FromText<v1::SelectInfluentialNodesResponse>(kTopNodes);
  EXPECT_EQ(TopNodesText("karate", resp, true),
            R"j({"dataset":"karate","nodes":["34","1","33"],)j"
            R"j("epsilon_charged":1,"remaining_budget":4,"request_id":"n-1",)j"
            R"j("replayed":false})j"
            "\n");
  EXPECT_EQ(TopNodesText("karate", v1::SelectInfluentialNodesResponse(), true),
            R"j({"dataset":"karate","nodes":[],"epsilon_charged":0,)j"
            R"j("remaining_budget":0,"request_id":"","replayed":false})j"
            "\n");
}

}  // namespace
}  // namespace dpq::client
