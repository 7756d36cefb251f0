#include "core/measures/vertex_cover.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/measures/brute_force.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::measures {
namespace {

using ::dpq::testing::StatusIs;
using graph::Edge;
using graph::Graph;
using graph::NodeId;
using ::testing::HasSubstr;
using ::testing::Optional;

// Checks the invariants every result must satisfy, given the true value.
void ExpectConsistent(const VertexCoverResult& r, uint64_t optimum) {
  EXPECT_LE(r.lower_bound, optimum);
  EXPECT_GE(r.upper_bound, optimum);
  EXPECT_LE(r.lp_doubled, 2 * optimum);
  EXPECT_GE(r.lower_bound, (r.lp_doubled + 1) / 2);
  EXPECT_GE(r.stable_greedy_size, r.upper_bound);
  EXPECT_LE(r.stable_greedy_size, 2 * optimum);
  if (r.exact.has_value()) {
    EXPECT_EQ(*r.exact, optimum);
    EXPECT_EQ(r.lower_bound, optimum);
    EXPECT_EQ(r.upper_bound, optimum);
    EXPECT_TRUE(r.not_exact_reason.empty());
  } else {
    EXPECT_FALSE(r.not_exact_reason.empty());
  }
}

TEST(VertexCoverTest, MatchesBruteForceOnRandomSmallGraphs) {
  std::mt19937_64 rng(20250101);
  int graphs = 0;
  for (uint32_t n = 0; n <= 12; ++n) {
    for (double p : {0.1, 0.2, 0.3, 0.5, 0.7, 0.9}) {
      for (int trial = 0; trial < 20; ++trial, ++graphs) {
        const Graph g = brute_force::RandomGraph(n, p, rng);
        const uint64_t optimum = brute_force::MinVertexCoverBySubsets(g);
        SCOPED_TRACE(::testing::Message()
                     << "n=" << n << " p=" << p << " trial=" << trial);
        ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g));
        EXPECT_THAT(r.exact, Optional(optimum));
        ExpectConsistent(r, optimum);
        // The LP is at least the maximum matching (its dual is the
        // fractional matching LP).
        EXPECT_GE(r.lp_doubled, 2 * brute_force::MaxMatching(g));
        EXPECT_EQ(r.lp_doubled, VertexCoverLpDoubled(g));
        EXPECT_GE(GreedyVertexCoverSize(g), optimum);
        EXPECT_EQ(r.stable_greedy_size, graph::StableGreedyVertexCoverSize(g));
      }
    }
  }
  EXPECT_EQ(graphs, 13 * 6 * 20);
}

// The half-integral LP solution (x2 = 2x in {0, 1, 2}) covers every edge
// and is optimal: its sum is the doubled LP value. Checked on graphs where
// the greedy start of the matching is far from maximum (many components,
// paths whose greedy matching must be augmented).
TEST(VertexCoverTest, HalfIntegralLpSolutionIsFeasibleAndOptimal) {
  std::mt19937_64 rng(20261128);
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 1 + static_cast<uint32_t>(trial % 40);
    const double p = 0.02 + 0.9 * static_cast<double>(rng() % 100) / 100.0;
    const Graph g = brute_force::RandomGraph(n, p, rng);
    const std::vector<uint8_t> x2 = HalfIntegralLpSolution(g);
    ASSERT_EQ(x2.size(), n);
    uint64_t sum = 0;
    for (NodeId v = 0; v < n; ++v) {
      ASSERT_LE(x2[v], 2);
      sum += x2[v];
    }
    g.ForEachEdge([&](NodeId u, NodeId v) {
      EXPECT_GE(x2[u] + x2[v], 2) << "edge " << u << "-" << v;
    });
    EXPECT_EQ(sum, VertexCoverLpDoubled(g)) << "trial " << trial;
  }
}

