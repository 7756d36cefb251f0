#include "core/selection/nodes/edge_list.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/selection/nodes/influential_nodes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(EdgeListTest, ParsesWithAndWithoutHeader) {
  for (const char* text :
       {"source,target\na,b\nb,c\n", "a,b\nb,c",
        "SOURCE , TARGET\r\na,b\r\nb,c\r\n", "id_1,id_2\na,b\nb,c\n"}) {
    auto g = ParseEdgeList(text);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_THAT(g->labels, ElementsAre("a", "b", "c"));
    EXPECT_EQ(g->graph.num_edges(), 2u);
    EXPECT_EQ(g->graph.degree(1), 2u);
  }
}

TEST(EdgeListTest, NumericFirstLineIsAnEdgeNotAHeader) {
  auto g = ParseEdgeList("0,23977\n1,34526\n");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->graph.num_edges(), 2u);
  EXPECT_EQ(g->labels.size(), 4u);
}

TEST(EdgeListTest, DropsDuplicatesInEitherDirectionAndSelfLoops) {
  auto g = ParseEdgeList("1,2\n2,1\n1,2\n3,3\n2,3\n");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->graph.num_edges(), 2u);
  EXPECT_EQ(g->labels.size(), 3u);  // "3" is still a node
}

TEST(EdgeListTest, ReadsSnapTabSeparatedDirectedPairs) {
  auto g = ParseEdgeList(
      "# Directed graph\n# FromNodeId\tToNodeId\n0\t1\n"
      "1\t0\n1\t2\n2 1\n\n");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->graph.num_edges(), 2u);
}

TEST(EdgeListTest, QuotedFields) {
  auto g = ParseEdgeList("\"a b\",\"c\"\n");
  ASSERT_TRUE(g.ok());
  EXPECT_THAT(g->labels, ElementsAre("a b", "c"));
}

TEST(EdgeListTest, RejectsMalformedLinesNamingThem) {
  EXPECT_THAT(
      ParseEdgeList("a,b\na,b,c\n").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 2")));
  EXPECT_THAT(
      ParseEdgeList("a,b\nlonely\n").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 2")));
  EXPECT_THAT(
      ParseEdgeList("a,\n").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 1")));
}

TEST(EdgeListTest, EmptyInputIsAnEmptyGraph) {
  auto g = ParseEdgeList("source,target\n");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->graph.num_nodes(), 0u);
}

TEST(EdgeListTest, ReadEdgeListCsvReadsFilesAndReportsMissingOnes) {
  EXPECT_THAT(ReadEdgeListCsv("/nonexistent/edges.csv").status(),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr("/nonexistent/edges.csv")));
  const std::string path = ::testing::TempDir() + "/edge_list_test.csv";
  {
    std::ofstream out(path);
    out << "source,target\nx,y\ny,z\nz,x\n";
  }
  auto g = ReadEdgeListCsv(path);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->graph.num_edges(), 3u);
  {
    std::ofstream out(path);
    out << "x,y\nbroken\n";
  }
  EXPECT_THAT(
      ReadEdgeListCsv(path).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("line 2")));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace dpq::core::selection
