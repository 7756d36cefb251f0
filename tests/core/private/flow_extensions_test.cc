// The node-private statistics of the default methods, checked exhaustively
// on every graph up to 7 nodes and every node removal (up to isomorphism,
// small_graph_enumeration.h), and on random graphs up to 25 nodes:
//  - the flow extensions of I_MI and I_P (flow_extensions.h (a)-(e));
//  - GEM's normalised scores over them (sensitivity 1);
//  - the cover_bound and the exact minimum cover of I_R (sensitivity 1).
// Deterministic.
#include "core/private/flow_extensions.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/dp/generalized_exponential_mechanism.h"
#include "core/graph/edge_addition.h"
#include "core/graph/graph.h"
#include "core/graph/max_flow.h"
#include "core/graph/twin_classes.h"
#include "core/measures/clique_lp_bound.h"
#include "core/measures/exact_measures.h"
#include "core/measures/measure.h"
#include "core/measures/vertex_cover.h"
#include "core/private/projection_quality.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/small_graph_enumeration.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using graph::Graph;
using measures::Measure;
using testing::AllNeighbourPairs;
using testing::NeighbourPair;

constexpr Measure kFlowMeasures[] = {Measure::kMinimalInconsistency,
                                     Measure::kProblematic};

// Every theta that can matter on graphs up to 7 nodes (degrees <= 6), and
// one above.
const std::vector<uint32_t>& SmallThetas() {
  static const std::vector<uint32_t> thetas = {1, 2, 3, 4, 5, 6, 7};
  return thetas;
}

std::vector<int64_t> Values(const Graph& g, Measure m,
                            const std::vector<uint32_t>& thetas) {
  auto values = FlowExtensionValues(g, m, thetas);
  EXPECT_TRUE(values.ok()) << values.status();
  return *values;
}

int64_t Exact(const Graph& g, Measure m) {
  return m == Measure::kMinimalInconsistency
             ? static_cast<int64_t>(g.num_edges())
             : static_cast<int64_t>(g.num_non_isolated());
}

std::vector<graph::NodeId> AllNodes(const Graph& g) {
  std::vector<graph::NodeId> nodes(g.num_nodes());
  for (graph::NodeId v = 0; v < g.num_nodes(); ++v) nodes[v] = v;
  return nodes;
}

std::vector<NeighbourPair> Pairs() {
  std::vector<NeighbourPair> pairs = AllNeighbourPairs(7);
  for (const testing::NamedGraph& ng : testing::RandomTestGraphs()) {
    for (graph::NodeId v = 0; v < ng.graph.num_nodes(); ++v) {
      pairs.push_back({ng.graph, ng.graph.WithoutNode(v)});
    }
  }
  return pairs;
}

const std::vector<NeighbourPair>& AllPairs() {
  static const std::vector<NeighbourPair>* pairs =
      new std::vector<NeighbourPair>(Pairs());
  return *pairs;
}

TEST(FlowExtensionTest, EnumerationCoversEveryGraphUpToSevenNodes) {
  // 1, 2, 4, 11, 34, 156 isomorphism classes on 1..6 nodes (OEIS A000088),
  // each with 2^n attachments of the next node.
  EXPECT_EQ(AllNeighbourPairs(7).size(),
            1u * 2 + 2u * 4 + 4u * 8 + 11u * 16 + 34u * 32 + 156u * 64);
}

