#include "core/selection/tree/dp_moet.h"

#include <optional>
#include <string>
#include <vector>

#include "core/selection/tree/dp_decision_tree.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/selection/tree/tree_test_util.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::core::selection::testing::IsValidTree;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

// 60 rows: label = (a >= 5 and color == "red").
table::Table SmallTable() {
  auto schema = table::Schema::Create({{"a", table::ColumnType::kInt64},
                                       {"color", table::ColumnType::kString},
                                       {"y", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> rows;
  const char* colors[] = {"red", "green", "blue"};
  for (int i = 0; i < 60; ++i) {
    const int a = i % 10;
    const std::string color = colors[i % 3];
    rows.push_back(
        {std::to_string(a), color, (a >= 5 && color == "red") ? "1" : "0"});
  }
  return *table::Table::FromCells(*schema, rows);
}

GeneticParameters SmallParams() {
  GeneticParameters p;
  p.population = 10;
  p.generations = 3;
  p.selected = 3;
  p.initial_depth = 3;
  p.max_depth = 5;
  return p;
}

std::vector<std::string> Texts(const std::vector<DecisionTree>& trees) {
  std::vector<std::string> out;
  for (const DecisionTree& t : trees) out.push_back(t.ToText());
  return out;
}

TEST(DpMoetTest, SameSeedSameTrees) {
  const table::Table t = SmallTable();
  auto data = EncodedTable::Create(t, "y", "1", {});
  ASSERT_TRUE(data.ok());
  const auto selector = NonPrivateTreeSelector(Approach::kPareto, {});
  std::vector<std::string> first, second, other;
  for (uint64_t seed : {7, 7, 8}) {
    SeededUrbg urbg(seed);
    auto trees = RunMoet(*data, data->ObservedDomains(), SmallParams(), 3, 1.0,
                         selector, urbg);
    ASSERT_TRUE(trees.ok()) << trees.status();
    (first.empty() ? first : second.empty() ? second : other) = Texts(*trees);
  }
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other);
}

TEST(DpMoetTest, BudgetIsSplitEvenlyOverSelectionCalls) {
  const table::Table t = SmallTable();
  auto data = EncodedTable::Create(t, "y", "1", {});
  ASSERT_TRUE(data.ok());
  for (uint32_t generations : {1u, 2u, 5u}) {
    std::vector<double> spent;
    std::vector<size_t> counts, sizes;
    const TreeSelector recorder = [&](const ScoreTable& scores, size_t count,
                                      double epsilon) {
      spent.push_back(epsilon);
      counts.push_back(count);
      sizes.push_back(scores.num_candidates);
      std::vector<size_t> first(count);
      for (size_t i = 0; i < count; ++i) first[i] = i;
      return absl::StatusOr<std::vector<size_t>>(first);
    };
    GeneticParameters params = SmallParams();
    params.generations = generations;
    SeededUrbg urbg(1);
    auto trees =
        RunMoet(*data, data->ObservedDomains(), params, 2, 0.9, recorder, urbg);
    ASSERT_TRUE(trees.ok());
    ASSERT_EQ(spent.size(), generations + 1u);
    double total = 0;
    for (double e : spent) total += e;
    EXPECT_NEAR(total, 0.9, 1e-12);
    EXPECT_EQ(counts.front(), 3u);  // s
    EXPECT_EQ(counts.back(), 2u);   // o
    EXPECT_EQ(sizes.front(), 10u);  // p
    EXPECT_EQ(sizes.back(), 13u);   // s + p
  }
}

TEST(DpMoetTest, TreesStayValidAndWithinMaxDepth) {
  const table::Table t = SmallTable();
  auto data = EncodedTable::Create(t, "y", "1", {});
  ASSERT_TRUE(data.ok());
  SeededUrbg urbg(3);
  GeneticParameters params = SmallParams();
  params.generations = 6;
  auto trees =
      RunMoet(*data, data->ObservedDomains(), params, 13, 1.0,
              NonPrivateTreeSelector(Approach::kAggregation, {3, 2}), urbg);
  ASSERT_TRUE(trees.ok());
  ASSERT_EQ(trees->size(), 13u);
  for (const DecisionTree& tree : *trees) {
    EXPECT_TRUE(IsValidTree(tree));
    EXPECT_LE(tree.depth() + 1, 5);
  }
}

TEST(DpMoetTest, NonPrivateSelectorRanksByParetoScoreAndWeightedSum) {
  ScoreTable s;
  s.num_candidates = 4;
  s.num_objectives = 2;
  s.scores = {0.9, 0.1, 0.5, 0.4,   // TPR
              0.2, 0.9, 0.5, 0.3};  // TNR
  auto pareto = NonPrivateTreeSelector(Approach::kPareto, {})(s, 3, 0);
  ASSERT_TRUE(pareto.ok());
  // PS: 0, 0, 0 for the front, -1 for candidate 3 (dominated by 2).
  EXPECT_EQ(*pareto, (std::vector<size_t>{0, 1, 2}));
  auto agg = NonPrivateTreeSelector(Approach::kAggregation, {3, 2})(s, 2, 0);
  ASSERT_TRUE(agg.ok());
  // 3 TPR + 2 TNR: 3.1, 2.1, 2.5, 1.8.
  EXPECT_EQ(*agg, (std::vector<size_t>{0, 2}));
}

TEST(DpMoetTest, RejectsParametersOutOfRange) {
  GeneticParameters p = SmallParams();
  EXPECT_OK(ValidateGeneticParameters(p, 1));
  p.population = 1;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("population")));
  p = SmallParams();
  p.selected = 11;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("selected")));
  p = SmallParams();
  p.max_depth = 21;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_depth")));
  p = SmallParams();
  p.initial_depth = 6;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("initial_depth")));
  p = SmallParams();
  p.generations = 0;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("generations")));
  p = SmallParams();
  p.population = 1000;
  p.selected = 10;
  p.max_depth = 20;
  p.initial_depth = 4;
  EXPECT_THAT(
      ValidateGeneticParameters(p, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("too large")));
  p.max_depth = 10;  // 1010 * 1023 nodes: fine
  EXPECT_OK(ValidateGeneticParameters(p, 1));
  EXPECT_THAT(
      ValidateGeneticParameters(SmallParams(), 14),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("output")));
}

}  // namespace
}  // namespace dpq::core::selection