// Restricted to the active nodes (a union of components), the solution is
// the whole graph's on those nodes and 0 elsewhere: the clique LP splits
// the components over threads this way.
TEST(VertexCoverTest, HalfIntegralLpSolutionOnActiveComponents) {
  std::mt19937_64 rng(20261129);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t n = 2 + static_cast<uint32_t>(trial % 40);
    const double p = 0.02 + 0.3 * static_cast<double>(rng() % 100) / 100.0;
    const Graph g = brute_force::RandomGraph(n, p, rng);
    const std::vector<uint8_t> whole = HalfIntegralLpSolution(g);
    // Components by union-find; each one is active with probability 1/2.
    std::vector<NodeId> root(n);
    for (NodeId v = 0; v < n; ++v) root[v] = v;
    auto find = [&](NodeId v) {
      while (root[v] != v) v = root[v] = root[root[v]];
      return v;
    };
    g.ForEachEdge([&](NodeId u, NodeId v) { root[find(u)] = find(v); });
    std::vector<uint8_t> chosen(n), active(n);
    for (NodeId v = 0; v < n; ++v) chosen[v] = rng() % 2;
    for (NodeId v = 0; v < n; ++v) active[v] = chosen[find(v)];
    const std::vector<uint8_t> part = HalfIntegralLpSolution(g, active);
    for (NodeId v = 0; v < n; ++v) {
      ASSERT_EQ(part[v], active[v] ? whole[v] : 0)
          << "trial " << trial << " node " << v;
    }
  }
}

TEST(VertexCoverTest, LpEqualsOptimumOnBipartiteGraphs) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 2 + trial % 11;
    const uint32_t left = 1 + trial % (n - 1);
    const double p = 0.1 + 0.1 * (trial % 8);
    const Graph g = brute_force::RandomBipartiteGraph(n, left, p, rng);
    const uint64_t optimum = brute_force::MinVertexCoverBySubsets(g);
    // Konig: minimum cover = maximum matching = LP on bipartite graphs.
    EXPECT_EQ(VertexCoverLpDoubled(g), 2 * optimum) << "trial " << trial;
    EXPECT_EQ(brute_force::MaxMatching(g), optimum) << "trial " << trial;
  }
}

TEST(VertexCoverTest, OddCycleHasHalfIntegralLp) {
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                       MinimumVertexCover(brute_force::Cycle(5)));
  EXPECT_EQ(r.lp_doubled, 5u);
  EXPECT_DOUBLE_EQ(r.lp_value(), 2.5);
  EXPECT_THAT(r.exact, Optional(3u));
  EXPECT_EQ(r.lower_bound, 3u);
}

TEST(VertexCoverTest, CyclesOfAllLengths) {
  for (uint32_t n = 3; n <= 200; ++n) {
    ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                         MinimumVertexCover(brute_force::Cycle(n)));
    EXPECT_THAT(r.exact, Optional((n + 1) / 2)) << "C_" << n;
    EXPECT_EQ(r.lp_doubled, n) << "C_" << n;
  }
}

TEST(VertexCoverTest, CompleteGraphNeedsAllButOneNode) {
  for (uint32_t n : {1u, 2u, 3u, 4u, 7u, 30u, 65u, 300u}) {
    ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                         MinimumVertexCover(brute_force::Complete(n)));
    EXPECT_THAT(r.exact, Optional(n - 1)) << "K_" << n;
    EXPECT_EQ(r.lp_doubled, n == 1 ? 0 : n) << "K_" << n;
  }
}

TEST(VertexCoverTest, PetersenGraph) {
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                       MinimumVertexCover(brute_force::Petersen()));
  EXPECT_EQ(r.lp_doubled, 10u);
  EXPECT_THAT(r.exact, Optional(6u));
}

TEST(VertexCoverTest, PaperFigure1Star) {
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                       MinimumVertexCover(brute_force::Figure1Star()));
  EXPECT_THAT(r.exact, Optional(1u));
  EXPECT_EQ(r.lp_doubled, 2u);
  EXPECT_EQ(r.stable_greedy_size, 2u);  // Algorithm 5 takes edge {0, 3}
}

