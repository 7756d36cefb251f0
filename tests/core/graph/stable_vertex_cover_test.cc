#include "core/graph/stable_vertex_cover.h"

#include <random>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

// Paper Figure 2 / Example 6, nodes A..G = 0..6. Edges e1..e7 in the
// lexicographic order the paper uses: e1 AB, e2 AC, e3 BC, e4 CD, e5 DE,
// e6 EF, e7 FG. G' has E (id 4); G is G' without E.
Graph Figure2WithE() {
  return *Graph::FromEdges(
      7, {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}});
}

TEST(StableVertexCoverTest, Example6CoverSizes) {
  const Graph g_prime = Figure2WithE();
  const Graph g = g_prime.WithoutNode(4);
  // The paper's trace ends with c = 6 and c' = 6.
  EXPECT_EQ(StableGreedyVertexCoverSize(g), 6u);
  EXPECT_EQ(StableGreedyVertexCoverSize(g_prime), 6u);
  // G': AB, CD, EF are matched.
  EXPECT_THAT(StableGreedyVertexCover(g_prime),
              ::testing::ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(StableVertexCoverTest, ResultCoversEveryEdge) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Edge> edges;
    for (int i = 0; i < 80; ++i) {
      NodeId u = rng() % 30, v = rng() % 30;
      if (u != v) edges.emplace_back(u, v);
    }
    Graph g = *Graph::FromEdges(30, edges);
    std::vector<uint8_t> in(30, 0);
    for (NodeId v : StableGreedyVertexCover(g)) in[v] = 1;
    g.ForEachEdge([&](NodeId u, NodeId v) { EXPECT_TRUE(in[u] || in[v]); });
  }
}

}  // namespace
}  // namespace dpq::core::graph
