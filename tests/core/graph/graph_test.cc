#include "core/graph/graph.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
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
  EXPECT_THAT(
      Graph::FromEdges(3, {{0, 3}}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("num_nodes (3)")));
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

TEST(GraphTest, FromPackedPairsMatchesFromEdges) {
  // Random multigraphs with heavy duplication, split unevenly into parts
  // (some empty), on 1 to 5 threads: the CSR must be the same as the
  // sort-based construction's, offsets, order and summary counts included.
  std::mt19937_64 rng(20261128);
  for (int round = 0; round < 40; ++round) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 3000);
    // Enough pairs in some rounds that several threads really run.
    const size_t m = round % 4 == 0 ? 300000 : rng() % 5000;
    std::vector<Edge> edges;
    std::vector<std::vector<uint64_t>> parts(1 + rng() % 6);
    for (size_t i = 0; i < m && n > 1; ++i) {
      NodeId u = static_cast<NodeId>(rng() % n);
      NodeId v = static_cast<NodeId>(rng() % n);
      if (u == v) continue;
      // A small hub makes some buckets long.
      if (rng() % 8 == 0) u = 0;
      if (u == v) continue;
      if (u > v) std::swap(u, v);
      edges.emplace_back(u, v);
      parts[rng() % parts.size()].push_back(uint64_t{u} << 32 | v);
    }
    ASSERT_OK_AND_ASSIGN(Graph expected, Graph::FromEdges(n, edges));
    for (int threads : {1, 2, 5}) {
      const Graph g = Graph::FromPackedPairs(n, parts, threads);
      ASSERT_EQ(g.num_nodes(), n);
      ASSERT_EQ(g.num_edges(), expected.num_edges()) << "round " << round;
      ASSERT_EQ(g.max_degree(), expected.max_degree());
      ASSERT_EQ(g.num_non_isolated(), expected.num_non_isolated());
      for (NodeId v = 0; v < n; ++v) {
        ASSERT_THAT(g.neighbors(v), ElementsAreArray(expected.neighbors(v)))
            << "round " << round << " node " << v << " threads " << threads;
      }
    }
  }
}

TEST(GraphTest, FromPackedPairsOfNothing) {
  const Graph g = Graph::FromPackedPairs(3, {{}, {}}, 2);
  EXPECT_EQ(g.num_nodes(), 3u);
  EXPECT_EQ(g.num_edges(), 0u);
  EXPECT_EQ(Graph::FromPackedPairs(0, {}, 2).num_nodes(), 0u);
}

}  // namespace
}  // namespace dpq::core::graph
