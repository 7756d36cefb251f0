#include "core/measures/maximal_independent_sets.h"

#include <cstdint>
#include <random>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/graph/graph.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/measures/brute_force.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::measures {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using graph::Edge;
using graph::Graph;
using graph::NodeId;
using ::testing::HasSubstr;

// `copies` disjoint copies of `g`.
Graph DisjointCopies(const Graph& g, uint32_t copies) {
  std::vector<Edge> edges;
  for (uint32_t c = 0; c < copies; ++c) {
    const NodeId offset = c * g.num_nodes();
    g.ForEachEdge([&](NodeId u, NodeId v) {
      edges.emplace_back(offset + u, offset + v);
    });
  }
  return *Graph::FromEdges(copies * g.num_nodes(), edges);
}

Graph Path(uint32_t n) {
  std::vector<Edge> edges;
  for (NodeId v = 0; v + 1 < n; ++v) edges.emplace_back(v, v + 1);
  return *Graph::FromEdges(n, edges);
}

TEST(MaximalIndependentSetsTest, MatchesBruteForceOnRandomSmallGraphs) {
  std::mt19937_64 rng(424242);
  for (uint32_t n = 0; n <= 12; ++n) {
    for (double p : {0.1, 0.25, 0.4, 0.6, 0.8, 0.95}) {
      for (int trial = 0; trial < 20; ++trial) {
        const Graph g = brute_force::RandomGraph(n, p, rng);
        EXPECT_THAT(
            CountMaximalIndependentSets(g),
            IsOkAndHolds(brute_force::CountMaximalIndependentSetsBySubsets(g)))
            << "n=" << n << " p=" << p << " trial=" << trial;
      }
    }
  }
}

TEST(MaximalIndependentSetsTest, MatchesBruteForceOnSixteenNodeGraphs) {
  std::mt19937_64 rng(16);
  for (int trial = 0; trial < 30; ++trial) {
    const Graph g = brute_force::RandomGraph(16, 0.1 + 0.03 * trial, rng);
    EXPECT_THAT(
        CountMaximalIndependentSets(g),
        IsOkAndHolds(brute_force::CountMaximalIndependentSetsBySubsets(g)))
        << "trial " << trial;
  }
}

TEST(MaximalIndependentSetsTest, PaperFigure1Star) {
  // {tuple 4} or {tuples 1, 2, 3}.
  EXPECT_THAT(CountMaximalIndependentSets(brute_force::Figure1Star()),
              IsOkAndHolds(2u));
}

TEST(MaximalIndependentSetsTest, ConsistentDatabaseHasOneMaximalSubset) {
  EXPECT_THAT(CountMaximalIndependentSets(Graph()), IsOkAndHolds(1u));
  EXPECT_THAT(CountMaximalIndependentSets(*Graph::FromEdges(7, {})),
              IsOkAndHolds(1u));
}

TEST(MaximalIndependentSetsTest, CompleteGraphHasOneSetPerNode) {
  // K_n is complete multipartite, so the size limit does not apply.
  for (uint32_t n : {2u, 3u, 10u, 60u, 61u, 500u}) {
    EXPECT_THAT(CountMaximalIndependentSets(brute_force::Complete(n)),
                IsOkAndHolds(n))
        << "K_" << n;
  }
}

TEST(MaximalIndependentSetsTest, CompleteMultipartiteBlockCountsItsParts) {
  std::vector<Edge> edges;
  brute_force::AddCompleteMultipartite({400, 3, 250, 1}, 0, edges);
  brute_force::AddCompleteMultipartite({2, 2}, 654, edges);  // a C4
  const Graph g = *Graph::FromEdges(658, edges);
  EXPECT_THAT(CountMaximalIndependentSets(g), IsOkAndHolds(4u * 2u));
}

TEST(MaximalIndependentSetsTest, CyclesGivePerrinNumbers) {
  // Furedi (1987): C_n has Perrin(n) maximal independent sets.
  std::vector<uint64_t> perrin = {3, 0, 2};
  for (uint32_t n = 3; n <= 45; ++n) {
    perrin.push_back(perrin[n - 2] + perrin[n - 3]);
    EXPECT_THAT(CountMaximalIndependentSets(brute_force::Cycle(n)),
                IsOkAndHolds(perrin[n]))
        << "C_" << n;
  }
}

