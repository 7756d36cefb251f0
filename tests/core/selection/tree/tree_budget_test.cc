#include "core/selection/tree/tree_budget.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_request.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/selection/tree/tree_test_util.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::core::selection::testing::Leaf;
using ::dpq::core::selection::testing::Stump;
using ::dpq::core::selection::testing::XLabelTable;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The service's default genetic parameters (tree_request.h) on N rows.
DecisionTreeRequest Defaults(Approach approach, SensitivityMode sensitivity,
                             double epsilon, uint64_t n) {
  DecisionTreeRequest r;
  r.selection.approach = approach;
  r.selection.sensitivity = sensitivity;
  if (approach == Approach::kAggregation) r.selection.weights = {1, 1};
  r.selection.epsilon = epsilon;
  r.genetic.generations = kDefaultGenerations;
  r.genetic.population = kDefaultPopulation;
  r.public_max_rows = n;
  return r;
}

// The thresholds of tree_budget.h with the defaults G = 5, p = 60, s = 3:
// 18 draws over C = 63 candidates, g = 0.1.
TEST(TreeBudgetTest, UsefulEpsilonFollowsThePublicRule) {
  const double draws = 18, log_c = std::log(63.0);
  const uint64_t n = 32561;
  EXPECT_NEAR(AssessTreeBudget(Defaults(Approach::kAggregation,
                                        SensitivityMode::kLocal, 1, n))
                  .useful_epsilon,
              draws * 4 * log_c / (0.1 * n), 1e-12);
  EXPECT_NEAR(AssessTreeBudget(
                  Defaults(Approach::kPareto, SensitivityMode::kLocal, 1, n))
                  .useful_epsilon,
              draws * 4 * log_c / (0.1 * n), 1e-12);
  EXPECT_NEAR(AssessTreeBudget(Defaults(Approach::kAggregation,
                                        SensitivityMode::kGlobal, 1, n))
                  .useful_epsilon,
              draws * 2 * log_c / 0.1, 1e-9);
  EXPECT_NEAR(AssessTreeBudget(
                  Defaults(Approach::kPareto, SensitivityMode::kGlobal, 1, n))
                  .useful_epsilon,
              draws * 2 * log_c, 1e-9);
  // Concrete values (docs/selection.md): 0.0916 on adult's N, 149 for
  // Pareto-global whatever N.
  EXPECT_NEAR(AssessTreeBudget(Defaults(Approach::kAggregation,
                                        SensitivityMode::kLocal, 1, n))
                  .useful_epsilon,
              0.0916, 5e-5);
  EXPECT_NEAR(AssessTreeBudget(
                  Defaults(Approach::kPareto, SensitivityMode::kGlobal, 1, 10))
                  .useful_epsilon,
              149.2, 0.05);
  // Fewer generations: fewer draws, less epsilon needed.
  DecisionTreeRequest fewer =
      Defaults(Approach::kAggregation, SensitivityMode::kLocal, 1, n);
  fewer.genetic.generations = 1;
  EXPECT_NEAR(AssessTreeBudget(fewer).useful_epsilon, 6 * 4 * log_c / (0.1 * n),
              1e-12);
  // N = 0 counts as 1 (no division by zero).
  EXPECT_TRUE(
      std::isfinite(AssessTreeBudget(Defaults(Approach::kAggregation,
                                              SensitivityMode::kLocal, 1, 0))
                        .useful_epsilon));
}

TEST(TreeBudgetTest, CaveatOnlyBelowTheThreshold) {
  DecisionTreeRequest r =
      Defaults(Approach::kAggregation, SensitivityMode::kLocal, 1, 2000);
  const double useful = AssessTreeBudget(r).useful_epsilon;  // 1.49
  r.selection.epsilon = useful;
  EXPECT_TRUE(AssessTreeBudget(r).sufficient);
  EXPECT_THAT(AssessTreeBudget(r).caveat, IsEmpty());
  r.selection.epsilon = useful * 0.99;
  const TreeBudgetAssessment low = AssessTreeBudget(r);
  EXPECT_FALSE(low.sufficient);
  EXPECT_THAT(low.caveat, HasSubstr("Budget too small"));
  EXPECT_THAT(low.caveat, HasSubstr("needs epsilon >= 1.49"));
  // Pareto-global names the cheaper variant.
  const TreeBudgetAssessment pareto = AssessTreeBudget(
      Defaults(Approach::kPareto, SensitivityMode::kGlobal, 2, 32561));
  EXPECT_FALSE(pareto.sufficient);
  EXPECT_THAT(pareto.caveat, HasSubstr("needs epsilon >= 149"));
  EXPECT_THAT(pareto.caveat,
              HasSubstr("AGGREGATION with sensitivity LOCAL (balanced "
                        "accuracy) needs epsilon >= 0.0916"));
}