TEST(VertexCoverTest, EmptyAndEdgelessGraphs) {
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(Graph()));
  EXPECT_THAT(r.exact, Optional(0u));
  ASSERT_OK_AND_ASSIGN(r, MinimumVertexCover(*Graph::FromEdges(50, {})));
  EXPECT_THAT(r.exact, Optional(0u));
  EXPECT_EQ(r.lp_doubled, 0u);
}

TEST(VertexCoverTest, GreedyIsExactOnForests) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t n = 1 + trial % 16;
    std::vector<Edge> edges;
    for (NodeId v = 1; v < n; ++v) {
      if (rng() % 5 != 0) edges.emplace_back(rng() % v, v);  // some forests
    }
    const Graph g = *Graph::FromEdges(n, edges);
    const uint64_t optimum = brute_force::MinVertexCoverBySubsets(g);
    EXPECT_EQ(GreedyVertexCoverSize(g), optimum) << "trial " << trial;
    ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g));
    EXPECT_THAT(r.exact, Optional(optimum));
    EXPECT_EQ(r.branch_nodes, 0u);  // solved by the degree-1 reductions
  }
}

TEST(VertexCoverTest, GreedyIsExactOnCompleteMultipartiteGraphs) {
  std::mt19937_64 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint32_t> parts(1 + rng() % 6);
    uint32_t n = 0;
    for (uint32_t& part : parts) n += part = 1 + rng() % 30;
    std::vector<Edge> edges;
    brute_force::AddCompleteMultipartite(parts, 0, edges);
    const Graph g = *Graph::FromEdges(n, edges);
    const uint32_t optimum = n - *std::max_element(parts.begin(), parts.end());
    EXPECT_EQ(GreedyVertexCoverSize(g), optimum) << "trial " << trial;
    ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g));
    EXPECT_THAT(r.exact, Optional(optimum)) << "trial " << trial;
    EXPECT_EQ(r.branch_nodes, 0u);
  }
}

TEST(VertexCoverTest, MatchesReferenceOnMediumRandomGraphs) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t n = 30 + trial % 21;  // 30..50
    const double p = 0.05 + 0.05 * (trial % 6);
    const Graph g = brute_force::RandomGraph(n, p, rng);
    const uint64_t optimum = brute_force::MinVertexCoverByIndependentSet(g);
    ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g));
    SCOPED_TRACE(::testing::Message() << "n=" << n << " p=" << p);
    EXPECT_THAT(r.exact, Optional(optimum));
    ExpectConsistent(r, optimum);
  }
}

// FD conflict graphs are unions of complete multipartite blocks; together
// with random small components this is the typical large input.
TEST(VertexCoverTest, TenThousandNodesOfSmallComponentsAreExactAndFast) {
  std::mt19937_64 rng(10000);
  std::vector<Edge> edges;
  uint64_t optimum = 0;
  NodeId next = 0;
  constexpr uint32_t kNodes = 10000;
  while (next < kNodes) {
    const uint32_t size = std::min<uint32_t>(1 + rng() % 12, kNodes - next);
    Graph block;
    if (rng() % 3 == 0) {
      std::vector<uint32_t> parts;
      for (uint32_t left = size; left > 0;) {
        const uint32_t part = std::min<uint32_t>(1 + rng() % 4, left);
        parts.push_back(part);
        left -= part;
      }
      std::vector<Edge> block_edges;
      brute_force::AddCompleteMultipartite(parts, 0, block_edges);
      block = *Graph::FromEdges(size, block_edges);
    } else {
      block = brute_force::RandomGraph(size, 0.2 + 0.1 * (rng() % 6), rng);
    }
    optimum += brute_force::MinVertexCoverBySubsets(block);
    block.ForEachEdge(
        [&](NodeId u, NodeId v) { edges.emplace_back(next + u, next + v); });
    next += size;
  }
  const Graph g = *Graph::FromEdges(kNodes, edges);
  const absl::Time start = absl::Now();
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g));
  const absl::Duration elapsed = absl::Now() - start;
  EXPECT_THAT(r.exact, Optional(optimum));
  ExpectConsistent(r, optimum);
  // Generous: about 10 ms in an optimised build.
  EXPECT_LT(elapsed, absl::Seconds(10));
}

