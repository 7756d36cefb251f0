#include "bench/r2t/r2t.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "bench/r2t/laplace_noise.h"
#include "bench/r2t/truncated_count.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::bench::r2t {
namespace {

using core::graph::Edge;
using core::graph::Graph;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

constexpr double kTol = 1e-6;

Graph MakeGraph(uint32_t n, std::vector<Edge> edges) {
  auto g = Graph::FromEdges(n, std::move(edges));
  EXPECT_TRUE(g.ok()) << g.status();
  return *std::move(g);
}

Graph RandomGraph(std::mt19937_64& rng, uint32_t n, double p) {
  std::bernoulli_distribution coin(p);
  std::vector<Edge> edges;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) {
      if (coin(rng)) edges.emplace_back(u, v);
    }
  }
  return MakeGraph(n, std::move(edges));
}

double Q(const Graph& g, double tau, LpSolver solver) {
  auto c = TruncatedEdgeCount(g, tau, solver);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? c->value : -1;
}

class TruncatedCountTest : public ::testing::TestWithParam<LpSolver> {};

TEST_P(TruncatedCountTest, StarIsCappedAtTheCentre) {
  const Graph star = MakeGraph(6, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}});
  EXPECT_THAT(Q(star, 2, GetParam()), DoubleNear(2, kTol));
  EXPECT_THAT(Q(star, 4, GetParam()), DoubleNear(4, kTol));
  EXPECT_THAT(Q(star, 5, GetParam()), DoubleNear(5, kTol));
}

TEST_P(TruncatedCountTest, MatchingKeepsEveryEdgeUpToTau) {
  const Graph matching = MakeGraph(6, {{0, 1}, {2, 3}, {4, 5}});
  EXPECT_THAT(Q(matching, 1, GetParam()), DoubleNear(3, kTol));
  // Below 1 every edge is capped by both of its ends.
  EXPECT_THAT(Q(matching, 0.5, GetParam()), DoubleNear(1.5, kTol));
}

TEST_P(TruncatedCountTest, TriangleWithTauOneIsFractional) {
  const Graph triangle = MakeGraph(3, {{0, 1}, {1, 2}, {0, 2}});
  EXPECT_THAT(Q(triangle, 1, GetParam()), DoubleNear(1.5, kTol));
  EXPECT_THAT(Q(triangle, 2, GetParam()), DoubleNear(3, kTol));
}

TEST_P(TruncatedCountTest, TwoStarsSharingLeavesAreSolvedAsOneComponent) {
  // Centres 0 and 1 both adjacent to leaves 2..5: tau = 2 caps each centre.
  const Graph g = MakeGraph(
      6, {{0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 2}, {1, 3}, {1, 4}, {1, 5}});
  EXPECT_THAT(Q(g, 2, GetParam()), DoubleNear(4, kTol));
}

TEST_P(TruncatedCountTest, MonotoneAndExactAboveMaxDegree) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    const Graph g = RandomGraph(rng, 12 + trial % 10, 0.1 + 0.02 * trial);
    double previous = 0;
    for (double tau : {0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 16.0}) {
      const double q = Q(g, tau, GetParam());
      EXPECT_GE(q, previous - kTol) << "tau " << tau;
      EXPECT_LE(q, static_cast<double>(g.num_edges()) + kTol);
      previous = q;
    }
    EXPECT_THAT(Q(g, g.max_degree() + 0.0, GetParam()),
                DoubleNear(static_cast<double>(g.num_edges()), kTol));
  }
}

// Node-DP sensitivity of Q(., tau) is tau (truncated_count.h): removing any
// node of many random small graphs changes Q by at most tau, never upwards.
TEST_P(TruncatedCountTest, NodeSensitivityIsAtMostTau) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const Graph g = RandomGraph(rng, 4 + trial % 7, 0.2 + 0.01 * trial);
    for (double tau : {1.0, 2.0, 3.0, 5.0}) {
      const double q = Q(g, tau, GetParam());
      for (uint32_t v = 0; v < g.num_nodes(); ++v) {
        const double q_minus = Q(g.WithoutNode(v), tau, GetParam());
        EXPECT_LE(q_minus, q + kTol);
        EXPECT_LE(q - q_minus, tau + kTol)
            << "trial " << trial << " tau " << tau << " node " << v;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, TruncatedCountTest,
                         ::testing::Values(LpSolver::kGlpk, LpSolver::kMaxFlow),
                         [](const auto& info) {
                           return std::string(LpSolverName(info.param));
                         });

TEST(TruncatedCountSolversTest, GlpkAndMaxFlowAgree) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 12; ++trial) {
    const Graph g = RandomGraph(rng, 40 + 10 * trial, 0.05 + 0.02 * trial);
    for (double tau : {1.0, 2.0, 3.0, 5.5, 8.0}) {
      EXPECT_THAT(Q(g, tau, LpSolver::kMaxFlow),
                  DoubleNear(Q(g, tau, LpSolver::kGlpk), kTol))
          << "trial " << trial << " tau " << tau;
    }
  }
}