TEST(FlowExtensionTest, KnownValues) {
  // Star with 5 leaves: I_MI keeps theta edges, I_P covers theta + 1 nodes.
  const Graph star = testing::StarGraph(6, 0);
  EXPECT_THAT(FlowExtensionValues(star, Measure::kMinimalInconsistency,
                                  std::vector<uint32_t>{1, 2, 5, 9}),
              IsOkAndHolds(::testing::ElementsAre(1, 2, 5, 5)));
  EXPECT_THAT(FlowExtensionValues(star, Measure::kProblematic,
                                  std::vector<uint32_t>{1, 2, 4, 5}),
              IsOkAndHolds(::testing::ElementsAre(2, 3, 5, 6)));
  // K5: theta = 1 already covers every node (a cyclic matching); the edge
  // flow is n * theta / 2 below the degree 4.
  std::vector<graph::Edge> k5;
  for (uint32_t u = 0; u < 5; ++u) {
    for (uint32_t v = u + 1; v < 5; ++v) k5.emplace_back(u, v);
  }
  const Graph clique = *Graph::FromEdges(5, k5);
  EXPECT_THAT(FlowExtensionValues(clique, Measure::kProblematic,
                                  std::vector<uint32_t>{1, 4}),
              IsOkAndHolds(::testing::ElementsAre(5, 5)));
  EXPECT_THAT(FlowExtensionValues(clique, Measure::kMinimalInconsistency,
                                  std::vector<uint32_t>{1, 2, 3, 4}),
              IsOkAndHolds(::testing::ElementsAre(2, 5, 7, 10)));
}

// The flow of the full double-cover network (flow_extensions.h), built
// node by node without contracting twins: the reference for the sweep.
int64_t FullNetworkFlow(const Graph& g, Measure m, uint32_t theta) {
  const uint32_t n = g.num_nodes();
  graph::MaxFlow<int64_t> flow(2 * n + 2);
  const uint32_t s = 2 * n, t = 2 * n + 1;
  for (graph::NodeId v = 0; v < n; ++v) {
    flow.AddArc(s, v, theta);
    flow.AddArc(n + v, t, m == Measure::kMinimalInconsistency ? theta : 1);
    for (graph::NodeId w : g.neighbors(v)) flow.AddArc(v, n + w, 1);
  }
  flow.Finalize();
  const int64_t total = flow.Run(s, t);
  return m == Measure::kMinimalInconsistency ? total / 2 : total;
}

// The sweep contracts twin classes to weighted nodes; on graphs full of
// twins (and with a few twins split by extra edges) its values equal the
// flows of the full network, theta by theta.
TEST(FlowExtensionTest, TwinContractionKeepsTheFlow) {
  const std::vector<uint32_t> thetas = {1, 2, 3, 5, 8, 13, 21, 40};
  int contracted = 0, with_cliques = 0;
  for (const testing::NamedGraph& ng : testing::TwinRichTestGraphs()) {
    const graph::TwinClasses classes = graph::TwinClasses::Find(
        ng.graph, AllNodes(ng.graph), graph::Twins::kFalseAndTrue);
    if (classes.size() < ng.graph.num_nodes()) ++contracted;
    for (uint32_t c = 0; c < classes.size(); ++c) {
      if (classes.clique(c)) {
        ++with_cliques;
        break;
      }
    }
    for (Measure m : kFlowMeasures) {
      const std::vector<int64_t> values = Values(ng.graph, m, thetas);
      for (size_t i = 0; i < thetas.size(); ++i) {
        ASSERT_EQ(values[i], FullNetworkFlow(ng.graph, m, thetas[i]))
            << ng.name << " " << measures::MeasureName(m)
            << " theta=" << thetas[i];
      }
    }
  }
  EXPECT_GE(contracted, 50);    // the graphs do have twins to contract
  EXPECT_GE(with_cliques, 25);  // and true twins among them
}