TEST(VertexCoverTest, LargeCompleteMultipartiteBlockIsExactBeyondTheLimit) {
  std::vector<Edge> edges;
  brute_force::AddCompleteMultipartite({300, 200, 100, 1}, 0, edges);
  const Graph g = *Graph::FromEdges(601, edges);
  VertexCoverLimits limits;
  limits.max_component_nodes = 64;
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g, limits));
  EXPECT_THAT(r.exact, Optional(301u));
  EXPECT_EQ(r.branch_nodes, 0u);
  EXPECT_EQ(GreedyVertexCoverSize(g), 301u);
}

TEST(VertexCoverTest, OversizedComponentGivesBoundsOnly) {
  VertexCoverLimits limits;
  limits.max_component_nodes = 9;
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                       MinimumVertexCover(brute_force::Petersen(), limits));
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_THAT(r.not_exact_reason, HasSubstr("a component with 10 nodes exceeds "
                                            "max_component_nodes = 9"));
  EXPECT_EQ(r.lower_bound, 5u);  // the LP bound
  ExpectConsistent(r, 6);
}

TEST(VertexCoverTest, BranchBudgetGivesBoundsOnly) {
  // Two Petersen graphs and a triangle: the triangle is solved without
  // branching, the others need the budget.
  std::vector<Edge> edges = brute_force::Petersen().Edges();
  for (const auto& [u, v] : brute_force::Petersen().Edges()) {
    edges.emplace_back(u + 10, v + 10);
  }
  edges.insert(edges.end(), {{20, 21}, {21, 22}, {20, 22}});
  const Graph g = *Graph::FromEdges(23, edges);
  VertexCoverLimits limits;
  limits.max_branch_nodes = 0;
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r, MinimumVertexCover(g, limits));
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_THAT(r.not_exact_reason, HasSubstr("2 of 3 components"));
  EXPECT_THAT(r.not_exact_reason, HasSubstr("max_branch_nodes"));
  EXPECT_EQ(r.branch_nodes, 0u);
  ExpectConsistent(r, 14);

  limits.max_branch_nodes = 1'000'000;
  ASSERT_OK_AND_ASSIGN(r, MinimumVertexCover(g, limits));
  EXPECT_THAT(r.exact, Optional(14u));
  EXPECT_GT(r.branch_nodes, 0u);
}

TEST(VertexCoverTest, PastDeadlineGivesBoundsOnly) {
  VertexCoverLimits limits;
  limits.deadline = absl::Now() - absl::Seconds(1);
  ASSERT_OK_AND_ASSIGN(VertexCoverResult r,
                       MinimumVertexCover(brute_force::Petersen(), limits));
  EXPECT_FALSE(r.exact.has_value());
  EXPECT_THAT(r.not_exact_reason, HasSubstr("deadline"));
  ExpectConsistent(r, 6);
}

TEST(VertexCoverTest, RejectsInvalidComponentLimit) {
  VertexCoverLimits limits;
  limits.max_component_nodes = 0;
  EXPECT_THAT(MinimumVertexCover(brute_force::Petersen(), limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_component_nodes must be in [1, 16384], "
                                 "but is 0")));
  limits.max_component_nodes = kMaxVertexCoverComponentNodes + 1;
  EXPECT_THAT(ValidateVertexCoverLimits(limits),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("16385")));
}

}  // namespace
}  // namespace dpq::core::measures
