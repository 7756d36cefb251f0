#include "core/graph/graph.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(GraphTest, FromEdgesMergesDuplicatesAndOrientations) {
  ASSERT_OK_AND_ASSIGN(Graph g,
                       Graph::FromEdges(4, {{2, 0}, {0, 2}, {1, 3}, {0, 1}}));
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_edges(), 3u);
  EXPECT_THAT(g.neighbors(0), ElementsAre(1, 2));
  EXPECT_THAT(g.neighbors(1), ElementsAre(0, 3));
  EXPECT_EQ(g.max_degree(), 2u);
  EXPECT_EQ(g.num_non_isolated(), 4u);
  EXPECT_THAT(g.Edges(), ElementsAre(Edge{0, 1}, Edge{0, 2}, Edge{1, 3}));
}

TEST(GraphTest, FromEdgesRejectsSelfLoop) {
  EXPECT_THAT(Graph::FromEdges(3, {{1, 1}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Self-loop on node 1")));
}

TEST(GraphTest, FromEdgesRejectsOutOfRangeNode) {
  EXPECT_THAT(Graph::FromEdges(3, {{0, 3}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("num_nodes (3)")));
}

TEST(GraphTest, EmptyGraphHasNoEdges) {
  ASSERT_OK_AND_ASSIGN(Graph g, Graph::FromEdges(5, {}));
  EXPECT_EQ(g.num_edges(), 0u);
  EXPECT_EQ(g.max_degree(), 0u);
  EXPECT_EQ(g.num_non_isolated(), 0u);
}

TEST(GraphTest, WithoutNodeRenumbersLikeRowRemoval) {
  ASSERT_OK_AND_ASSIGN(Graph g,
                       Graph::FromEdges(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}}));
  Graph h = g.WithoutNode(1);
  EXPECT_EQ(h.num_nodes(), 3u);
  // Old edges {2,3} and {0,3} become {1,2} and {0,2}.
  EXPECT_THAT(h.Edges(), ElementsAre(Edge{0, 2}, Edge{1, 2}));
}

}  // namespace
}  // namespace dpq::core::graph
