// Checks every sensitivity of docs/privacy.md 6 that core/private relies on, on
// neighbouring graphs (tables): each node (row) of many small random inputs
// is removed in turn, and the change of the statistic is compared with the
// bound the mechanism uses. Deterministic (fixed seeds).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/constraints/denial_constraint.h"
#include "core/graph/edge_addition.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/private/private_vertex_cover.h"
#include "core/private/projection_quality.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using graph::EdgeAdditionCounts;
using graph::Graph;
using measures::Measure;
using testing::NamedGraph;
using testing::RandomTestGraphs;

// Thetas to try on a graph: every value up to max degree + 1 (beyond it
// nothing changes).
std::vector<uint32_t> AllThetas(const Graph& g) {
  std::vector<uint32_t> out;
  for (uint32_t t = 1; t <= g.max_degree() + 1; ++t) out.push_back(t);
  return out;
}

int64_t Statistic(Measure m, const Graph& g, uint32_t theta) {
  return *ProjectedStatistic(m, EdgeAdditionCounts(g, theta));
}

TEST(ProjectionSensitivityTest, EdgeCountChangeIsBetweenZeroAndTheta) {
  // Paper Lemma 1: |E(G_theta)| - |E((G - v)_theta)| in [0, theta].
  for (const NamedGraph& ng : RandomTestGraphs()) {
    const Graph& g = ng.graph;
    for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
      const Graph h = g.WithoutNode(v);
      for (uint32_t theta : AllThetas(g)) {
        const int64_t diff =
            Statistic(Measure::kMinimalInconsistency, g, theta) -
            Statistic(Measure::kMinimalInconsistency, h, theta);
        ASSERT_GE(diff, 0) << ng.name << " v=" << v << " theta=" << theta;
        ASSERT_LE(diff, static_cast<int64_t>(theta))
            << ng.name << " v=" << v << " theta=" << theta;
        ASSERT_LE(static_cast<double>(diff),
                  *ProjectedStatisticSensitivity(Measure::kMinimalInconsistency,
                                                 theta));
      }
    }
  }
}

TEST(ProjectionSensitivityTest, PositiveDegreeChangeIsWithinThetaPlusOne) {
  // docs/privacy.md 6.1: |G_theta.V>0| - |(G - v)_theta.V>0| in
  // [-theta, theta + 1].
  bool attained = false;
  for (const NamedGraph& ng : RandomTestGraphs()) {
    const Graph& g = ng.graph;
    for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
      const Graph h = g.WithoutNode(v);
      for (uint32_t theta : AllThetas(g)) {
        const int64_t diff = Statistic(Measure::kProblematic, g, theta) -
                             Statistic(Measure::kProblematic, h, theta);
        const int64_t t = theta;
        ASSERT_GE(diff, -t) << ng.name << " v=" << v << " theta=" << theta;
        ASSERT_LE(diff, t + 1) << ng.name << " v=" << v << " theta=" << theta;
        ASSERT_LE(std::abs(static_cast<double>(diff)),
                  *ProjectedStatisticSensitivity(Measure::kProblematic, theta));
        attained = attained || diff == t + 1;
      }
    }
  }
  EXPECT_TRUE(attained) << "no random graph reached theta + 1";
}

TEST(ProjectionSensitivityTest, StarShowsThePapersThetaIsTooSmallForIp) {
  // Star with 6 leaves. For theta <= 6 the centre keeps theta edges, so
  // theta + 1 nodes have positive degree; without the centre none has.
  const Graph star = testing::StarGraph(7, 0);
  const Graph without_centre = star.WithoutNode(0);
  for (uint32_t theta = 1; theta <= 6; ++theta) {
    const int64_t diff =
        Statistic(Measure::kProblematic, star, theta) -
        Statistic(Measure::kProblematic, without_centre, theta);
    EXPECT_EQ(diff, static_cast<int64_t>(theta) + 1);
    // The paper's bound (theta) is violated ...
    EXPECT_GT(diff, static_cast<int64_t>(theta));
    // ... and ours holds with equality.
    EXPECT_EQ(static_cast<double>(diff),
              *ProjectedStatisticSensitivity(Measure::kProblematic, theta));
  }
}