TEST(TreeBudgetTest, SingleLeafCaveat) {
  DecisionTree leaf;
  leaf.nodes = {Leaf(true)};
  EXPECT_THAT(SingleLeafCaveat(leaf), HasSubstr("single leaf"));
  EXPECT_THAT(SingleLeafCaveat(leaf), HasSubstr("positive class"));
  leaf.nodes = {Leaf(false)};
  EXPECT_THAT(SingleLeafCaveat(leaf), HasSubstr("negative class"));
  EXPECT_THAT(SingleLeafCaveat(Stump("x", 1, true, false)), IsEmpty());
}

// 100 rows, label yes iff x < 50.
table::Table Rows100() {
  std::vector<std::pair<int, bool>> rows;
  for (int x = 0; x < 100; ++x) rows.push_back({x, x < 50});
  return XLabelTable(rows);
}

DecisionTreeRequest SmallRequest(double epsilon) {
  DecisionTreeRequest r;
  r.label_column = "label";
  r.positive_class = "yes";
  r.selection.epsilon = epsilon;
  r.genetic.population = 6;
  r.genetic.generations = 2;
  r.genetic.initial_depth = 2;
  r.genetic.max_depth = 3;
  r.public_max_rows = 200;
  r.public_domains = {{"x", true, 0, 99, {}, {25, 50, 75}}};
  r.label_classes = {"no", "yes"};
  return r;
}

// The budget statement reads public inputs only: the same on neighbouring
// tables (one row removed), and the same useful_epsilon.
TEST(TreeBudgetTest, BudgetCaveatIsTheSameOnNeighbours) {
  const table::Table t = Rows100();
  const table::Table neighbour = t.WithoutRow(7);
  for (double epsilon : {0.01, 1000.0}) {
    const DecisionTreeRequest r = SmallRequest(epsilon);
    SeededUrbg a(1), b(1);
    auto on_t = TrainDpDecisionTree(t, r, a);
    auto on_neighbour = TrainDpDecisionTree(neighbour, r, b);
    ASSERT_TRUE(on_t.ok() && on_neighbour.ok());
    EXPECT_EQ(on_t->useful_epsilon, on_neighbour->useful_epsilon);
    EXPECT_EQ(on_t->useful_epsilon, AssessTreeBudget(r).useful_epsilon);
    const bool low = epsilon < on_t->useful_epsilon;
    // The budget statement, if any, comes first.
    auto budget_caveat = [](const DecisionTreeResult& x) {
      return !x.caveats.empty() &&
                     x.caveats.front().rfind("Budget too small", 0) == 0
                 ? x.caveats.front()
                 : std::string();
    };
    EXPECT_EQ(budget_caveat(*on_t), budget_caveat(*on_neighbour));
    EXPECT_EQ(!budget_caveat(*on_t).empty(), low) << epsilon;
  }
}

TEST(TreeBudgetTest, SingleLeafTreesSaySo) {
  // Every threshold at the domain's top: every test sends all rows left,
  // so the simplified tree is one leaf.
  DecisionTreeRequest r = SmallRequest(1000);
  r.public_domains = {{"x", true, 0, 99, {}, {1000}}};
  SeededUrbg urbg(2);
  auto result = TrainDpDecisionTree(Rows100(), r, urbg);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->tree.nodes.size(), 1u);
  EXPECT_THAT(result->caveats.back(), HasSubstr("single leaf"));
}

TEST(TreeBudgetTest, BadThresholdsAreRefused) {
  DecisionTreeRequest r = SmallRequest(1);
  r.public_domains = {{"x", true, 0, 99, {}, {50, 25}}};
  SeededUrbg urbg(3);
  EXPECT_THAT(
      TrainDpDecisionTree(Rows100(), r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ascending")));
  r.public_domains = {{"x", true, 0, 99, {}, {NAN}}};
  EXPECT_THAT(
      TrainDpDecisionTree(Rows100(), r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
}

}  // namespace
}  // namespace dpq::core::selection