TEST(TruncatedCountSolversTest, RejectsBadTau) {
  const Graph g = MakeGraph(2, {{0, 1}});
  EXPECT_FALSE(TruncatedEdgeCount(g, 0, LpSolver::kGlpk).ok());
  EXPECT_FALSE(TruncatedEdgeCount(g, NAN, LpSolver::kMaxFlow).ok());
  EXPECT_FALSE(ParseLpSolver("simplex").ok());
}

TEST(R2tThresholdsTest, PowersOfTheBaseUpToTheGlobalSensitivity) {
  EXPECT_THAT(*R2tThresholds(10, 2), ElementsAre(2, 4, 8, 16));
  EXPECT_THAT(*R2tThresholds(1, 2), ElementsAre(2));
  auto taus = R2tThresholds(10000, 2);
  ASSERT_TRUE(taus.ok());
  EXPECT_EQ(taus->size(), 14u);  // 2^14 = 16384 >= 10000 > 2^13
  EXPECT_EQ(R2tThresholds(10000, 5.5)->size(), 6u);
  EXPECT_THAT(*R2tThresholds(10000, 5.5, ThresholdRule::kAuthorsCode),
              ElementsAre(5.5, 30.25, 166.375, 915.0625, 5032.84375));
  EXPECT_THAT(*R2tThresholds(3, 2, ThresholdRule::kAuthorsCode),
              ElementsAre(2, 4));
  EXPECT_FALSE(R2tThresholds(10, 1).ok());
  EXPECT_FALSE(R2tThresholds(1'000'000, 1.000001).ok());
  EXPECT_FALSE(R2tThresholds(0, 2).ok());
}

TEST(R2tTest, CurveNeedsNAtLeastTheNodeCount) {
  const Graph g = MakeGraph(3, {{0, 1}});
  EXPECT_THAT(ComputeTruncatedCurve(g, {.global_sensitivity = 2}).status(),
              dpq::testing::StatusIs(absl::StatusCode::kFailedPrecondition,
                                     ::testing::HasSubstr("public_max_rows")));
}

TEST(R2tTest, RejectsBadBetaAndEpsilon) {
  const Graph g = MakeGraph(3, {{0, 1}});
  auto curve = ComputeTruncatedCurve(g, {.global_sensitivity = 3});
  ASSERT_TRUE(curve.ok());
  dpq::testing::SeededUrbg urbg(1);
  EXPECT_FALSE(RaceToTheTop(urbg, *curve, {.epsilon = 1, .beta = 1}).ok());
  EXPECT_FALSE(RaceToTheTop(urbg, *curve, {.epsilon = -1}).ok());
}

// R2T underestimates except with probability <= beta / 2 (r2t.h). 400 runs
// with beta = 0.1 expect <= 20 overestimates; we allow 40. For a random seed
// the false-failure probability is at most P(Bin(400, 0.05) > 40) = 1.4e-5
// (exact binomial tail); with the fixed seed the test is deterministic.
TEST(R2tTest, UnderestimatesWithHighProbability) {
  std::mt19937_64 rng(5);
  const Graph g = RandomGraph(rng, 60, 0.3);
  R2tOptions options{.epsilon = 1, .global_sensitivity = 60, .beta = 0.1};
  auto curve = ComputeTruncatedCurve(g, options);
  ASSERT_TRUE(curve.ok()) << curve.status();
  ASSERT_EQ(curve->taus.size(), 6u);
  EXPECT_DOUBLE_EQ(curve->counts.back().value,
                   static_cast<double>(g.num_edges()));
  dpq::testing::SeededUrbg urbg(20261122);
  int over = 0;
  for (int run = 0; run < 400; ++run) {
    auto r = RaceToTheTop(urbg, *curve, options);
    ASSERT_TRUE(r.ok());
    EXPECT_GE(r->estimate, 0);
    if (r->estimate > static_cast<double>(g.num_edges())) ++over;
  }
  EXPECT_LE(over, 40);
}

// With a huge epsilon the noise and the shift vanish and R2T returns the
// largest truncated count, the true count.
TEST(R2tTest, LargeEpsilonRecoversTheCount) {
  std::mt19937_64 rng(9);
  const Graph g = RandomGraph(rng, 50, 0.2);
  R2tOptions options{.epsilon = 1e6, .global_sensitivity = 50};
  auto curve = ComputeTruncatedCurve(g, options);
  ASSERT_TRUE(curve.ok());
  dpq::testing::SeededUrbg urbg(2);
  auto r = RaceToTheTop(urbg, *curve, options);
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r->estimate, static_cast<double>(g.num_edges()), 1.0);
}

// E|Lap(b)| = b and sd(|Lap(b)|) = b: the mean of 20000 draws is within
// 5% of b except with probability < 1e-10 (7 standard errors).
TEST(LaplaceNoiseTest, MeanAbsoluteValueIsTheScale) {
  dpq::testing::SeededUrbg urbg(17);
  double sum_abs = 0, sum = 0;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) {
    const double x = SampleLaplace(urbg, 3.0);
    sum_abs += std::abs(x);
    sum += x;
  }
  EXPECT_NEAR(sum_abs / kDraws, 3.0, 0.15);
  EXPECT_NEAR(sum / kDraws, 0.0, 0.25);  // sd of the mean: 3 sqrt(2) / 141
}

}  // namespace
}  // namespace dpq::bench::r2t