// max over candidates of |q(G, theta) - q(G - v, theta)| for the candidate
// set {1, ..., theta_max} u {above} (above > theta_max has no bias term).
double MaxQualityChange(Measure m, const Graph& g, const Graph& h,
                        uint32_t theta_max, std::optional<uint32_t> above) {
  std::vector<uint32_t> thetas;
  for (uint32_t t = 1; t <= theta_max; ++t) thetas.push_back(t);
  if (above.has_value()) thetas.push_back(*above);
  std::vector<int64_t> fg, fh;
  for (uint32_t t : thetas) {
    fg.push_back(Statistic(m, g, t));
    fh.push_back(Statistic(m, h, t));
  }
  const double eps2 = 0.7;
  const std::vector<double> qg =
      *ProjectionQualities(m, thetas, fg, theta_max, eps2);
  const std::vector<double> qh =
      *ProjectionQualities(m, thetas, fh, theta_max, eps2);
  double worst = 0;
  for (size_t i = 0; i < thetas.size(); ++i) {
    worst = std::max(worst, std::abs(qg[i] - qh[i]));
  }
  return worst;
}

void CheckQualitySensitivity(Measure m, double* worst_ratio) {
  for (const NamedGraph& ng : RandomTestGraphs()) {
    const Graph& g = ng.graph;
    for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
      const Graph h = g.WithoutNode(v);
      for (uint32_t theta_max = 1; theta_max <= g.max_degree() + 1;
           ++theta_max) {
        const double bound = *QualitySensitivity(m, theta_max);
        // With and without the unbiased candidate N (optimized EM step 1).
        const std::optional<uint32_t> none;
        const std::optional<uint32_t> n_above(g.num_nodes() + theta_max);
        for (const std::optional<uint32_t>& above : {none, n_above}) {
          const double change = MaxQualityChange(m, g, h, theta_max, above);
          ASSERT_LE(change, bound + 1e-9)
              << ng.name << " v=" << v << " theta_max=" << theta_max;
          *worst_ratio = std::max(*worst_ratio, change / theta_max);
        }
      }
    }
  }
}

TEST(QualitySensitivityTest, MiQualityChangesAtMostThetaMax) {
  double worst_ratio = 0;  // max change / theta_max
  CheckQualitySensitivity(Measure::kMinimalInconsistency, &worst_ratio);
  EXPECT_LE(worst_ratio, 1.0 + 1e-9);  // the sqrt(2) terms cancel inexactly
}

TEST(QualitySensitivityTest, IpQualityChangesAtMostTwiceThetaMax) {
  double worst_ratio = 0;
  CheckQualitySensitivity(Measure::kProblematic, &worst_ratio);
  EXPECT_LE(worst_ratio, 2.0);
  // For the record (and the reviewer): how close the random search comes to
  // the paper's theta_max (ratio 1) and to ours (ratio 2).
  RecordProperty("ip_worst_quality_change_over_theta_max",
                 std::to_string(worst_ratio));
  std::cout << "I_P: worst |q(G) - q(G - v)| / theta_max = " << worst_ratio
            << "\n";
}

