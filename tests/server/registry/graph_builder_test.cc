// Edge lists are parsed from the uploaded bytes in memory
// (graph_builder.h), with the errors the registry always gave, and reach
// the disk once, after parsing (dataset_directory.h).
#include "server/registry/graph_builder.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/registry/dataset_registry.h"
#include "tests/testing/files.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;
using ::dpq::testing::IsOk;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::StatusIs;
using ::dpq::testing::TempDir;
using ::testing::ElementsAre;
using ::testing::Eq;

v1::DatasetManifest GraphManifest() {
  v1::DatasetManifest m;
  m.set_dataset_id("net");
  m.set_kind(v1::DATASET_KIND_GRAPH);
  for (const char* node : {"a", "b", "c"}) m.add_node_labels(node);
  return m;
}

absl::Status Build(const v1::DatasetManifest& manifest, absl::string_view edges,
                   LoadedDataset* d, const RegistryOptions& options = {}) {
  return internal::BuildGraph(options, manifest, edges, BuildContext{}, d,
                              nullptr);
}

TEST(GraphBuilderTest, ParsesTheEdgeListFromMemory) {
  LoadedDataset d;
  ASSERT_OK(Build(GraphManifest(), "source,target\na,b\nb,c\n", &d));
  EXPECT_EQ(d.edge_graph.graph.num_nodes(), 3u);
  EXPECT_EQ(d.edge_graph.graph.num_edges(), 2u);
  EXPECT_EQ(d.neighbouring, kEdgeNeighbouring);
}

TEST(GraphBuilderTest, MalformedLinesKeepTheirMessages) {
  LoadedDataset d;
  EXPECT_THAT(
      Build(GraphManifest(), "source,target\na,b,c\n", &d),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("csv (edge list source,target): Edge list line 2: expected "
                  "two node ids `source,target`, got 'a,b,c'.")));
  EXPECT_THAT(Build(GraphManifest(), "a,b\nb,z\n", &d),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("csv (edge list source,target): Edge list line 2: "
                          "node 'z' is not in the declared node universe.")));
  EXPECT_THAT(Build(GraphManifest(), "a,a\n", &d),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("csv (edge list source,target): the graph has no "
                          "edges.")));
  v1::DatasetManifest empty_label = GraphManifest();
  empty_label.add_node_labels("");
  EXPECT_THAT(Build(empty_label, "a,b\n", &d),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("node_labels: Node label 4 is empty.")));
}

TEST(GraphBuilderTest, LimitsAreResourceExhausted) {
  RegistryOptions options;
  options.max_graph_edges = 1;
  LoadedDataset d;
  EXPECT_THAT(Build(GraphManifest(), "a,b\nb,c\n", &d, options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       Eq("csv (edge list): the graph has 3 nodes and 2 "
                          "edges; the server's limits are 1000000 nodes and "
                          "1 edges.")));
  options.max_graph_nodes = 2;
  EXPECT_THAT(Build(GraphManifest(), "a,b\n", &d, options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       Eq("node_labels declares 3 nodes; the server's limit "
                          "is 2.")));
}

class GraphUploadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.data_dir = dir_.string();
    options_.graph_threads = 1;
  }

  TempDir temp_dir_{"dpq-graph-upload"};
  const fs::path dir_{temp_dir_.path()};
  RegistryOptions options_;
};

TEST_F(GraphUploadTest, MalformedUploadNamesTheLineAndWritesNothing) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> registry,
                       DatasetRegistry::Open(options_));
  EXPECT_THAT(
      registry->Register(GraphManifest(), "source,target\na,b\nc\n"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("csv (edge list source,target): Edge list line 3: expected "
                  "two node ids `source,target`, got 'c'.")));
  // Parsed from memory: no temporary file was written and left behind.
  EXPECT_TRUE(fs::is_empty(dir_ / "datasets"));
}

TEST_F(GraphUploadTest, AcceptedUploadIsStoredOnceAsUploaded) {
  const std::string edges = "source,target\r\na,b\r\n# comment\r\nb,c\r\n";
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<DatasetRegistry> registry,
                       DatasetRegistry::Open(options_));
  ASSERT_THAT(registry->Register(GraphManifest(), edges), IsOk());
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_ / "datasets")) {
    names.push_back(e.path().filename().string());
  }
  EXPECT_THAT(names, ElementsAre("net"));
  EXPECT_EQ(ReadFileOrEmpty(dir_ / "datasets" / "net" / "data.csv"), edges);
}

}  // namespace
}  // namespace dpq::server::registry
