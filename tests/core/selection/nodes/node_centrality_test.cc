// Degree and egocentric density (the paper's Eq. (2)) and the admissibility
// of the corrected delta^ed (docs/privacy.md 6.1; core/selection/egodensity_
// sensitivity.h) under edge-DP, exhaustively on every graph with 5
// vertices and every neighbour (one edge toggled), plus the counterexample
// to the paper's printed Lemma 7.2.
#include "core/selection/nodes/node_centrality.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/graph/graph.h"
#include "core/selection/egodensity_sensitivity.h"
#include "gtest/gtest.h"

namespace dpq::core::selection {
namespace {

std::vector<graph::Edge> AllPairs(uint32_t n) {
  std::vector<graph::Edge> pairs;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) pairs.emplace_back(u, v);
  }
  return pairs;
}

graph::Graph FromMask(uint32_t n, uint64_t mask) {
  const std::vector<graph::Edge> pairs = AllPairs(n);
  std::vector<graph::Edge> edges;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i < 64 && (mask >> i & 1)) edges.push_back(pairs[i]);
  }
  return *graph::Graph::FromEdges(n, edges);
}

double BruteForceDensity(const graph::Graph& g, graph::NodeId v) {
  const auto nb = g.neighbors(v);
  if (nb.size() < 2) return 0;
  int among = 0;
  for (size_t i = 0; i < nb.size(); ++i) {
    for (size_t j = i + 1; j < nb.size(); ++j) {
      for (graph::NodeId w : g.neighbors(nb[i])) among += (w == nb[j]);
    }
  }
  const double d = nb.size();
  return 2.0 * among / (d * (d - 1));
}

TEST(NodeCentralityTest, DensityMatchesBruteForceOnRandomGraphs) {
  std::mt19937_64 rng(42);  // test data only, not DP noise
  for (int trial = 0; trial < 200; ++trial) {
    const uint32_t n = 2 + trial % 10;  // <= 55 pairs: one bit each
    const uint64_t pairs = n * (n - 1) / 2;
    std::uniform_int_distribution<uint64_t> bits(
        0, (uint64_t{1} << std::min<uint64_t>(pairs, 63)) - 1);
    const graph::Graph g = FromMask(n, bits(rng));
    const std::vector<double> density = EgocentricDensities(g);
    const std::vector<uint64_t> degrees = Degrees(g);
    for (graph::NodeId v = 0; v < n; ++v) {
      EXPECT_NEAR(density[v], BruteForceDensity(g, v), 1e-12);
      EXPECT_EQ(degrees[v], g.degree(v));
    }
  }
}

TEST(NodeCentralityTest, Fixtures) {
  // Triangle 0-1-2 plus pendant 3 at 0: density(0) = 2*1/(3*2) = 1/3.
  const graph::Graph g =
      *graph::Graph::FromEdges(5, {{0, 1}, {1, 2}, {0, 2}, {0, 3}});
  const std::vector<double> d = EgocentricDensities(g);
  EXPECT_NEAR(d[0], 1.0 / 3, 1e-15);
  EXPECT_DOUBLE_EQ(d[1], 1.0);
  EXPECT_DOUBLE_EQ(d[3], 0.0);  // degree 1: 0 by convention
  EXPECT_DOUBLE_EQ(d[4], 0.0);  // isolated
  EXPECT_EQ(EdgesAmongNeighbours(g)[0], 1u);
}

