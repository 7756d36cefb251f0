// Registry: graph datasets (edge lists, edge-DP) and the data cube of
// tables (declared or inferred dimensions, public exact cuboids).
#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/dataset_registry.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A triangle a-b-c plus a pendant d on c; one duplicate (b,a) and one
// self-loop, both dropped by the reader.
constexpr char kEdges[] =
    "source,target\n"
    "a,b\n"
    "b,c\n"
    "c,a\n"
    "c,d\n"
    "b,a\n"
    "d,d\n";

// Sex x Age: 3 rows F/young, M/young, M/old; DC Sex -> Age is violated by
// the two M rows.
constexpr char kPeople[] =
    "Sex,Age,Score\n"
    "F,young,1.5\n"
    "M,young,2.5\n"
    "M,old,7.0\n";

class DatasetKindsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.data_dir = dir_.string();
    options_.graph_threads = 1;
  }

  std::unique_ptr<DatasetRegistry> OpenRegistry() {
    absl::StatusOr<std::unique_ptr<DatasetRegistry>> r =
        DatasetRegistry::Open(options_);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? *std::move(r) : nullptr;
  }

  // The node universe a, b, c, d is declared by the owner.
  static v1::DatasetManifest GraphManifest(const std::string& id = "net") {
    v1::DatasetManifest m;
    m.set_dataset_id(id);
    m.set_description("a small network");
    m.set_kind(v1::DATASET_KIND_GRAPH);
    for (const char* node : {"a", "b", "c", "d"}) m.add_node_labels(node);
    return m;
  }

  static v1::DatasetManifest PeopleManifest() {
    v1::DatasetManifest m;
    m.set_dataset_id("people");
    m.set_constraints("Sex -> Age\n");
    m.set_public_max_rows(10);
    m.set_infer_column_types(true);
    return m;
  }

  TempDir temp_dir_{"dpq-kinds"};
  const fs::path dir_{temp_dir_.path()};
  DatasetRegistry::Options options_;
};

TEST_F(DatasetKindsTest, GraphDatasetIsAnEdgeListWithEdgeNeighbours) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(GraphManifest(), kEdges));
  EXPECT_TRUE(d->is_graph());
  EXPECT_EQ(d->edge_graph.graph.num_nodes(), 4u);
  EXPECT_EQ(d->edge_graph.graph.num_edges(), 4u);
  const v1::DatasetInfo info = d->PublicInfo();
  EXPECT_EQ(info.kind(), v1::DATASET_KIND_GRAPH);
  EXPECT_EQ(info.neighbouring(), "one edge added or removed (edge-DP)");
  EXPECT_THAT(info.supported_releases(), ElementsAre("SelectInfluentialNodes"));
  EXPECT_EQ(info.supported_measures_size(), 0);
  EXPECT_EQ(info.columns_size(), 0);
  const v1::DatasetStats stats = d->Stats();
  EXPECT_EQ(stats.nodes(), 4u);
  EXPECT_EQ(stats.edges(), 4u);
  EXPECT_TRUE(stats.graph_ready());
  // No temporary upload file is left in the data directory.
  for (const auto& e : fs::directory_iterator(dir_ / "datasets")) {
    EXPECT_EQ(e.path().filename().string(), "net");
  }
}

