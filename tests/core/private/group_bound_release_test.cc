#include "core/private/group_bound_release.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/flow_extensions.h"
#include "core/private/private_measures.h"
#include "core/private/release_interval.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/small_graph_enumeration.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using graph::Graph;
using measures::Measure;
using testing::AllNeighbourPairs;
using testing::NeighbourPair;
using testing::StarGraph;

// Disjoint stars with the given numbers of leaves, then `isolated` nodes.
Graph StarForest(const std::vector<uint32_t>& leaves, uint32_t isolated = 0) {
  std::vector<graph::Edge> edges;
  uint32_t next = 0;
  for (uint32_t l : leaves) {
    const uint32_t hub = next++;
    for (uint32_t i = 0; i < l; ++i) edges.emplace_back(hub, next++);
  }
  return *Graph::FromEdges(next + isolated, std::move(edges));
}

Graph Complete(uint32_t n) {
  std::vector<graph::Edge> edges;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) edges.emplace_back(u, v);
  }
  return *Graph::FromEdges(n, std::move(edges));
}

// The uncovered-row count n - F_2 of step 2 moves by at most 2 (within
// [-2, 1] when a node is added) on every graph up to 7 nodes and every
// node removal.
TEST(GroupBoundTest, UncoveredCountHasSensitivityTwo) {
  for (const NeighbourPair& p : AllNeighbourPairs()) {
    const int64_t with =
        static_cast<int64_t>(p.with.num_nodes()) -
        (*FlowExtensionValues(p.with, Measure::kProblematic, {2}))[0];
    const int64_t without =
        static_cast<int64_t>(p.without.num_nodes()) -
        (*FlowExtensionValues(p.without, Measure::kProblematic, {2}))[0];
    ASSERT_GE(with - without, -2) << "n=" << p.with.num_nodes();
    ASSERT_LE(with - without, 1) << "n=" << p.with.num_nodes();
  }
}

// With almost no noise theta is the largest group minus one, and a star of
// that degree is counted in full.
TEST(GroupBoundTest, ThetaIsTheLargestGroupAndStarsAreExact) {
  SeededUrbg urbg(1);
  const Graph g = StarForest({40, 25, 10}, 100);
  const std::vector<DcDegreeBound> bounds = {{true, 40}, {true, 12}};
  for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
    ASSERT_OK_AND_ASSIGN(const GroupBoundRelease r,
                         ReleaseWithGroupBound(urbg, g, m, 1e6, 400, bounds,
                                               /*degree_keys=*/1));
    EXPECT_EQ(r.noisy_group_bound, 40u);
    EXPECT_EQ(r.theta, 40u);
    EXPECT_EQ(r.value, m == Measure::kProblematic ? 78 : 75);
    EXPECT_EQ(r.degree_upper, 40u);  // one key: W (B~ + 0)
  }
}

// A cross-keyed DC (t1.A = t2.B, Flights' times) counts like a key for
// I_MI: B is its largest value count c, and the degree bound reads it twice
// (a row meets the others through both of its cells). I_P keeps gem there,
// and an unbounded DC next to it leaves both to gem.
TEST(GroupBoundTest, CrossKeyedDcsBoundTheDegreeTwice) {
  SeededUrbg urbg(4);
  const Graph g = StarForest({30, 12}, 100);
  const DcDegreeBound cross{false, 0, true, 30}, key{true, 12};
  const Measure mi = Measure::kMinimalInconsistency;
  EXPECT_TRUE(GroupBoundApplies(mi, {cross, key}));
  EXPECT_FALSE(GroupBoundApplies(Measure::kProblematic, {cross, key}));
  EXPECT_TRUE(GroupBoundApplies(Measure::kProblematic, {key}));
  ASSERT_OK_AND_ASSIGN(const GroupBoundRelease r,
                       ReleaseWithGroupBound(urbg, g, mi, 1e6, 400,
                                             {cross, key}, /*degree_keys=*/3));
  EXPECT_EQ(r.noisy_group_bound, 30u);
  EXPECT_EQ(r.degree_upper, 90u);  // (1 key + 2) x 30
  EXPECT_EQ(r.value, 42);          // no noise; escalated or not, all edges
  // degree_keys unknown: 2 for the cross-keyed DC, 1 for the keyed one.
  ASSERT_OK_AND_ASSIGN(const GroupBoundRelease unknown,
                       ReleaseWithGroupBound(urbg, g, mi, 1e6, 400,
                                             {cross, key}, /*degree_keys=*/0));
  EXPECT_EQ(unknown.degree_upper, 90u);
  EXPECT_FALSE(GroupBoundApplies(mi, {cross, {false, 0}}));
  EXPECT_THAT(
      ReleaseWithGroupBound(urbg, g, mi, 1.0, 400, {cross, {false, 0}}, 2),
      StatusIs(absl::StatusCode::kInvalidArgument,
               ::testing::HasSubstr("t1.A = t2.B")));
  EXPECT_THAT(ReleaseWithGroupBound(urbg, g, Measure::kProblematic, 1.0, 400,
                                    {cross, key}, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("t1.A = t2.A")));
}