TEST(EgoDensitySensitivityAppsTest, AdmissibleOnAllFiveVertexGraphs) {
  constexpr uint32_t kN = 5;
  const uint64_t num_pairs = AllPairs(kN).size();  // 10
  std::vector<std::vector<double>> density(uint64_t{1} << num_pairs);
  std::vector<std::vector<uint64_t>> degree(density.size());
  for (uint64_t mask = 0; mask < density.size(); ++mask) {
    const graph::Graph g = FromMask(kN, mask);
    density[mask] = EgocentricDensities(g);
    degree[mask] = Degrees(g);
  }
  double worst_ratio = 0;
  for (uint64_t mask = 0; mask < density.size(); ++mask) {
    for (uint64_t e = 0; e < num_pairs; ++e) {
      const uint64_t neighbour = mask ^ (uint64_t{1} << e);
      for (uint32_t v = 0; v < kN; ++v) {
        const double change =
            std::abs(density[mask][v] - density[neighbour][v]);
        const double bound = EgocentricDensitySensitivityAt(degree[mask][v], 0);
        ASSERT_LE(change, bound + 1e-12);  // (A1)
        ASSERT_LE(std::abs(double(degree[mask][v]) - degree[neighbour][v]),
                  1.0);  // degree: delta = 1
        if (bound > 0) worst_ratio = std::max(worst_ratio, change / bound);
        for (uint64_t t = 0; t <= 4; ++t) {  // (A2)
          ASSERT_GE(EgocentricDensitySensitivityAt(degree[mask][v], t + 1),
                    EgocentricDensitySensitivityAt(degree[neighbour][v], t));
        }
      }
    }
  }
  EXPECT_NEAR(worst_ratio, 1.0, 1e-12);  // tight somewhere
}

// Lemma 7.2 as printed: 2 / (d - t - 2) if d - t > 2, else 1.
double PaperDeltaEd(int64_t d, int64_t t) {
  return d - t > 2 ? 2.0 / static_cast<double>(d - t - 2) : 1.0;
}

TEST(EgoDensitySensitivityAppsTest, PaperLemma72ViolatesA2) {
  // x: v has degree 2; y = x plus one edge at v: degree 3.
  const graph::Graph x = *graph::Graph::FromEdges(4, {{0, 1}, {0, 2}});
  const graph::Graph y = *graph::Graph::FromEdges(4, {{0, 1}, {0, 2}, {0, 3}});
  EXPECT_EQ(x.degree(0), 2u);
  EXPECT_EQ(y.degree(0), 3u);
  // (A2) requires delta(x, 1) >= delta(y, 0); the paper gives 1 < 2.
  EXPECT_LT(PaperDeltaEd(x.degree(0), 1), PaperDeltaEd(y.degree(0), 0));
  // It even exceeds the global sensitivity 1 and decreases with t.
  EXPECT_EQ(PaperDeltaEd(3, 0), 2.0);
  EXPECT_LT(PaperDeltaEd(3, 1), PaperDeltaEd(3, 0));
  // The corrected function passes the same check.
  EXPECT_GE(EgocentricDensitySensitivityAt(2, 1),
            EgocentricDensitySensitivityAt(3, 0));
}

// Triangle counting polls its stop function at a bounded stride of work
// (docs/security.md, item 2), gives the same counts when not stopped, and ends
// at the poll that says stop.
TEST(NodeCentralityTest, EdgesAmongNeighboursPollsAndStops) {
  // A dense graph: 400 vertices, every pair (u, v) with (u + v) % 3 != 0.
  std::vector<graph::Edge> edges;
  for (uint32_t u = 0; u < 400; ++u) {
    for (uint32_t v = u + 1; v < 400; ++v) {
      if ((u + v) % 3 != 0) edges.emplace_back(u, v);
    }
  }
  const graph::Graph g = *graph::Graph::FromEdges(400, edges);
  auto polls = std::make_shared<int>(0);
  auto counted = EdgesAmongNeighbours(g, [polls] {
    ++*polls;
    return false;
  });
  ASSERT_TRUE(counted.ok()) << counted.status();
  EXPECT_EQ(*counted, EdgesAmongNeighbours(g));
  EXPECT_GE(*polls, 10);
  *polls = 0;
  EXPECT_EQ(
      EgocentricDensities(g, [polls] { return ++*polls >= 2; }).status().code(),
      absl::StatusCode::kCancelled);
  EXPECT_EQ(*polls, 2);
}

}  // namespace
}  // namespace dpq::core::selection