// docs/privacy.md 1.2 (finding 1 of section 7): under edge-DP the node set
// must not come from the edges. Removing the only edge of d (a degree-1
// node) keeps d in the graph, and an isolated declared node is a node with
// degree 0.
TEST_F(DatasetKindsTest, NodeUniverseIsDeclaredNotReadOffTheEdges) {
  auto registry = OpenRegistry();
  v1::DatasetManifest with_e = GraphManifest();
  with_e.add_node_labels("e");  // isolated
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(with_e, kEdges));
  // Neighbour: the edge c-d removed.
  v1::DatasetManifest neighbour = with_e;
  neighbour.set_dataset_id("net2");
  ASSERT_OK_AND_ASSIGN(
      auto d2, registry->Register(neighbour, "source,target\na,b\nb,c\nc,a\n"));
  for (const auto& g : {d, d2}) {
    EXPECT_EQ(g->edge_graph.graph.num_nodes(), 5u);
    EXPECT_THAT(g->edge_graph.labels, ElementsAre("a", "b", "c", "d", "e"));
    EXPECT_EQ(g->PublicInfo().node_count(), 5u);
  }
  EXPECT_EQ(d->edge_graph.graph.degree(4), 0u);
  EXPECT_EQ(d2->edge_graph.graph.degree(3), 0u);
  // An edge naming an undeclared node is the owner's error, at
  // registration.
  v1::DatasetManifest other = GraphManifest("net3");
  EXPECT_THAT(registry->Register(other, "a,b\nc,z\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 2: node 'z' is not in the declared "
                                 "node universe")));
  // node_count n: the labels 0..n-1.
  v1::DatasetManifest counted;
  counted.set_dataset_id("counted");
  counted.set_kind(v1::DATASET_KIND_GRAPH);
  counted.set_node_count(6);
  ASSERT_OK_AND_ASSIGN(auto c, registry->Register(counted, "0,1\n1,2\n"));
  EXPECT_EQ(c->edge_graph.graph.num_nodes(), 6u);
  EXPECT_EQ(c->edge_graph.labels.back(), "5");
  counted.set_dataset_id("counted2");
  EXPECT_THAT(
      registry->Register(counted, "0,1\n1,6\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node '6'")));
  // Neither, both, repeated or empty labels: refused.
  v1::DatasetManifest none = GraphManifest("none");
  none.clear_node_labels();
  EXPECT_THAT(registry->Register(none, kEdges),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("needs its node universe")));
  v1::DatasetManifest both = GraphManifest("both");
  both.set_node_count(4);
  EXPECT_THAT(
      registry->Register(both, kEdges),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not both")));
  v1::DatasetManifest twice = GraphManifest("twice");
  twice.add_node_labels("a");
  EXPECT_THAT(registry->Register(twice, kEdges),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("declared twice")));
}

TEST_F(DatasetKindsTest, GraphAnswersOnlyInfluentialNodes) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(GraphManifest(), kEdges));
  EXPECT_THAT(d->CheckAnswers(kSelectInfluentialNodes), IsOk());
  for (const char* rpc : {kMeasureInconsistency, kQualityReport,
                          kReleaseCuboids, kTrainDecisionTree}) {
    EXPECT_THAT(d->CheckAnswers(rpc),
                StatusIs(absl::StatusCode::kFailedPrecondition,
                         HasSubstr("'net' is a graph; it answers "
                                   "SelectInfluentialNodes")));
  }
  EXPECT_THAT(
      d->WaitForConflictGraph(absl::InfiniteFuture()).status(),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("graph")));
}

TEST_F(DatasetKindsTest, TableRefusesInfluentialNodes) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(PeopleManifest(), kPeople));
  EXPECT_THAT(d->CheckAnswers(kSelectInfluentialNodes),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("'people' is a table")));
  EXPECT_EQ(d->PublicInfo().kind(), v1::DATASET_KIND_TABLE);
}

TEST_F(DatasetKindsTest, NoDeclaredDimensionsMeansNoCube) {
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(PeopleManifest(), kPeople));
  const v1::DatasetInfo info = d->PublicInfo();
  // Nothing inferred: no value set of any column is published.
  EXPECT_EQ(info.cube_dimensions_size(), 0);
  EXPECT_THAT(info.SerializeAsString(), Not(HasSubstr("young")));
  EXPECT_THAT(info.supported_releases(),
              ElementsAre("MeasureInconsistency", "QualityReport",
                          "TrainDecisionTree"));
  EXPECT_THAT(d->CheckAnswers(kReleaseCuboids),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("declared no cube_dimensions")));
  v1::DatasetManifest m = PeopleManifest();
  m.set_dataset_id("people2");
  m.add_public_cuboids()->add_dimensions("Sex");
  EXPECT_THAT(registry->Register(m, kPeople),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_cuboids needs cube_dimensions")));
}