// Where nearly every row conflicts (F_2 = n), I_P is released at theta = 2
// with an upper end from the uncovered rows.
TEST(GroupBoundTest, ProblematicTakesThetaTwoWhenEveryRowIsCovered) {
  SeededUrbg urbg(2);
  const Graph g = Complete(30);
  ASSERT_OK_AND_ASSIGN(const GroupBoundRelease r,
                       ReleaseWithGroupBound(urbg, g, Measure::kProblematic,
                                             1e6, 60, {{true, 29}}, 1));
  EXPECT_EQ(r.theta, 2u);
  EXPECT_EQ(r.value, 30);
  ASSERT_TRUE(r.uncovered_upper.has_value());
  EXPECT_EQ(*r.uncovered_upper, 0);
  // On a star forest with isolated rows the uncovered count is large.
  ASSERT_OK_AND_ASSIGN(
      const GroupBoundRelease stars,
      ReleaseWithGroupBound(urbg, StarForest({20, 20}, 50),
                            Measure::kProblematic, 1e6, 200, {{true, 20}}, 1));
  EXPECT_EQ(stars.theta, 20u);
}

// I_MI escalates to the degree upper bound when its extra noise is small
// against the edges (here: no noise at all), so nothing is cut.
TEST(GroupBoundTest, MinimalInconsistencyEscalatesOnALargeGraph) {
  SeededUrbg urbg(3);
  const Graph g = StarForest({30, 30, 30, 30}, 10);
  ASSERT_OK_AND_ASSIGN(
      const GroupBoundRelease r,
      ReleaseWithGroupBound(urbg, g, Measure::kMinimalInconsistency, 1e6, 500,
                            {{true, 20}, {true, 15}}, /*degree_keys=*/2));
  EXPECT_EQ(r.noisy_group_bound, 20u);
  EXPECT_EQ(r.degree_upper, 40u);
  EXPECT_EQ(r.theta, 40u);
  EXPECT_EQ(r.value, 120);
  // At epsilon 1 the same graph is too small to pay theta2's noise.
  SeededUrbg urbg1(3);
  ASSERT_OK_AND_ASSIGN(
      const GroupBoundRelease small,
      ReleaseWithGroupBound(urbg1, g, Measure::kMinimalInconsistency, 1.0, 500,
                            {{true, 20}, {true, 15}}, 2));
  EXPECT_EQ(small.theta, small.noisy_group_bound);
}

TEST(GroupBoundTest, BudgetPartsSumToAtMostEpsilon) {
  for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
    for (double eps : {1e-6, 0.1, 1.0 / 3, 1.0, 7.77, 1e6}) {
      SeededUrbg urbg(4);
      ASSERT_OK_AND_ASSIGN(const GroupBoundRelease r,
                           ReleaseWithGroupBound(urbg, StarGraph(10, 0), m, eps,
                                                 20, {{true, 9}}, 1));
      // Each split is exact (dp::SplitEpsilon); the long double sum of
      // four doubles is within 2^-60 of the exact one.
      const long double sum = static_cast<long double>(r.epsilon_group_bound) +
                              r.epsilon_uncovered + r.epsilon_scale +
                              r.epsilon_release;
      EXPECT_LE(sum, static_cast<long double>(eps) * (1 + 1e-18L)) << eps;
      EXPECT_GT(r.epsilon_release, 0.7 * eps);
      EXPECT_EQ(r.epsilon_uncovered > 0, m == Measure::kProblematic);
      EXPECT_EQ(r.epsilon_scale > 0, m == Measure::kMinimalInconsistency);
    }
  }
}

