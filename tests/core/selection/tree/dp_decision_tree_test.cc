#include "core/selection/tree/dp_decision_tree.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// 200 rows: label "1" iff age <= 40.
table::Table AgeTable() {
  auto schema = table::Schema::Create({{"age", table::ColumnType::kInt64},
                                       {"city", table::ColumnType::kString},
                                       {"y", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> rows;
  for (int i = 0; i < 200; ++i) {
    const int age = 18 + (i * 7) % 60;
    rows.push_back(
        {std::to_string(age), i % 2 ? "A" : "B", age <= 40 ? "1" : "0"});
  }
  return *table::Table::FromCells(*schema, rows);
}

DecisionTreeRequest Request() {
  DecisionTreeRequest r;
  r.label_column = "y";
  r.positive_class = "1";
  r.selection.epsilon = 1;
  r.genetic.population = 10;
  r.genetic.generations = 2;
  r.genetic.selected = 3;
  r.genetic.initial_depth = 3;
  r.genetic.max_depth = 5;
  // The public domains (AgeTable's ages are 18..77).
  r.public_domains = {{"age", true, 18, 77, {}},
                      {"city", false, 0, 0, {"A", "B"}}};
  r.label_classes = {"0", "1"};
  return r;
}

// AgeTable's rows with the label column filled with `label` (same schema).
table::Table RelabelledAgeTable(const std::string& label, size_t rows) {
  auto schema = table::Schema::Create({{"age", table::ColumnType::kInt64},
                                       {"city", table::ColumnType::kString},
                                       {"y", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> cells;
  for (size_t i = 0; i < rows; ++i) {
    cells.push_back({std::to_string(18 + (i * 7) % 60), "A", label});
  }
  return *table::Table::FromCells(*schema, cells);
}

TEST(TrainDpDecisionTreeTest, EveryVariantReturnsAValidTree) {
  const table::Table t = AgeTable();
  for (Approach approach : {Approach::kPareto, Approach::kAggregation}) {
    for (SensitivityMode mode :
         {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
      DecisionTreeRequest r = Request();
      r.selection.approach = approach;
      r.selection.sensitivity = mode;
      if (approach == Approach::kAggregation) r.selection.weights = {3, 2};
      SeededUrbg urbg(11);
      auto result = TrainDpDecisionTree(t, r, urbg);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_TRUE(IsValidTree(result->tree));
      EXPECT_LE(result->tree.depth(), 4);
      EXPECT_FALSE(result->tpr.has_value());
      EXPECT_DOUBLE_EQ(result->epsilon_spent, 1.0);
    }
  }
}

TEST(TrainDpDecisionTreeTest, SameSeedSameTree) {
  const table::Table t = AgeTable();
  DecisionTreeRequest r = Request();
  r.selection.sensitivity = SensitivityMode::kLocal;
  SeededUrbg a(5), b(5);
  auto first = TrainDpDecisionTree(t, r, a);
  auto second = TrainDpDecisionTree(t, r, b);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->tree.ToText(), second->tree.ToText());
}

// Cooperative cancellation (docs/security.md, item 2): a stop function that
// never fires changes nothing (every variant, same seed, same tree and noisy
// rates), and one that fires at its n-th poll, wherever that falls (row
// encoding, scoring, breeding, the selections, the accuracy release),
// stops the training at that very poll.
TEST(TrainDpDecisionTreeTest, StopPollsChangeNothingAndStopAtOnce) {
  const table::Table t = AgeTable();
  for (Approach approach : {Approach::kPareto, Approach::kAggregation}) {
    for (SensitivityMode mode :
         {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
      DecisionTreeRequest r = Request();
      r.selection.approach = approach;
      r.selection.sensitivity = mode;
      r.accuracy_epsilon = 0.5;
      if (approach == Approach::kAggregation) r.selection.weights = {3, 2};
      SeededUrbg a(9);
      auto plain = TrainDpDecisionTree(t, r, a);
      ASSERT_TRUE(plain.ok()) << plain.status();

      auto polls = std::make_shared<int>(0);
      r.stop = [polls] {
        ++*polls;
        return false;
      };
      SeededUrbg b(9);
      auto polled = TrainDpDecisionTree(t, r, b);
      ASSERT_TRUE(polled.ok()) << polled.status();
      EXPECT_EQ(polled->tree.ToText(), plain->tree.ToText());
      EXPECT_EQ(polled->tpr, plain->tpr);
      EXPECT_EQ(polled->tnr, plain->tnr);
      const int total = *polls;
      EXPECT_GT(total, 2 * static_cast<int>(r.genetic.population));

      for (int fire_at : {1, total / 3, total / 2, total - 1, total}) {
        auto seen = std::make_shared<int>(0);
        r.stop = [seen, fire_at] { return ++*seen >= fire_at; };
        SeededUrbg c(9);
        EXPECT_THAT(
            TrainDpDecisionTree(t, r, c).status(),
            StatusIs(absl::StatusCode::kCancelled, HasSubstr("caller left")))
            << "fire_at " << fire_at;
        EXPECT_EQ(*seen, fire_at) << "polled again after the stop";
      }
    }
  }
}

TEST(TrainDpDecisionTreeTest, AccuracyReleaseIsChargedAndClamped) {
  const table::Table t = AgeTable();
  DecisionTreeRequest r = Request();
  r.accuracy_epsilon = 0.5;
  SeededUrbg urbg(2);
  auto result = TrainDpDecisionTree(t, r, urbg);
  ASSERT_TRUE(result.ok());
  ASSERT_TRUE(result->tpr.has_value() && result->tnr.has_value());
  EXPECT_GE(*result->tpr, 0.0);
  EXPECT_LE(*result->tpr, 1.0);
  EXPECT_GE(*result->tnr, 0.0);
  EXPECT_LE(*result->tnr, 1.0);
  EXPECT_DOUBLE_EQ(result->epsilon_spent, 1.5);
}

TEST(TrainDpDecisionTreeTest, UsesPublicDomains) {
  const table::Table t = AgeTable();
  DecisionTreeRequest r = Request();
  r.features = {"age"};
  r.public_domains = {{"age", true, 1000, 2000, {}}};
  SeededUrbg urbg(4);
  auto result = TrainDpDecisionTree(t, r, urbg);
  ASSERT_TRUE(result.ok());
  for (const TreeNode& n : result->tree.nodes) {
    if (!n.is_leaf) {
      EXPECT_GE(n.threshold, 1000);
    }
  }
  r.public_domains = {{"age", true, 1000, 2000, {}},
                      {"height", true, 0, 1, {}}};
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'height'")));
}

// Categories that no row has are drawn all the same: the domain comes from
// the request, never from the data.
TEST(TrainDpDecisionTreeTest, CategoriesComeOnlyFromThePublicDomain) {
  const table::Table t = AgeTable();  // cities A and B
  DecisionTreeRequest r = Request();
  r.features = {};  // = those of public_domains
  r.public_domains = {{"city", false, 0, 0, {"X", "Y"}}};
  r.genetic.initial_depth = 4;
  SeededUrbg urbg(9);
  auto result = TrainDpDecisionTree(t, r, urbg);
  ASSERT_TRUE(result.ok()) << result.status();
  for (const TreeNode& n : result->tree.nodes) {
    if (n.is_leaf) continue;
    EXPECT_EQ(n.feature, "city");
    EXPECT_THAT(n.category, ::testing::AnyOf("X", "Y"));
  }
}

// With the domains given, nothing about the rows decides success: a
// positive class that no row has, or no row at all, still trains (TPR = 0
// convention), exactly like a table where every row is positive.
TEST(TrainDpDecisionTreeTest, NeverFailsOnTheDataContent) {
  for (const table::Table& t :
       {RelabelledAgeTable("0", 50), RelabelledAgeTable("1", 50),
        RelabelledAgeTable("1", 0)}) {
    DecisionTreeRequest r = Request();
    r.accuracy_epsilon = 0.5;
    SeededUrbg urbg(5);
    auto result = TrainDpDecisionTree(t, r, urbg);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_TRUE(IsValidTree(result->tree));
    ASSERT_TRUE(result->tpr.has_value());
    EXPECT_GE(*result->tpr, 0.0);
    EXPECT_LE(*result->tpr, 1.0);
  }
}

TEST(TrainDpDecisionTreeTest, RequiresPublicDomainsAndClasses) {
  const table::Table t = AgeTable();
  SeededUrbg urbg(1);
  DecisionTreeRequest r = Request();
  r.features = {"age", "city"};
  r.public_domains = {{"age", true, 18, 77, {}}};
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("No public domain is given for the feature "
                                 "'city'")));
  r = Request();
  r.public_domains.clear();
  r.features.clear();
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least one feature")));
  r = Request();
  r.public_domains[0].numeric = false;
  r.public_domains[0].categories = {"18"};
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("must be numeric")));
  r = Request();
  r.public_domains[1].categories.clear();
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no category")));
  r = Request();
  r.label_classes.clear();
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("(none given)")));
}

TEST(TrainDpDecisionTreeTest, RejectsBadInput) {
  const table::Table t = AgeTable();
  SeededUrbg urbg(1);
  DecisionTreeRequest r = Request();
  r.label_column = "income";
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("label column 'income'")));
  r = Request();
  r.features = {"age", "zip"};
  r.public_domains = {{"age", true, 18, 77, {}}, {"zip", true, 0, 1, {}}};
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("feature column 'zip'")));
  r = Request();
  r.positive_class = "yes";
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("positive class 'yes' is not one of the "
                                 "public classes")));
  for (double eps : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity()}) {
    r = Request();
    r.selection.epsilon = eps;
    EXPECT_THAT(
        TrainDpDecisionTree(t, r, urbg).status(),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Epsilon")));
  }
  r = Request();
  r.accuracy_epsilon = -0.5;
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Accuracy epsilon")));
  r = Request();
  r.selection.approach = Approach::kAggregation;
  r.selection.weights = {1, 2, 3};
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2 weights")));
  r.selection.weights = {0, 0};
  EXPECT_THAT(TrainDpDecisionTree(t, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not all be zero")));
  r.selection.weights = {1, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("finite")));
  r = Request();
  r.genetic.population = 5000;
  EXPECT_THAT(
      TrainDpDecisionTree(t, r, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("population")));
}

}  // namespace
}  // namespace dpq::core::selection