TEST(QualitySensitivityTest, IpQualityExceedsThePapersThetaMax) {
  // Found by exhaustive search over graphs with 5 nodes: edges 01 03 13 14
  // 23, remove node 0, theta_max = 2, theta = 1. f_2 goes 3 -> 4 (a
  // displaced edge comes back) while f_1 goes 4 -> 2, so the I_P quality of
  // theta = 1 moves by 3 > theta_max = 2: paper Lemma 2's bound fails for
  // I_P, and 2 * theta_max (docs/privacy.md 6.1) is needed.
  const Graph g =
      *Graph::FromEdges(5, {{0, 1}, {0, 3}, {1, 3}, {1, 4}, {2, 3}});
  const Graph h = g.WithoutNode(0);
  EXPECT_EQ(Statistic(Measure::kProblematic, g, 2), 3);
  EXPECT_EQ(Statistic(Measure::kProblematic, h, 2), 4);
  EXPECT_EQ(Statistic(Measure::kProblematic, g, 1), 4);
  EXPECT_EQ(Statistic(Measure::kProblematic, h, 1), 2);
  const double change =
      MaxQualityChange(Measure::kProblematic, g, h, 2, std::nullopt);
  EXPECT_NEAR(change, 3.0, 1e-9);
  EXPECT_GT(change, 2.0);
  EXPECT_LE(change, *QualitySensitivity(Measure::kProblematic, 2));
}

TEST(VertexCoverSensitivityTest, CoverSizeChangesAtMostTwo) {
  // Paper Proposition 3.
  for (const NamedGraph& ng : RandomTestGraphs()) {
    const Graph& g = ng.graph;
    const int64_t c = graph::StableGreedyVertexCoverSize(g);
    for (graph::NodeId v = 0; v < g.num_nodes(); ++v) {
      const int64_t d =
          c - static_cast<int64_t>(
                  graph::StableGreedyVertexCoverSize(g.WithoutNode(v)));
      ASSERT_LE(std::abs(static_cast<double>(d)), kVertexCoverSensitivity)
          << ng.name << " v=" << v;
    }
  }
}

TEST(VertexCoverSensitivityTest, Example6NeighboursHaveEqualCovers) {
  const Graph g_prime = testing::Figure2Graph();
  EXPECT_EQ(graph::StableGreedyVertexCoverSize(g_prime), 6u);
  EXPECT_EQ(graph::StableGreedyVertexCoverSize(g_prime.WithoutNode(4)), 6u);
}

// --- Degree bound (Lemma 3): sensitivity 1 per keyed DC. ---

constraints::Operand ColumnOf(constraints::TupleVar t, size_t column) {
  constraints::Operand o;
  o.tuple = t;
  o.column = column;
  return o;
}

constraints::Predicate Join(size_t a, constraints::CompareOp op, size_t b) {
  constraints::Predicate p;
  p.lhs = ColumnOf(constraints::TupleVar::kT1, a);
  p.op = op;
  p.rhs = ColumnOf(constraints::TupleVar::kT2, b);
  return p;
}

// A random DC over `num_columns` columns: 1-2 same-column equalities plus
// 0-2 other join predicates (inequalities or cross-column comparisons).
constraints::DenialConstraint RandomKeyedDc(std::mt19937_64& rng,
                                            size_t num_columns) {
  constraints::DenialConstraint dc;
  const int equalities = 1 + static_cast<int>(rng() % 2);
  for (int i = 0; i < equalities; ++i) {
    const size_t c = rng() % num_columns;
    dc.predicates.push_back(Join(c, constraints::CompareOp::kEq, c));
  }
  const int others = static_cast<int>(rng() % 3);
  for (int i = 0; i < others; ++i) {
    const auto op = static_cast<constraints::CompareOp>(rng() % 6);
    dc.predicates.push_back(Join(rng() % num_columns, op, rng() % num_columns));
  }
  return dc;
}

absl::StatusOr<table::Table> RandomTable(std::mt19937_64& rng,
                                         const table::Schema& schema,
                                         size_t rows) {
  std::vector<std::vector<std::optional<std::string>>> cells(rows);
  const int domain = 1 + static_cast<int>(rng() % 4);
  for (auto& row : cells) {
    for (size_t c = 0; c < schema.num_columns(); ++c) {
      if (rng() % 8 == 0) {
        row.push_back(std::nullopt);
        continue;
      }
      const int value = static_cast<int>(rng() % domain);
      switch (schema.column(c).type) {
        case table::ColumnType::kInt64:
          row.push_back(std::to_string(value - 1));
          break;
        case table::ColumnType::kDouble:
          // -0 and 0 are the same value.
          row.push_back(value == 0 ? "-0.0" : std::to_string(value * 0.5));
          break;
        case table::ColumnType::kString:
          row.push_back(std::string(1, static_cast<char>('a' + value)));
          break;
      }
    }
    if (rng() % 5 == 0 && !cells.empty()) row = cells.front();  // duplicate
  }
  return table::Table::FromCells(schema, cells);
}

