#include "core/graph/edge_addition.h"

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using ::testing::ElementsAre;

// Paper Figure 1 / Example 2: node 4 (id 3 here) conflicts with 1, 2, 3.
Graph Figure1Graph() { return *Graph::FromEdges(4, {{0, 3}, {1, 3}, {2, 3}}); }

TEST(EdgeAdditionTest, Example2TruncatesTwoEdgesAtThetaOne) {
  const Graph g = Figure1Graph();
  EXPECT_EQ(EdgeAdditionCounts(g, 1).edges, 1u);
  EXPECT_EQ(EdgeAdditionCounts(g, 2).edges, 2u);
  EXPECT_EQ(EdgeAdditionCounts(g, 3).edges, 3u);
  EXPECT_EQ(EdgeAdditionCounts(g, 1).positive_degree_nodes, 2u);
  EXPECT_EQ(EdgeAdditionCounts(g, 3).positive_degree_nodes, 4u);
}

TEST(EdgeAdditionTest, KeepsEdgesInStableOrder) {
  // Path 0-1-2-3 plus chord 0-2. Order: (0,1) (0,2) (1,2) (2,3).
  ASSERT_OK_AND_ASSIGN(Graph g,
                       Graph::FromEdges(4, {{0, 1}, {1, 2}, {2, 3}, {0, 2}}));
  Graph p = EdgeAdditionProjection(g, 1);
  // (0,1) kept; (0,2) blocked by 0; (1,2) blocked by 1; (2,3) kept.
  EXPECT_THAT(p.Edges(), ElementsAre(Edge{0, 1}, Edge{2, 3}));
  Graph q = EdgeAdditionProjection(g, 2);
  // (0,1), (0,2) kept; (1,2): deg 1 and 1 -> kept; (2,3): 2 full.
  EXPECT_THAT(q.Edges(), ElementsAre(Edge{0, 1}, Edge{0, 2}, Edge{1, 2}));
}

TEST(EdgeAdditionTest, CountsForEachMatchesSinglePasses) {
  std::mt19937_64 rng(7);
  std::vector<Edge> edges;
  for (int i = 0; i < 300; ++i) {
    NodeId u = rng() % 60, v = rng() % 60;
    if (u != v) edges.emplace_back(u, v);
  }
  ASSERT_OK_AND_ASSIGN(Graph g, Graph::FromEdges(60, edges));
  const std::vector<uint32_t> thetas = {1, 2, 3, 5, 8, 1000};
  auto all = EdgeAdditionCountsForEach(g, thetas);
  for (size_t i = 0; i < thetas.size(); ++i) {
    Graph p = EdgeAdditionProjection(g, thetas[i]);
    EXPECT_EQ(all[i].edges, p.num_edges());
    EXPECT_EQ(all[i].positive_degree_nodes, p.num_non_isolated());
    EXPECT_LE(p.max_degree(), thetas[i]);
  }
}

// A random graph on 200 nodes (fixed seed) with degrees well above the
// thetas below, so that every pass truncates.
Graph RandomGraph() {
  std::mt19937 rng(11);
  std::uniform_int_distribution<uint32_t> node(0, 199);
  std::vector<Edge> edges;
  for (int i = 0; i < 3000; ++i) {
    const uint32_t u = node(rng), v = node(rng);
    if (u != v) edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  return *Graph::FromEdges(200, edges);
}

// The counts a graph memoizes (graph.h) are those of a fresh pass, for the
// graph and its copies, also when several threads ask at once.
TEST(EdgeAdditionTest, MemoizedCountsMatchAFreshPass) {
  const Graph g = RandomGraph();
  const std::vector<Edge> edges = g.Edges();
  std::vector<ProjectionCounts> want;
  for (uint32_t theta = 1; theta < 20; ++theta) {
    // A graph built anew has an empty memo.
    want.push_back(EdgeAdditionCounts(
        Graph::FromSortedUniqueEdges(g.num_nodes(), edges), theta));
  }
  const Graph copy = g;
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        for (uint32_t theta = 1; theta < 20; ++theta) {
          const ProjectionCounts got =
              EdgeAdditionCounts(t % 2 == 0 ? g : copy, theta);
          mismatches[t] += got.edges != want[theta - 1].edges ||
                           got.positive_degree_nodes !=
                               want[theta - 1].positive_degree_nodes;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_THAT(mismatches, ElementsAre(0, 0, 0, 0));
  EXPECT_LT(EdgeAdditionCounts(g, 5).edges, g.num_edges());
}

}  // namespace
}  // namespace dpq::core::graph