// One key over a unique column: a clique of every row, whose n - 1 ties per
// row made a double cover of n (n - 1) arcs (50M edges took 7 GB). Its rows
// are true twins, one class: the values are the closed forms, floor(n theta
// / 2) edges for I_MI (every node sends theta) and n nodes for I_P, from
// three arcs.
TEST(FlowExtensionTest, ACliqueIsOneClass) {
  constexpr uint32_t n = 1500;
  std::vector<graph::Edge> edges;
  edges.reserve(uint64_t{n} * (n - 1) / 2);
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) edges.emplace_back(u, v);
  }
  const Graph clique = *Graph::FromEdges(n, std::move(edges));
  const std::vector<uint32_t> thetas = {1, 7, 100, n - 2, n - 1, n};
  std::vector<int64_t> mi, p;
  for (uint32_t theta : thetas) {
    mi.push_back(
        std::min<int64_t>(int64_t{n} * theta / 2, int64_t{n} * (n - 1) / 2));
    p.push_back(n);
  }
  EXPECT_THAT(
      FlowExtensionValues(clique, Measure::kMinimalInconsistency, thetas),
      IsOkAndHolds(mi));
  EXPECT_THAT(FlowExtensionValues(clique, Measure::kProblematic, thetas),
              IsOkAndHolds(p));
}

// Values come from the memo where present and are computed only for the
// rest; either way they equal a fresh computation.
TEST(FlowExtensionTest, PartlyMemoizedThetasMatchAFreshComputation) {
  for (const testing::NamedGraph& ng : testing::RandomTestGraphs()) {
    for (Measure m : kFlowMeasures) {
      const Graph g = ng.graph.WithoutNode(0);  // a copy with its own memo
      const std::vector<uint32_t> all = {1, 2, 3, 5, 8};
      const std::vector<int64_t> fresh = Values(g, m, all);
      const Graph h = ng.graph.WithoutNode(0);
      Values(h, m, {2, 8});  // memoizes two of them
      ASSERT_EQ(Values(h, m, all), fresh) << ng.name;
      ASSERT_EQ(Values(h, m, {3}), std::vector<int64_t>{fresh[2]}) << ng.name;
    }
  }
}

// A release whose client left stops its flow sweep (docs/security.md, the
// sweep for loops that run after their caller left): the result is
// kCancelled, and no partial flow is memoized, so the next call is exact.
TEST(FlowExtensionTest, StoppedSweepMemoizesNothing) {
  for (const testing::NamedGraph& ng : testing::RandomTestGraphs()) {
    for (Measure m : kFlowMeasures) {
      const std::vector<uint32_t> all = {1, 2, 3, 5, 8};
      const std::vector<int64_t> fresh =
          Values(ng.graph.WithoutNode(0), m, all);
      const Graph g = ng.graph.WithoutNode(0);
      for (int polls_before_stop : {0, 1, 3}) {
        int polls = 0;
        const util::StopFn stop = [&] { return polls++ >= polls_before_stop; };
        const auto stopped = FlowExtensionValues(g, m, all, stop);
        // A graph without edges needs no flow, and nothing to stop.
        if (stopped.ok()) {
          EXPECT_EQ(*stopped, fresh) << ng.name;
        } else {
          EXPECT_THAT(stopped.status(),
                      StatusIs(absl::StatusCode::kCancelled, ::testing::_))
              << ng.name;
        }
      }
      EXPECT_EQ(Values(g, m, all), fresh) << ng.name;
    }
  }
}