TEST(DegreeBoundSensitivityTest, EachDcBoundChangesAtMostOne) {
  ASSERT_OK_AND_ASSIGN(
      const table::Schema schema,
      table::Schema::Create({{"a", table::ColumnType::kInt64},
                             {"b", table::ColumnType::kString},
                             {"c", table::ColumnType::kDouble},
                             {"d", table::ColumnType::kString}}));
  std::mt19937_64 rng(424242);
  for (int trial = 0; trial < 150; ++trial) {
    const size_t rows = rng() % 20;
    ASSERT_OK_AND_ASSIGN(const table::Table t, RandomTable(rng, schema, rows));
    std::vector<constraints::DenialConstraint> dcs;
    const int k = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < k; ++i) dcs.push_back(RandomKeyedDc(rng, 4));
    ASSERT_OK_AND_ASSIGN(const std::vector<DcDegreeBound> full,
                         ComputeDegreeBounds(t, dcs));
    int64_t full_sum = 0;
    for (const DcDegreeBound& b : full) {
      ASSERT_TRUE(b.keyed);
      full_sum += static_cast<int64_t>(b.bound);
    }
    for (size_t r = 0; r < rows; ++r) {
      ASSERT_OK_AND_ASSIGN(const std::vector<DcDegreeBound> less,
                           ComputeDegreeBounds(t.WithoutRow(r), dcs));
      int64_t less_sum = 0;
      for (size_t i = 0; i < dcs.size(); ++i) {
        const int64_t d = static_cast<int64_t>(full[i].bound) -
                          static_cast<int64_t>(less[i].bound);
        ASSERT_GE(d, 0) << "trial " << trial << " row " << r;
        ASSERT_LE(d, 1) << "trial " << trial << " row " << r;
        less_sum += static_cast<int64_t>(less[i].bound);
      }
      // The noised sum has sensitivity k (NoisyDegreeBound).
      ASSERT_LE(full_sum - less_sum, k);
    }
  }
}

TEST(DegreeBoundSensitivityTest, BoundCoversEveryTuplesConflictsThroughAnFd) {
  // Lemma 3: under the FD a -> b, a tuple conflicts with at most
  // d_bound(D, {a}) others. Brute force over all pairs.
  ASSERT_OK_AND_ASSIGN(
      const table::Schema schema,
      table::Schema::Create({{"a", table::ColumnType::kInt64},
                             {"b", table::ColumnType::kString},
                             {"c", table::ColumnType::kDouble},
                             {"d", table::ColumnType::kString}}));
  std::mt19937_64 rng(777);
  for (int trial = 0; trial < 100; ++trial) {
    ASSERT_OK_AND_ASSIGN(const table::Table t,
                         RandomTable(rng, schema, rng() % 25));
    const std::vector<size_t> x = {0};
    ASSERT_OK_AND_ASSIGN(const uint64_t bound, DegreeBoundForColumns(t, x));
    const table::Column& a = t.column(0);
    const table::Column& b = t.column(1);
    for (size_t i = 0; i < t.num_rows(); ++i) {
      uint64_t degree = 0;
      for (size_t j = 0; j < t.num_rows(); ++j) {
        if (i == j || a.is_null(i) || a.is_null(j) || b.is_null(i) ||
            b.is_null(j)) {
          continue;
        }
        if (a.int64s[i] == a.int64s[j] && b.string_ids[i] != b.string_ids[j]) {
          ++degree;
        }
      }
      ASSERT_LE(degree, bound) << "trial " << trial << " row " << i;
    }
  }
}

}  // namespace
}  // namespace dpq::core::private_measures
