// Parsing of the cube and selection commands (`dpq cuboids`, `dpq tree`,
// `dpq top-nodes`) and of the cube and graph flags of `dpq admin register`.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/cli_args.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

absl::StatusOr<Invocation> Parse(const std::vector<std::string>& args) {
  return ParseCommandLine(args,
                          [](const std::string&) -> std::optional<std::string> {
                            return std::nullopt;
                          });
}

void ExpectUsageError(const std::vector<std::string>& args,
                      const std::string& fragment) {
  std::string joined;
  for (const std::string& a : args) joined += "[" + a + "]";
  SCOPED_TRACE(joined);
  EXPECT_THAT(Parse(args), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr(fragment)));
}

// --- admin register: cube and graph flags ------------------------------------

TEST(ParseCubeDimensionTest, InferredBinnedAndDeclaredDomains) {
  absl::StatusOr<v1::CubeDimension> inferred = ParseCubeDimension(" Sex ");
  ASSERT_TRUE(inferred.ok()) << inferred.status();
  EXPECT_EQ(inferred->column(), "Sex");
  EXPECT_THAT(inferred->bin_edges(), IsEmpty());
  EXPECT_THAT(inferred->domain(), IsEmpty());

  absl::StatusOr<v1::CubeDimension> binned =
      ParseCubeDimension("Age:0, 30,60,1e2");
  ASSERT_TRUE(binned.ok()) << binned.status();
  EXPECT_EQ(binned->column(), "Age");
  EXPECT_THAT(binned->bin_edges(), ElementsAre(0, 30, 60, 100));
  EXPECT_THAT(binned->domain(), IsEmpty());

  absl::StatusOr<v1::CubeDimension> declared =
      ParseCubeDimension("State=CA | NY|New Mexico");
  ASSERT_TRUE(declared.ok()) << declared.status();
  EXPECT_EQ(declared->column(), "State");
  EXPECT_THAT(declared->domain(), ElementsAre("CA", "NY", "New Mexico"));
  EXPECT_THAT(declared->bin_edges(), IsEmpty());
}