TEST(GroupBoundTest, RefusesWhatDoesNotApply) {
  SeededUrbg urbg(5);
  const Graph g = StarGraph(5, 0);
  EXPECT_THAT(
      ReleaseWithGroupBound(urbg, g, Measure::kRepair, 1, 10, {{true, 4}}, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(ReleaseWithGroupBound(urbg, g, Measure::kMinimalInconsistency, 1,
                                    10, {}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(ReleaseWithGroupBound(urbg, g, Measure::kMinimalInconsistency, 1,
                                    10, {{true, 4}, {false, 0}}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(ReleaseWithGroupBound(urbg, g, Measure::kMinimalInconsistency,
                                    std::nan(""), 10, {{true, 4}}, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

// ComputePrivateMeasure runs group_bound where every DC is keyed and gem
// otherwise (or when the buyer names the candidates), and says which.
TEST(GroupBoundTest, TheDefaultRunsAsGemWithoutAllKeyedDcs) {
  SeededUrbg urbg(6);
  const Graph g = StarForest({10, 10}, 5);
  PrivateMeasureRequest req;
  req.measure = Measure::kMinimalInconsistency;
  req.epsilon = 1;
  req.public_max_rows = 50;
  req.degree_bounds = {{true, 10}};
  ASSERT_OK_AND_ASSIGN(PrivateMeasureResult r,
                       ComputePrivateMeasure(urbg, g, req));
  EXPECT_EQ(r.method, "group_bound");
  EXPECT_TRUE(r.upper_proved);
  req.degree_bounds = {{true, 10}, {false, 0}};
  ASSERT_OK_AND_ASSIGN(r, ComputePrivateMeasure(urbg, g, req));
  EXPECT_EQ(r.method, "gem");
  EXPECT_FALSE(r.upper_proved);
  EXPECT_TRUE(r.truncated);
  req.degree_bounds = {{true, 10}};
  req.candidates = std::vector<uint64_t>{1, 5, 50};
  ASSERT_OK_AND_ASSIGN(r, ComputePrivateMeasure(urbg, g, req));
  EXPECT_EQ(r.method, "gem");
}

// Statistical (fixed seed): over 1,000 releases at epsilon 1 on a star
// forest with isolated rows whose hubs conflict through two keys (the
// largest group is 21 rows, the largest degree 40, so theta = B~ cuts the
// big stars), the 95% interval holds the exact value in at least 95% - 5
// sigma of them (a correct implementation misses that with probability
// below 1e-6), for both measures, while the noise-only interval value +-
// bound95 misses most of the time; every value lies in [0, N].
TEST(GroupBoundTest, IntervalsCoverTheExactValue) {
  const Graph g = StarForest({40, 40, 40, 40, 40, 35, 30, 20, 12, 5}, 300);
  const int64_t edges = static_cast<int64_t>(g.num_edges());
  const int64_t rows = static_cast<int64_t>(g.num_non_isolated());
  constexpr int kReleases = 1000;
  for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
    SeededUrbg urbg(7);
    PrivateMeasureRequest req;
    req.measure = m;
    req.epsilon = 1;
    req.public_max_rows = 2 * g.num_nodes();
    req.degree_bounds = {{true, 20}, {true, 20}};
    req.degree_keys = 2;
    const int64_t truth = m == Measure::kProblematic ? rows : edges;
    int covered = 0, noise_only = 0;
    for (int i = 0; i < kReleases; ++i) {
      ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                           ComputePrivateMeasure(urbg, g, req));
      ASSERT_GE(r.value, 0);
      ASSERT_LE(r.value, PublicMaximum(m, req.public_max_rows));
      ASSERT_LE(r.lower95, r.upper95);
      covered += r.lower95 <= truth && truth <= r.upper95;
      noise_only += std::llabs(r.value - truth) <= r.bound95;
    }
    EXPECT_LT(noise_only, kReleases / 2) << measures::MeasureName(m);
    EXPECT_GE(covered,
              kReleases * (0.95 - 5 * std::sqrt(0.95 * 0.05 / kReleases)))
        << measures::MeasureName(m);
  }
}

}  // namespace
}  // namespace dpq::core::private_measures