TEST_F(DatasetKindsTest, DeclaredDimensionsMakeTheCube) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  v1::CubeDimension* sex = m.add_cube_dimensions();
  sex->set_column("Sex");
  sex->add_domain("F");
  sex->add_domain("M");
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kPeople));
  EXPECT_THAT(d->CheckAnswers(kReleaseCuboids), IsOk());
  EXPECT_THAT(d->PublicInfo().supported_releases(),
              ElementsAre("MeasureInconsistency", "QualityReport",
                          "ReleaseCuboids", "TrainDecisionTree"));
}

TEST_F(DatasetKindsTest, GraphManifestRefusesTableFields) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = GraphManifest();
  m.set_constraints("a -> b");
  EXPECT_THAT(registry->Register(m, kEdges),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("constraints must be empty for a graph")));
  m = GraphManifest();
  m.add_public_cuboids()->add_dimensions("x");
  EXPECT_THAT(registry->Register(m, kEdges),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_cuboids")));
  // I_R is a measure of tables: a graph has no repair to compute.
  m = GraphManifest();
  m.set_exact_repair(true);
  EXPECT_THAT(
      registry->Register(m, kEdges),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exact_repair")));
  EXPECT_FALSE(registry->Contains("net"));
}

TEST_F(DatasetKindsTest, MalformedOrEmptyEdgeListsAreRefused) {
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Register(GraphManifest(), "source,target\na,b,c\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("csv")));
  EXPECT_THAT(
      registry->Register(GraphManifest(), "source,target\nd,d\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no edges")));
  EXPECT_FALSE(registry->Contains("net"));
}

TEST_F(DatasetKindsTest, GraphAboveTheNodeLimitIsResourceExhausted) {
  options_.max_graph_nodes = 3;
  auto registry = OpenRegistry();
  EXPECT_THAT(registry->Register(GraphManifest(), kEdges),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("declares 4 nodes")));
}

TEST_F(DatasetKindsTest, GraphDatasetSurvivesARestartAndAReplace) {
  {
    auto registry = OpenRegistry();
    ASSERT_THAT(registry->Register(GraphManifest(), kEdges), IsOk());
    v1::DatasetManifest replacement = GraphManifest();
    for (const char* node : {"x", "y", "z"}) replacement.add_node_labels(node);
    ASSERT_OK_AND_ASSIGN(auto d, registry->Replace(replacement, "x,y\ny,z\n"));
    EXPECT_EQ(d->version, 2u);
  }
  auto registry = OpenRegistry();
  ASSERT_OK_AND_ASSIGN(auto d, registry->Get("net"));
  EXPECT_TRUE(d->is_graph());
  EXPECT_EQ(d->version, 2u);
  EXPECT_EQ(d->edge_graph.graph.num_edges(), 2u);
  EXPECT_EQ(d->edge_graph.graph.num_nodes(), 7u);
}