TEST(ParseCubeDimensionTest, MalformedValuesAreUsageErrors) {
  EXPECT_THAT(ParseCubeDimension(""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("expects COL=V1|V2|..., COL:E0,E1,... or "
                                 "COL=*")));
  EXPECT_THAT(ParseCubeDimension(":1,2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--cube-dimension")));
  EXPECT_THAT(
      ParseCubeDimension("Age:0,ten"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Age: bin edge 'ten' is not a finite number")));
  EXPECT_THAT(ParseCubeDimension("Age:0,inf"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("bin edge 'inf'")));
  EXPECT_THAT(
      ParseCubeDimension("Age:"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bin edge ''")));
  EXPECT_THAT(ParseCubeDimension("Sex=F||M"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Sex: empty domain value in 'Sex=F||M'")));
}

TEST(ParseNameListTest, TrimsAndRejectsEmptyItemsAndRepeats) {
  EXPECT_THAT(*ParseNameList("--dims", " Sex, Age ", false),
              ElementsAre("Sex", "Age"));
  EXPECT_THAT(*ParseNameList("--dims", "", true), IsEmpty());
  EXPECT_THAT(ParseNameList("--features", "", false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--features expects a comma-separated list")));
  EXPECT_THAT(ParseNameList("--dims", "A,,B", true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--dims: empty name in 'A,,B'")));
  EXPECT_THAT(ParseNameList("--dims", "A,B,A", true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--dims: 'A' is given twice")));
}

TEST(ParseNumberListTest, FiniteNumbersOnly) {
  EXPECT_THAT(*ParseNumberList("--weights", "1, 0.5,-2"),
              ElementsAre(1, 0.5, -2));
  for (const std::string bad : {"", "1,", "1,x", "nan", "1,inf"}) {
    SCOPED_TRACE(bad);
    EXPECT_THAT(ParseNumberList("--weights", bad),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("--weights expects comma-separated finite "
                                   "numbers")));
  }
}

TEST(ParseRegisterCubeTest, PublicCuboidsAndCubeDimensionsAreRepeatable) {
  absl::StatusOr<Invocation> inv =
      Parse({"admin", "register", "adult", "--data", "a.csv", "--constraints",
             "a.dc", "--public-max-rows", "50000", "--cube-dimension", "Sex",
             "--cube-dimension=Age:0,30,60,100", "--public-cuboid", "Sex",
             "--public-cuboid=Sex,Age", "--kind", "TABLE"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  const UploadArgs& up = inv->upload;
  EXPECT_EQ(up.kind, v1::DATASET_KIND_TABLE);
  ASSERT_EQ(up.cube_dimensions.size(), 2u);
  EXPECT_EQ(up.cube_dimensions[0].column(), "Sex");
  EXPECT_EQ(up.cube_dimensions[1].column(), "Age");
  EXPECT_THAT(up.cube_dimensions[1].bin_edges(), ElementsAre(0, 30, 60, 100));
  ASSERT_EQ(up.public_cuboids.size(), 2u);
  EXPECT_THAT(up.public_cuboids[0], ElementsAre("Sex"));
  EXPECT_THAT(up.public_cuboids[1], ElementsAre("Sex", "Age"));
}

TEST(ParseRegisterCubeTest, GraphNeedsItsNodesButNoConstraintsNorMaxRows) {
  for (const std::string sub : {"register", "replace"}) {
    SCOPED_TRACE(sub);
    absl::StatusOr<Invocation> inv =
        Parse({"admin", sub, "karate", "--kind", "graph", "--data", "e.csv",
               "--node-count", "34"});
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_EQ(inv->upload.kind, v1::DATASET_KIND_GRAPH);
    EXPECT_EQ(inv->upload.data_path, "e.csv");
    EXPECT_EQ(inv->upload.constraints_path, "");
    EXPECT_EQ(inv->upload.public_max_rows, 0u);
    EXPECT_EQ(inv->upload.node_count, 34u);
  }
  absl::StatusOr<Invocation> labels =
      Parse({"admin", "register", "g", "--kind", "graph", "--data", "e.csv",
             "--nodes", "nodes.txt"});
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(labels->upload.nodes_path, "nodes.txt");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data",
                    "e.csv"},
                   "--kind graph needs the node universe");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data",
                    "e.csv", "--node-count", "3", "--nodes", "n.txt"},
                   "--kind graph needs the node universe");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data",
                    "e.csv", "--node-count", "0"},
                   "--node-count must be at least 1");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "5", "--node-count", "3"},
                   "--node-count applies to --kind graph only");
  // Tables: --infer-types, and COL=* asks for a domain from the data.
  absl::StatusOr<Invocation> table = Parse(
      {"admin", "register", "t", "--data", "d", "--constraints", "c",
       "--public-max-rows", "5", "--infer-types", "--cube-dimension", "A=*"});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->upload.infer_types);
  ASSERT_EQ(table->upload.cube_dimensions.size(), 1u);
  EXPECT_TRUE(table->upload.cube_dimensions[0].infer_domain());
  EXPECT_THAT(table->upload.cube_dimensions[0].domain(), IsEmpty());
  // A table still needs both.
  ExpectUsageError({"admin", "register", "t", "--kind", "table", "--data", "d"},
                   "--constraints is required");
}

TEST(ParseRegisterCubeTest, Errors) {
  ExpectUsageError({"admin", "register", "g", "--kind", "tree", "--data", "d"},
                   "--kind must be one of table, graph; got 'tree'");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--public-cuboid", "A"},
                   "--public-cuboid applies to tables only");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--cube-dimension", "A"},
                   "--cube-dimension applies to tables only");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--data", "d",
                    "--constraints", "c"},
                   "--constraints applies to tables only, not to --kind graph");
  ExpectUsageError({"admin", "replace", "g", "--kind", "graph", "--data", "d",
                    "--public-max-rows", "5"},
                   "--public-max-rows applies to tables only");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "4", "--public-cuboid", "A,,B"},
                   "--public-cuboid: empty name");
  ExpectUsageError({"admin", "register", "t", "--data", "d", "--constraints",
                    "c", "--public-max-rows", "4", "--cube-dimension", "A:x"},
                   "bin edge 'x'");
  ExpectUsageError({"admin", "register", "g", "--kind", "graph", "--kind",
                    "graph", "--data", "d"},
                   "--kind is given more than once");
}

// --- cuboids ---------------------------------------------------------------