// A graph whose sweep takes a while: random, no twins to contract.
Graph SlowSweepGraph() {
  std::mt19937_64 rng(7);
  constexpr uint32_t n = 3000;
  std::vector<graph::Edge> edges;
  for (int e = 0; e < 120'000; ++e) {
    const uint32_t u = static_cast<uint32_t>(rng() % n);
    const uint32_t v = static_cast<uint32_t>(rng() % n);
    if (u != v) edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  return *Graph::FromEdges(n, std::move(edges));
}

uint64_t Sweeps(const Graph& g) {
  absl::MutexLock lock(&g.memo()->mu);
  return g.memo()->flow_sweeps;
}

// Single flight: callers asking for the same thetas at once wait for the
// one sweep in progress; every one of them gets its values.
TEST(FlowExtensionTest, ConcurrentCallersShareOneSweep) {
  const Graph g = SlowSweepGraph();
  const std::vector<uint32_t> thetas = {3, 10};
  const Graph fresh = SlowSweepGraph();  // its own memo: a reference value
  const std::vector<int64_t> reference =
      Values(fresh, Measure::kMinimalInconsistency, thetas);
  ASSERT_EQ(Sweeps(g), 0u);
  std::vector<std::vector<int64_t>> got(8);
  std::vector<std::thread> callers;
  for (size_t i = 0; i < got.size(); ++i) {
    callers.emplace_back(
        [&, i] { got[i] = Values(g, Measure::kMinimalInconsistency, thetas); });
  }
  for (std::thread& t : callers) t.join();
  for (const std::vector<int64_t>& v : got) EXPECT_EQ(v, reference);
  EXPECT_EQ(Sweeps(g), 1u);
  // A caller with a new theta sweeps that one only.
  Values(g, Measure::kMinimalInconsistency, {3, 10, 20});
  EXPECT_EQ(Sweeps(g), 2u);
}

// A sweep whose caller left unmarks its thetas: the callers waiting for it
// sweep them themselves, and get exact values.
TEST(FlowExtensionTest, WaitersOfAStoppedSweepComputeIt) {
  const Graph fresh = SlowSweepGraph();
  const std::vector<int64_t> reference =
      Values(fresh, Measure::kProblematic, {4});
  const Graph g = SlowSweepGraph();
  std::atomic<bool> leave{false};
  std::thread leaver([&] {
    const auto stopped =
        FlowExtensionValues(g, Measure::kProblematic, std::vector<uint32_t>{4},
                            [&] { return leave.load(); });
    // Either it finished before it was told to leave, or it stopped.
    if (!stopped.ok()) {
      EXPECT_THAT(stopped.status(),
                  StatusIs(absl::StatusCode::kCancelled, ::testing::_));
    } else {
      EXPECT_EQ(*stopped, reference);
    }
  });
  std::vector<std::vector<int64_t>> got(3);
  std::vector<std::thread> waiters;
  for (size_t i = 0; i < got.size(); ++i) {
    waiters.emplace_back(
        [&, i] { got[i] = Values(g, Measure::kProblematic, {4}); });
  }
  leave = true;
  leaver.join();
  for (std::thread& t : waiters) t.join();
  for (const std::vector<int64_t>& v : got) EXPECT_EQ(v, reference);
}

TEST(FlowExtensionTest, RefusesOtherMeasuresAndBadThetas) {
  const Graph g = testing::StarGraph(4, 0);
  EXPECT_THAT(FlowExtensionValues(g, Measure::kRepair, {1}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(FlowExtensionValues(g, Measure::kProblematic,
                                  std::vector<uint32_t>{2, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(FlowExtensionSensitivity(Measure::kMinimalInconsistency, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  EXPECT_THAT(FlowExtensionSensitivity(Measure::kProblematic, 7),
              IsOkAndHolds(8));
}

// (d): |f(G) - f(G - v)| <= Delta_theta, and monotone.
TEST(FlowExtensionTest, NeighboursDifferByAtMostTheSensitivity) {
  for (Measure m : kFlowMeasures) {
    for (const NeighbourPair& p : AllPairs()) {
      const std::vector<int64_t> with = Values(p.with, m, SmallThetas());
      const std::vector<int64_t> without = Values(p.without, m, SmallThetas());
      for (size_t i = 0; i < SmallThetas().size(); ++i) {
        const int64_t delta = *FlowExtensionSensitivity(m, SmallThetas()[i]);
        ASSERT_GE(with[i], without[i]) << measures::MeasureName(m);
        ASSERT_LE(with[i] - without[i], delta)
            << measures::MeasureName(m) << " theta=" << SmallThetas()[i]
            << " n=" << p.with.num_nodes() << " m=" << p.with.num_edges();
      }
    }
  }
}

// (a), (b), (c), (e) on every graph of the enumeration.
TEST(FlowExtensionTest, UndercountsExactAtMaxDegreeAndBeatsTheProjection) {
  for (Measure m : kFlowMeasures) {
    for (const NeighbourPair& p : AllPairs()) {
      const Graph& g = p.with;
      const std::vector<int64_t> f = Values(g, m, SmallThetas());
      for (size_t i = 0; i < f.size(); ++i) {
        const uint32_t theta = SmallThetas()[i];
        ASSERT_LE(f[i], Exact(g, m));
        if (g.max_degree() <= theta) {
          ASSERT_EQ(f[i], Exact(g, m));
        }
        if (i > 0) {
          ASSERT_GE(f[i], f[i - 1]);
        }
        const int64_t projected =
            *ProjectedStatistic(m, graph::EdgeAdditionCounts(g, theta));
        ASSERT_GE(f[i], projected) << measures::MeasureName(m);
      }
    }
  }
}

// GEM's normalised score over the flow extensions moves by at most 1.
TEST(FlowExtensionTest, GemScoresHaveSensitivityOne) {
  const std::vector<uint32_t>& thetas = SmallThetas();
  for (Measure m : kFlowMeasures) {
    std::vector<int64_t> sensitivities;
    std::vector<double> costs;
    for (uint32_t theta : thetas) {
      sensitivities.push_back(*FlowExtensionSensitivity(m, theta));
      costs.push_back(static_cast<double>(sensitivities.back()) / 0.8);
    }
    const double t = *dp::GemThreshold(thetas.size(), 0.1, 0.2);
    for (const NeighbourPair& p : AllPairs()) {
      const std::vector<int64_t> a = Values(p.with, m, thetas);
      const std::vector<int64_t> b = Values(p.without, m, thetas);
      const std::vector<double> sa =
          *dp::GemScores({a, sensitivities, costs}, t);
      const std::vector<double> sb =
          *dp::GemScores({b, sensitivities, costs}, t);
      for (size_t i = 0; i < thetas.size(); ++i) {
        ASSERT_LE(std::abs(sa[i] - sb[i]), 1.0 + 1e-9)
            << measures::MeasureName(m) << " theta=" << thetas[i];
      }
    }
  }
}

// I_R: cover_bound and the exact minimum cover, sensitivity 1, and
// cover_bound <= I_R.
TEST(CoverBoundTest, LowerBoundWithSensitivityOne) {
  for (const NeighbourPair& p : AllPairs()) {
    const int64_t bound_with = measures::CoverLowerBound(p.with);
    const int64_t bound_without = measures::CoverLowerBound(p.without);
    ASSERT_LE(std::abs(bound_with - bound_without), 1);
    const auto exact_with = measures::ExactRepairOrExplain(p.with);
    const auto exact_without = measures::ExactRepairOrExplain(p.without);
    ASSERT_TRUE(exact_with.ok() && exact_without.ok());
    ASSERT_LE(bound_with, static_cast<int64_t>(*exact_with));
    ASSERT_LE(std::abs(static_cast<int64_t>(*exact_with) -
                       static_cast<int64_t>(*exact_without)),
              1);
  }
}

// The clique LP of cover_bound on a bare graph (edges and every triangle,
// no FD blocks): monotone, sensitivity 1, between ceil(LP) and I_R.
TEST(CoverBoundTest, TriangleLpIsMonotoneWithSensitivityOne) {
  for (const NeighbourPair& p : AllPairs()) {
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound with,
                         measures::CliqueLpCoverBound(p.with, {}));
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound without,
                         measures::CliqueLpCoverBound(p.without, {}));
    ASSERT_GE(with.bound, without.bound);
    ASSERT_LE(with.bound - without.bound, 1u);
    ASSERT_LE(with.lp_value - without.lp_value, 1.0 + 1e-9);
    ASSERT_GE(with.bound, measures::CoverLowerBound(p.with));
    ASSERT_LE(with.bound, *measures::ExactRepairOrExplain(p.with));
  }
}

}  // namespace
}  // namespace dpq::core::private_measures
