// The Section 6 harness without data: theta candidates, method names and
// their checks, medians. The runs on the shared Hospital data are in
// experiments_shared_data_test.cc; the full runs are run-all.sh
// (docs/experiments.md).
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "bench/experiments/experiment_runner.h"
#include "bench/experiments/gem_tuning.h"
#include "bench/experiments/general_dc_tables.h"
#include "bench/experiments/measure_evaluation.h"
#include "bench/experiments/small_tables.h"
#include "core/graph/conflict_graph_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {
namespace {

using ::testing::ElementsAre;

TEST(PaperThetaCandidatesTest, MatchesSection61) {
  EXPECT_THAT(PaperThetaCandidates(3000),
              ElementsAre(1, 5, 10, 100, 500, 1000, 2000, 3000));
  EXPECT_THAT(PaperThetaCandidates(700), ElementsAre(1, 5, 10, 100, 500, 700));
  EXPECT_EQ(PaperThetaCandidates(10'000).size(), 15u);
}

TEST(EvaluateMethodTest, RefusesMismatchedMethodAndMeasure) {
  auto g = core::graph::Graph::FromEdges(4, {{0, 1}, {1, 2}, {2, 3}});
  ASSERT_TRUE(g.ok());
  GraphCase c;
  c.graph = *g;
  c.public_max_rows = 4;
  c.candidates = PaperThetaCandidates(4);
  c.i_mi = 3;
  c.i_p = 4;
  c.i_r = 2;
  testing::SeededUrbg urbg(1);
  using core::measures::Measure;
  EXPECT_FALSE(EvaluateMethod(urbg, c, Measure::kMinimalInconsistency,
                              Method::kVertexCover, 1, 3)
                   .ok());
  EXPECT_FALSE(
      EvaluateMethod(urbg, c, Measure::kRepair, Method::kOptimized, 1, 3).ok());
  EXPECT_FALSE(
      EvaluateMethod(urbg, c, Measure::kRepair, Method::kVertexCover, 1, 0)
          .ok());
  auto stats =
      EvaluateMethod(urbg, c, Measure::kProblematic, Method::kBaseline2, 1, 3);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->theta_mean, 2);  // d_max of the path
  EXPECT_EQ(stats->true_value, 4);
}

TEST(GemTuneCandidatesTest, PowersOfTwoUpToN) {
  EXPECT_THAT(PowersOfTwoCandidates(10), ElementsAre(1, 2, 4, 8, 10));
  EXPECT_THAT(PowersOfTwoCandidates(8), ElementsAre(1, 2, 4, 8));
  EXPECT_THAT(PowersOfTwoCandidates(1), ElementsAre(1));
  EXPECT_FALSE(GemTuneCandidates("1-3-10", 10).ok());
  EXPECT_EQ(DefaultGemTuneGrid().size(), 72u);
}

TEST(EvaluateMethodTest, ExactNeedsAProvedCover) {
  auto g = core::graph::Graph::FromEdges(3, {{0, 1}, {1, 2}});
  ASSERT_TRUE(g.ok());
  GraphCase c;
  c.graph = *g;
  c.i_r = 1;
  testing::SeededUrbg urbg(1);
  auto s = EvaluateMethod(urbg, c, core::measures::Measure::kRepair,
                          Method::kExact, 1, 3);
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  c.exact_repair = 1;
  EXPECT_TRUE(EvaluateMethod(urbg, c, core::measures::Measure::kRepair,
                             Method::kExact, 1, 3)
                  .ok());
  EXPECT_FALSE(EvaluateMethod(urbg, c, core::measures::Measure::kProblematic,
                              Method::kCoverBound, 1, 3)
                   .ok());
}

TEST(MethodNameTest, ParseMethodInvertsMethodName) {
  for (Method m : {Method::kBaseline1, Method::kBaseline2, Method::kBasic,
                   Method::kHierarchical, Method::kOptimized, Method::kGem,
                   Method::kVertexCover, Method::kCoverBound, Method::kExact}) {
    auto parsed = ParseMethod(MethodName(m));
    ASSERT_TRUE(parsed.ok()) << MethodName(m);
    EXPECT_EQ(*parsed, m);
  }
  EXPECT_FALSE(ParseMethod("lp").ok());
  EXPECT_TRUE(IsRepairMethod(Method::kCoverBound));
  EXPECT_FALSE(IsRepairMethod(Method::kGem));
}

TEST(MedianTest, OddEvenAndEmpty) {
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_TRUE(std::isnan(Median({})));
}

TEST(RunExperimentsTest, RejectsUnknownFigure) {
  ExperimentOptions o;
  o.figures = {"fig9"};
  EXPECT_FALSE(RunExperiments(o).ok());
}

// The star generator: k groups, one typo row each, padded to `rows`; the
// conflict graph is k disjoint stars of degree size - 1.
TEST(StarTableTest, IsDisjointStarsOfTheGroupSizes) {
  for (size_t regions : {size_t{0}, size_t{150}}) {
    StarTableSpec spec;
    spec.groups = 10;
    spec.min_size = 20;
    spec.max_size = 30;
    spec.rows = 500;
    spec.clean_region_size = regions;
    absl::StatusOr<TableWithDcs> t = GenerateStarTable(spec);
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_EQ(t->cells.rows.size(), 500u);
    absl::StatusOr<core::table::Table> table = generators::ToTable(t->cells);
    ASSERT_TRUE(table.ok());
    absl::StatusOr<core::graph::ConflictGraph> g =
        core::graph::BuildConflictGraph(*table, t->dcs);
    ASSERT_TRUE(g.ok()) << g.status();
    size_t hubs = 0, leaves = 0;
    for (uint32_t v = 0; v < g->graph.num_nodes(); ++v) {
      const uint32_t d = g->graph.degree(v);
      if (d >= 19) ++hubs;
      if (d == 1) ++leaves;
    }
    EXPECT_EQ(hubs, 10u);
    EXPECT_EQ(leaves, g->graph.num_edges());
    EXPECT_LE(g->graph.max_degree(), 29u);
    EXPECT_EQ(g->graph.num_non_isolated(), hubs + leaves);
  }
  StarTableSpec too_big;
  too_big.groups = 100;
  too_big.rows = 100;
  EXPECT_FALSE(GenerateStarTable(too_big).ok());
}

// The shuffled log conflicts only within its runs (rows of one run are
// consecutive, so every edge joins rows at most max_run - 1 apart), has
// cliques longer than triangles, and its FD variant adds the host stars;
// bookings conflict only within a room.
TEST(GeneralDcTablesTest, GeneratorsMakeTheirConflictShapes) {
  auto graph_of = [](const TableWithDcs& t) {
    absl::StatusOr<core::table::Table> table = generators::ToTable(t.cells);
    EXPECT_TRUE(table.ok());
    absl::StatusOr<core::graph::ConflictGraph> g =
        core::graph::BuildConflictGraph(*table, t.dcs);
    EXPECT_TRUE(g.ok()) << g.status();
    return std::move(g->graph);
  };
  ShuffledLogSpec log{1000, 0.02, 20, 50, 3};
  absl::StatusOr<TableWithDcs> t = GenerateShuffledLog(log);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->dcs.size(), 1u);
  const core::graph::Graph g = graph_of(*t);
  EXPECT_GT(g.num_edges(), 500u);
  EXPECT_GE(g.max_degree(), 10u);
  for (uint32_t u = 0; u < g.num_nodes(); ++u) {
    for (uint32_t v : g.neighbors(u)) {
      ASSERT_LT(v > u ? v - u : u - v, 50u) << u << " " << v;
    }
  }
  log.host_typos = 0.02;
  t = GenerateShuffledLog(log);
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->dcs.size(), 2u);
  EXPECT_GT(graph_of(*t).num_edges(), g.num_edges());
  log.min_run = 1;
  EXPECT_FALSE(GenerateShuffledLog(log).ok());

  absl::StatusOr<TableWithDcs> b = GenerateBookings({1000, 20, 0.5, 3, 300});
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->cells.rows.size(), 1000u);
  const core::graph::Graph bookings = graph_of(*b);
  EXPECT_GT(bookings.num_edges(), 100u);
  for (uint32_t u = 0; u < bookings.num_nodes(); ++u) {
    for (uint32_t v : bookings.neighbors(u)) {
      ASSERT_EQ(b->cells.rows[u][0], b->cells.rows[v][0]);  // the room
    }
  }
}

}  // namespace
}  // namespace dpq::bench::experiments