TEST(ParseCuboidsTest, EveryFlag) {
  absl::StatusOr<Invocation> inv =
      Parse({"cuboids", "adult", "--dims", "Sex,Age", "--dims=Salary",
             "--epsilon", "0.5", "--integral", "--request-id", "c-1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kCuboids);
  EXPECT_EQ(inv->dataset_id, "adult");
  ASSERT_EQ(inv->cuboids.size(), 2u);
  EXPECT_THAT(inv->cuboids[0], ElementsAre("Sex", "Age"));
  EXPECT_THAT(inv->cuboids[1], ElementsAre("Salary"));
  EXPECT_DOUBLE_EQ(inv->epsilon, 0.5);
  EXPECT_TRUE(inv->integral);
  EXPECT_EQ(inv->request_id, "c-1");
}

TEST(ParseCuboidsTest, DefaultsAndTheApexCuboid) {
  absl::StatusOr<Invocation> inv =
      Parse({"cuboids", "adult", "--dims", "", "--epsilon", "1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  ASSERT_EQ(inv->cuboids.size(), 1u);
  EXPECT_THAT(inv->cuboids[0], IsEmpty());
  EXPECT_FALSE(inv->integral);
  EXPECT_EQ(inv->request_id, "");
}

TEST(ParseCuboidsTest, Errors) {
  ExpectUsageError({"cuboids", "adult", "--epsilon", "1"},
                   "dpq cuboids: --dims is required");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex"},
                   "dpq cuboids: --epsilon is required");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex", "--epsilon", "x"},
                   "--epsilon expects a finite number, got 'x'");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex,Sex", "--epsilon", "1"},
                   "--dims: 'Sex' is given twice");
  ExpectUsageError(
      {"cuboids", "adult", "--dims", "Sex", "--epsilon", "1", "--integral=yes"},
      "--integral takes no value");
  ExpectUsageError({"cuboids", "--dims", "Sex", "--epsilon", "1"},
                   "dpq cuboids expects ID");
  ExpectUsageError({"cuboids", "adult", "--dims", "Sex", "--epsilon", "1",
                    "--request-id", ""},
                   "--request-id");
}

// --- tree ------------------------------------------------------------------

TEST(ParseTreeTest, EveryFlag) {
  absl::StatusOr<Invocation> inv = Parse({"tree",
                                          "adult",
                                          "--label",
                                          "income",
                                          "--positive",
                                          ">50K",
                                          "--features",
                                          "age,sex",
                                          "--approach",
                                          "Aggregation",
                                          "--weights",
                                          "1,2.5",
                                          "--sensitivity",
                                          "local",
                                          "--generations",
                                          "20",
                                          "--population=40",
                                          "--accuracy-epsilon",
                                          "0.25",
                                          "--epsilon",
                                          "1",
                                          "--request-id",
                                          "t-1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kTree);
  EXPECT_EQ(inv->dataset_id, "adult");
  EXPECT_EQ(inv->tree.label, "income");
  EXPECT_EQ(inv->tree.positive, ">50K");
  EXPECT_THAT(inv->tree.features, ElementsAre("age", "sex"));
  EXPECT_EQ(inv->selection.approach, v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(inv->selection.weights, ElementsAre(1, 2.5));
  EXPECT_EQ(inv->selection.sensitivity, v1::SENSITIVITY_MODE_LOCAL);
  EXPECT_EQ(inv->tree.generations, 20u);
  EXPECT_EQ(inv->tree.population, 40u);
  EXPECT_DOUBLE_EQ(inv->tree.accuracy_epsilon, 0.25);
  EXPECT_DOUBLE_EQ(inv->epsilon, 1);
  EXPECT_EQ(inv->request_id, "t-1");
}

TEST(ParseTreeTest, DefaultsAreLeftToTheServer) {
  absl::StatusOr<Invocation> inv = Parse({"tree", "adult", "--label", "income",
                                          "--positive", "", "--epsilon", "2"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->tree.positive, "");
  EXPECT_THAT(inv->tree.features, IsEmpty());
  EXPECT_EQ(inv->selection.approach, v1::SELECTION_APPROACH_UNSPECIFIED);
  EXPECT_THAT(inv->selection.weights, IsEmpty());
  EXPECT_EQ(inv->selection.sensitivity, v1::SENSITIVITY_MODE_UNSPECIFIED);
  EXPECT_EQ(inv->tree.generations, 0u);
  EXPECT_EQ(inv->tree.population, 0u);
  EXPECT_DOUBLE_EQ(inv->tree.accuracy_epsilon, 0);
  // Weights with the Pareto approach, or three of them: the server's call.
  EXPECT_TRUE(Parse({"tree", "a", "--label", "l", "--positive", "p",
                     "--weights", "1,2,3", "--epsilon", "1"})
                  .ok());
}

TEST(ParseTreeTest, Errors) {
  const std::vector<std::string> base = {"tree",       "adult",     "--label",
                                         "income",     "--epsilon", "1",
                                         "--positive", "yes"};
  auto with = [&base](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  ExpectUsageError({"tree", "adult", "--positive", "yes", "--epsilon", "1"},
                   "dpq tree: --label is required");
  ExpectUsageError({"tree", "adult", "--label", "income", "--epsilon", "1"},
                   "dpq tree: --positive is required");
  ExpectUsageError({"tree", "adult", "--label", "income", "--positive", "yes"},
                   "dpq tree: --epsilon is required");
  ExpectUsageError(with({"--approach", "lexicographic"}),
                   "--approach must be one of pareto, aggregation; got "
                   "'lexicographic'");
  ExpectUsageError(with({"--sensitivity", "smooth"}),
                   "--sensitivity must be one of global, local; got 'smooth'");
  ExpectUsageError(with({"--weights", "1,heavy"}),
                   "--weights expects comma-separated finite numbers, got "
                   "'1,heavy'");
  ExpectUsageError(with({"--generations", "-1"}),
                   "--generations expects a non-negative integer");
  ExpectUsageError(with({"--population", "1e3"}),
                   "--population expects a non-negative integer");
  ExpectUsageError(with({"--accuracy-epsilon", "lots"}),
                   "--accuracy-epsilon expects a finite number");
  ExpectUsageError(with({"--features", "age,,sex"}), "--features: empty name");
  ExpectUsageError(with({"--k", "3"}), "Unknown flag '--k' for 'dpq tree'");
}

// --- top-nodes -------------------------------------------------------------

TEST(ParseTopNodesTest, EveryFlag) {
  absl::StatusOr<Invocation> inv =
      Parse({"top-nodes", "karate", "--k", "3", "--objectives",
             "egocentric_density,Degree", "--approach", "aggregation",
             "--weights", "0.5,0.5", "--sensitivity", "GLOBAL", "--epsilon",
             "2", "--request-id", "n-1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->command, Command::kTopNodes);
  EXPECT_EQ(inv->dataset_id, "karate");
  EXPECT_EQ(inv->k, 3u);
  EXPECT_THAT(inv->objectives,
              ElementsAre(v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY,
                          v1::NODE_OBJECTIVE_DEGREE));
  EXPECT_EQ(inv->selection.approach, v1::SELECTION_APPROACH_AGGREGATION);
  EXPECT_THAT(inv->selection.weights, ElementsAre(0.5, 0.5));
  EXPECT_EQ(inv->selection.sensitivity, v1::SENSITIVITY_MODE_GLOBAL);
  EXPECT_DOUBLE_EQ(inv->epsilon, 2);
  EXPECT_EQ(inv->request_id, "n-1");
}

TEST(ParseTopNodesTest, DefaultsAndServerSideChecks) {
  absl::StatusOr<Invocation> inv =
      Parse({"top-nodes", "karate", "--k", "0", "--epsilon", "1"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(inv->k, 0u);  // the range of k is the server's to check
  EXPECT_THAT(inv->objectives, IsEmpty());
  EXPECT_EQ(inv->selection.approach, v1::SELECTION_APPROACH_UNSPECIFIED);
}

TEST(ParseTopNodesTest, Errors) {
  ExpectUsageError({"top-nodes", "karate", "--epsilon", "1"},
                   "dpq top-nodes: --k is required");
  ExpectUsageError({"top-nodes", "karate", "--k", "3"},
                   "dpq top-nodes: --epsilon is required");
  ExpectUsageError({"top-nodes", "karate", "--k", "three", "--epsilon", "1"},
                   "--k expects a non-negative integer, got 'three'");
  ExpectUsageError({"top-nodes", "karate", "--k", "3", "--epsilon", "1",
                    "--objectives", "degree,pagerank"},
                   "--objectives must list some of degree, "
                   "egocentric_density; got 'pagerank'");
  ExpectUsageError({"top-nodes", "karate", "--k", "3", "--epsilon", "1",
                    "--approach", "sum"},
                   "--approach must be one of pareto, aggregation");
  ExpectUsageError(
      {"top-nodes", "karate", "--k", "3", "--epsilon", "1", "--weights", ""},
      "--weights expects comma-separated finite numbers");
  ExpectUsageError(
      {"top-nodes", "karate", "--k", "3", "--epsilon", "1", "--label", "x"},
      "Unknown flag '--label' for 'dpq top-nodes'");
}

TEST(ParseReleaseUsageTest, SynopsesNameTheNewFlags) {
  EXPECT_THAT(CommandUsage(Command::kCuboids),
              HasSubstr("cuboids ID --dims A,B [--dims C]... --epsilon E "
                        "[--integral]"));
  EXPECT_THAT(CommandUsage(Command::kTree),
              HasSubstr("[--approach pareto|aggregation]"));
  EXPECT_THAT(CommandUsage(Command::kTopNodes),
              HasSubstr("[--objectives degree,egocentric_density]"));
  EXPECT_THAT(CommandUsage(Command::kAdminRegister),
              HasSubstr("[--public-cuboid A,B]..."));
  EXPECT_THAT(CommandUsage(Command::kAdminRegister),
              HasSubstr("COL=V1|V2|... (declared domain)"));
  EXPECT_THAT(CommandUsage(Command::kAdminRegister),
              HasSubstr("--kind graph: F.csv is an edge list"));
}

}  // namespace
}  // namespace dpq::client
