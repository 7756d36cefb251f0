// Sensitivity composition on all graphs with 5 vertices (docs/selection.md,
// "Tests"): candidates are the vertices, objectives (degree, egocentric
// density) with delta^deg = 1 and the corrected delta^ed, neighbours differ in
// one edge.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/selection/dominance.h"
#include "core/selection/egodensity_sensitivity.h"
#include "core/selection/pareto_sensitivity.h"
#include "core/selection/priv_agg.h"
#include "core/selection/priv_pareto.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/selection/weighted_sum_sensitivity.h"
#include "gtest/gtest.h"
#include "tests/core/selection/small_graphs.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::SmallGraphs;

// Everything the checks need about one graph.
struct GraphCase {
  ScoreTable table;
  ConstantSensitivity degree{1.0};
  EgocentricDensitySensitivity density;
  std::vector<int64_t> ps;

  GraphCase(const SmallGraphs& graphs, uint32_t g)
      : table(graphs.DegreeAndDensity(g)),
        density(graphs.Degrees(g)),
        ps(ParetoScores(table)) {}
  std::vector<const SensitivityFunction*> sens() const {
    return {&degree, &density};
  }
};

class CompositionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    graphs_ = new SmallGraphs(5);
    cases_ = new std::vector<GraphCase>();
    for (uint32_t g = 0; g < graphs_->num_graphs(); ++g) {
      cases_->emplace_back(*graphs_, g);
    }
  }
  static void TearDownTestSuite() {
    delete cases_;
    delete graphs_;
  }
  static SmallGraphs* graphs_;
  static std::vector<GraphCase>* cases_;
};
SmallGraphs* CompositionTest::graphs_ = nullptr;
std::vector<GraphCase>* CompositionTest::cases_ = nullptr;

TEST_F(CompositionTest, ParetoSensitivityIsAdmissible) {
  const size_t n = 5;
  constexpr uint64_t kLevels = 4;  // t = 0..3: (A2) for t <= 2
  // delta^PS(x, t, r) per graph, computed once.
  std::vector<std::vector<std::vector<double>>> delta;
  for (const GraphCase& c : *cases_) {
    auto d = ParetoSensitivity::Create(c.table, c.sens());
    ASSERT_TRUE(d.ok());
    std::vector<std::vector<double>> levels(kLevels, std::vector<double>(n));
    for (uint64_t t = 0; t < kLevels; ++t) {
      for (size_t r = 0; r < n; ++r) levels[t][r] = d->At(r, t);
    }
    delta.push_back(std::move(levels));
  }
  for (uint32_t g = 0; g < graphs_->num_graphs(); ++g) {
    const GraphCase& x = (*cases_)[g];
    for (int e = 0; e < graphs_->pairs(); ++e) {
      const uint32_t h = g ^ (1u << e);
      const GraphCase& y = (*cases_)[h];
      for (size_t r = 0; r < n; ++r) {
        const double d0 = delta[g][0][r];
        ASSERT_LE(std::abs(x.ps[r] - y.ps[r]), d0)
            << "A1 graph " << g << " edge " << e << " vertex " << r;
        ASSERT_LE(d0, n - 1);
        for (uint64_t t = 0; t + 1 < kLevels; ++t) {
          ASSERT_GE(delta[g][t + 1][r], delta[h][t][r])
              << "A2 graph " << g << " edge " << e << " vertex " << r;
        }
      }
    }
  }
}

TEST_F(CompositionTest, WeightedSumSensitivityIsAdmissible) {
  for (const std::vector<double>& w :
       {std::vector<double>{1, 100}, std::vector<double>{-2, 3}}) {
    for (uint32_t g = 0; g < graphs_->num_graphs(); ++g) {
      const GraphCase& x = (*cases_)[g];
      auto dx = WeightedSumSensitivity::Create(w, x.sens());
      ASSERT_TRUE(dx.ok());
      EXPECT_DOUBLE_EQ(dx->Global(), std::fabs(w[0]) + std::fabs(w[1]));
      const std::vector<double> ux = AggregateScores(x.table, w);
      for (int e = 0; e < graphs_->pairs(); ++e) {
        const GraphCase& y = (*cases_)[g ^ (1u << e)];
        auto dy = WeightedSumSensitivity::Create(w, y.sens());
        ASSERT_TRUE(dy.ok());
        const std::vector<double> uy = AggregateScores(y.table, w);
        for (size_t r = 0; r < 5; ++r) {
          ASSERT_LE(std::fabs(ux[r] - uy[r]), dx->At(r, 0) + 1e-9)
              << "A1 graph " << g << " vertex " << r;
          for (uint64_t t = 0; t <= 3; ++t) {
            ASSERT_GE(dx->At(r, t + 1), dy->At(r, t));
          }
        }
      }
    }
  }
}

// |D(x, r) - D(y, r)| <= 1: what local dampening's epsilon-DP rests on.
TEST_F(CompositionTest, DampenedScoresMoveByAtMostOne) {
  const std::vector<double> w = {1, 100};
  std::vector<SelectionScores> pareto, agg;
  for (const GraphCase& c : *cases_) {
    auto p = PrivParetoLocalScores(c.table, c.sens(), 1000);
    auto a = PrivAggLocalScores(c.table, c.sens(), w, 1000);
    ASSERT_TRUE(p.ok() && a.ok());
    pareto.push_back(*p);
    agg.push_back(*a);
  }
  double max_pareto = 0, max_agg = 0;
  for (uint32_t g = 0; g < graphs_->num_graphs(); ++g) {
    for (int e = 0; e < graphs_->pairs(); ++e) {
      const uint32_t h = g ^ (1u << e);
      for (size_t r = 0; r < 5; ++r) {
        max_pareto = std::max(
            max_pareto, std::fabs(pareto[g].scores[r] - pareto[h].scores[r]));
        max_agg =
            std::max(max_agg, std::fabs(agg[g].scores[r] - agg[h].scores[r]));
      }
    }
  }
  EXPECT_LE(max_pareto, 1 + 1e-12);
  EXPECT_LE(max_agg, 1 + 1e-12);
  // Local dampening really uses the local information: some score moves by
  // a good fraction of 1 (not a vacuous check).
  EXPECT_GT(max_pareto, 0.3);
  EXPECT_GT(max_agg, 0.3);
}

}  // namespace
}  // namespace dpq::core::selection