TEST(MaximalIndependentSetsTest, ProductOverComponents) {
  // C5 (5 sets) + P3 (2 sets) + an isolated node + an edge (2 sets).
  const Graph g = *Graph::FromEdges(
      11, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {5, 6}, {6, 7}, {9, 10}});
  EXPECT_EQ(brute_force::CountMaximalIndependentSetsBySubsets(g), 20u);
  EXPECT_THAT(CountMaximalIndependentSets(g), IsOkAndHolds(20u));
  EXPECT_THAT(CountMaximalIndependentSets(DisjointCopies(Path(2), 40)),
              IsOkAndHolds(uint64_t{1} << 40));
}

TEST(MaximalIndependentSetsTest, LargestCountThatFitsAndOverflow) {
  // 5^27 < 2^64 - 1 < 5^28, through the enumeration.
  uint64_t five_to_27 = 1;
  for (int i = 0; i < 27; ++i) five_to_27 *= 5;
  EXPECT_THAT(
      CountMaximalIndependentSets(DisjointCopies(brute_force::Cycle(5), 27)),
      IsOkAndHolds(five_to_27));
  EXPECT_THAT(
      CountMaximalIndependentSets(DisjointCopies(brute_force::Cycle(5), 28)),
      StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("64 bits")));
  // 3^41 > 2^64 - 1, through the closed form for triangles.
  EXPECT_THAT(
      CountMaximalIndependentSets(DisjointCopies(brute_force::Complete(3), 41)),
      StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("64 bits")));
}

TEST(MaximalIndependentSetsTest, OversizedComponentIsRefused) {
  // K_100 with a pendant node (not complete multipartite; 100 sets: {0} and
  // {100, i} for i = 1..99) and a path of 70; the message names the largest.
  std::vector<Edge> edges = brute_force::Complete(100).Edges();
  edges.emplace_back(0, 100);
  for (NodeId v = 101; v + 1 < 171; ++v) edges.emplace_back(v, v + 1);
  const Graph g = *Graph::FromEdges(171, edges);
  EXPECT_THAT(
      CountMaximalIndependentSets(g),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("I_MC is computed only for small conflict graphs: a "
                         "component with 101 nodes exceeds the limit of 60 "
                         "(max_component_nodes; counting maximal independent "
                         "sets is #P-complete)")));
  const Graph pendant = *Graph::FromEdges(
      101, std::vector<Edge>(edges.begin(), edges.begin() + 4951));
  MaximalIndependentSetLimits limits;
  limits.max_component_nodes = 101;
  EXPECT_THAT(CountMaximalIndependentSets(pendant, limits), IsOkAndHolds(100u));
}

TEST(MaximalIndependentSetsTest, StepLimitIsEnforced) {
  MaximalIndependentSetLimits limits;
  limits.max_steps = 5;
  EXPECT_THAT(
      CountMaximalIndependentSets(brute_force::Petersen(), limits),
      StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("max_steps")));
  limits.max_steps = 1000;
  EXPECT_THAT(CountMaximalIndependentSets(brute_force::Petersen(), limits),
              IsOkAndHolds(brute_force::CountMaximalIndependentSetsBySubsets(
                  brute_force::Petersen())));
}

TEST(MaximalIndependentSetsTest, PastDeadlineFails) {
  MaximalIndependentSetLimits limits;
  limits.deadline = absl::Now() - absl::Seconds(1);
  EXPECT_THAT(
      CountMaximalIndependentSets(brute_force::Cycle(40), limits),
      StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("deadline")));
}

TEST(MaximalIndependentSetsTest, RejectsInvalidLimits) {
  MaximalIndependentSetLimits limits;
  limits.max_component_nodes = 0;
  EXPECT_THAT(CountMaximalIndependentSets(Graph(), limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_component_nodes must be in [1, 4096], "
                                 "but is 0")));
}

}  // namespace
}  // namespace dpq::core::measures