TEST_F(DatasetKindsTest, InferredDomainsAndExactPublicCuboids) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  // A bare dimension is refused: its values would become public.
  m.add_cube_dimensions()->set_column("Sex");
  EXPECT_THAT(registry->Register(m, kPeople),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("declares neither a domain nor bin edges")));
  // The owner asks explicitly: the data's value sets are published, with
  // an "other" cell whether or not a NULL occurs, and frozen.
  m.mutable_cube_dimensions(0)->set_infer_domain(true);
  m.add_cube_dimensions()->set_column("Age");
  m.mutable_cube_dimensions(1)->set_infer_domain(true);
  m.add_public_cuboids()->add_dimensions("Sex");
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kPeople));
  const v1::DatasetInfo info = d->PublicInfo();
  ASSERT_EQ(info.cube_dimensions_size(), 2);
  EXPECT_THAT(info.cube_dimensions(0).labels(), ElementsAre("F", "M", "other"));
  EXPECT_THAT(d->manifest.cube_dimensions(0).domain(), ElementsAre("F", "M"));
  EXPECT_FALSE(d->manifest.cube_dimensions(0).infer_domain());
  EXPECT_THAT(d->notes, Contains(HasSubstr("Dimension Sex: its 2 values were "
                                           "taken from the data")));
  // The exact cuboid makes the row count public (item 6) and the privacy
  // unit induced neighbours, 2 rows apart (item 5).
  EXPECT_TRUE(info.row_count_public());
  EXPECT_EQ(info.row_count(), 3u);
  EXPECT_THAT(d->notes, Contains(HasSubstr("row_count_public is now true")));
  EXPECT_EQ(info.charge_multiplier(), 2u);
  EXPECT_THAT(info.neighbouring(),
              HasSubstr("induced neighbours under the public exact cuboids "
                        "[Sex]"));
  EXPECT_EQ(info.cube_dimensions(0).column(), "Sex");
  EXPECT_EQ(info.cube_dimensions(1).column(), "Age");
  ASSERT_EQ(info.public_cuboids_size(), 1);
  const v1::Cuboid& sex = info.public_cuboids(0);
  EXPECT_THAT(sex.dimensions(), ElementsAre("Sex"));
  double total = 0;
  for (const v1::CuboidCell& cell : sex.cells()) {
    ASSERT_EQ(cell.values_size(), 1);
    if (cell.values(0) == "F") {
      EXPECT_EQ(cell.count(), 1);
    } else if (cell.values(0) == "M") {
      EXPECT_EQ(cell.count(), 2);
    }
    total += cell.count();
  }
  EXPECT_EQ(total, 3);
}

TEST_F(DatasetKindsTest, DeclaredBinnedDimension) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  v1::CubeDimension* score = m.add_cube_dimensions();
  score->set_column("Score");
  score->add_bin_edges(0);
  score->add_bin_edges(5);
  score->add_bin_edges(10);
  ASSERT_OK_AND_ASSIGN(auto d, registry->Register(m, kPeople));
  const v1::DatasetInfo info = d->PublicInfo();
  ASSERT_EQ(info.cube_dimensions_size(), 1);
  EXPECT_EQ(info.cube_dimensions(0).column(), "Score");
  EXPECT_GE(info.cube_dimensions(0).labels_size(), 2);
}

TEST_F(DatasetKindsTest, PublicCuboidOverAnUnknownDimensionIsRefused) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  m.add_cube_dimensions()->set_column("Sex");
  m.mutable_cube_dimensions(0)->set_infer_domain(true);
  m.add_public_cuboids()->add_dimensions("Height");
  EXPECT_THAT(registry->Register(m, kPeople),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_cuboids[0]")));
  EXPECT_FALSE(registry->Contains("people"));
}

TEST_F(DatasetKindsTest, ThreePublicCuboidsAreRefusedAtRegistration) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  m.add_public_cuboids()->add_dimensions("Sex");
  m.add_public_cuboids()->add_dimensions("Age");
  m.add_public_cuboids();  // the apex
  EXPECT_THAT(registry->Register(m, kPeople),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at most 2 exact cuboids")));
}

TEST_F(DatasetKindsTest, UnknownCubeDimensionColumnIsRefused) {
  auto registry = OpenRegistry();
  v1::DatasetManifest m = PeopleManifest();
  m.add_cube_dimensions()->set_column("Height");
  EXPECT_THAT(registry->Register(m, kPeople),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cube_dimensions")));
}

}  // namespace
}  // namespace dpq::server::registry
