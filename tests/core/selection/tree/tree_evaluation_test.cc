#include "core/selection/tree/tree_evaluation.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/selection/tree/tree_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::core::selection::testing::Stump;
using ::dpq::core::selection::testing::XLabelTable;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

table::Table MixedTable() {
  auto schema = table::Schema::Create({{"age", table::ColumnType::kDouble},
                                       {"sex", table::ColumnType::kString},
                                       {"label", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> rows = {
      {"30", "Male", ">50K"},
      {"30.5", "Female", "<=50K"},
      {std::nullopt, "Male", ">50K"},
      {"20", std::nullopt, "<=50K"},
      {"50", "Male", std::nullopt}};
  return *table::Table::FromCells(*schema, rows);
}

TEST(EncodedTableTest, PredictFollowsLessOrEqualEqualityAndNullRules) {
  const table::Table t = MixedTable();
  auto data = EncodedTable::Create(t, "label", ">50K", {"age", "sex"});
  ASSERT_TRUE(data.ok()) << data.status();
  const DecisionTree by_age = Stump("age", 30, true, false);
  EXPECT_TRUE(data->Predict(by_age, 0));   // 30 <= 30 goes left
  EXPECT_FALSE(data->Predict(by_age, 1));  // 30.5 goes right
  EXPECT_FALSE(data->Predict(by_age, 2));  // NULL goes right
  DecisionTree by_sex = Stump("sex", 0, true, false);
  by_sex.nodes[0].numeric_test = false;
  by_sex.nodes[0].category = "Male";
  EXPECT_TRUE(data->Predict(by_sex, 0));
  EXPECT_FALSE(data->Predict(by_sex, 1));
  EXPECT_FALSE(data->Predict(by_sex, 3));  // NULL goes right
  by_sex.nodes[0].category = "Other";      // unknown category: right
  EXPECT_FALSE(data->Predict(by_sex, 0));
  DecisionTree unknown = Stump("height", 1, true, false);
  EXPECT_FALSE(data->Predict(unknown, 0));
}

TEST(EncodedTableTest, ConfusionCountsAndRates) {
  const table::Table t = MixedTable();
  auto data = EncodedTable::Create(t, "label", ">50K", {"age"});
  ASSERT_TRUE(data.ok());
  // Positives: rows 0, 2. Negatives: rows 1, 3 and the NULL label row 4.
  EXPECT_EQ(data->positives(), 2u);
  EXPECT_EQ(data->negatives(), 3u);
  const ConfusionCounts c = data->Evaluate(Stump("age", 30, true, false));
  EXPECT_EQ(c.true_positives, 1u);  // row 0; row 2 (NULL) predicted -
  EXPECT_EQ(c.true_negatives, 2u);  // rows 1, 4; row 3 (20 <= 30) is +
  EXPECT_DOUBLE_EQ(c.Tpr(), 0.5);
  EXPECT_DOUBLE_EQ(c.Tnr(), 2.0 / 3.0);
  EXPECT_EQ(ConfusionCounts{}.Tpr(), 0.0);  // P = 0 convention
  EXPECT_EQ(ConfusionCounts{}.Tnr(), 0.0);  // N = 0 convention
}

TEST(EncodedTableTest, ObservedDomains) {
  const table::Table t = MixedTable();
  auto data = EncodedTable::Create(t, "label", ">50K", {});
  ASSERT_TRUE(data.ok());
  const std::vector<FeatureDomain> d = data->ObservedDomains();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].name, "age");
  EXPECT_DOUBLE_EQ(d[0].min, 20);
  EXPECT_DOUBLE_EQ(d[0].max, 50);
  EXPECT_EQ(d[1].categories, (std::vector<std::string>{"Female", "Male"}));
}

TEST(EncodedTableTest, RejectsUnknownColumns) {
  const table::Table t = MixedTable();
  EXPECT_THAT(EncodedTable::Create(t, "income", ">50K", {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("label column 'income'")));
  EXPECT_THAT(EncodedTable::Create(t, "label", ">50K", {"age", "zip"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("feature column 'zip'")));
  EXPECT_THAT(EncodedTable::Create(t, "label", ">50K", {"label"}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cannot also be a feature")));
}

// Failing on a class no row has would reveal the data: it is accepted,
// with P = 0 and so TPR = 0 by convention.
TEST(EncodedTableTest, AcceptsAPositiveClassNoRowHas) {
  const table::Table t = MixedTable();
  auto data = EncodedTable::Create(t, "label", "rich", {"age"});
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->positives(), 0u);
  EXPECT_EQ(data->negatives(), t.num_rows());
  DecisionTree leaf;
  leaf.nodes.push_back(TreeNode{});
  leaf.nodes[0].positive = true;
  EXPECT_EQ(data->Evaluate(leaf).Tpr(), 0.0);
}

TEST(EncodedTableTest, RowSubset) {
  const table::Table t = XLabelTable({{1, true}, {2, false}, {3, true}});
  const std::vector<size_t> rows = {2, 1};
  auto data = EncodedTable::Create(t, "label", "yes", {"x"}, rows);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->num_rows(), 2u);
  EXPECT_EQ(data->positives(), 1u);
}

// A tree on many rows is not scored unchecked (docs/security.md, item 2): the
// stop function is polled every kRowsPerStopPoll rows while the rows are
// encoded and while a tree is evaluated, the counts are unchanged by
// polling, and the evaluation ends at the poll that says stop.
TEST(EncodedTableTest, StopIsPolledEveryFewThousandRows) {
  constexpr int kRows = 50'000;
  std::vector<std::pair<int, bool>> rows;
  for (int i = 0; i < kRows; ++i) rows.emplace_back(i % 100, i % 100 < 30);
  const table::Table t = XLabelTable(rows);
  auto polls = std::make_shared<int>(0);
  const util::StopFn count = [polls] {
    ++*polls;
    return false;
  };
  auto data = EncodedTable::Create(t, "label", "yes", {"x"}, {}, count);
  ASSERT_TRUE(data.ok()) << data.status();
  const int min_polls =
      kRows / static_cast<int>(EncodedTable::kRowsPerStopPoll);
  EXPECT_GE(*polls, 2 * min_polls);  // the feature column and the label

  const DecisionTree stump = Stump("x", 29, true, false);
  *polls = 0;
  auto counts = data->Evaluate(stump, count);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_GE(*polls, min_polls);
  const ConfusionCounts plain = data->Evaluate(stump);
  EXPECT_EQ(counts->true_positives, plain.true_positives);
  EXPECT_EQ(counts->true_negatives, plain.true_negatives);

  *polls = 0;
  const util::StopFn third = [polls] { return ++*polls >= 3; };
  EXPECT_THAT(data->Evaluate(stump, third).status(),
              StatusIs(absl::StatusCode::kCancelled, HasSubstr("caller left")));
  EXPECT_EQ(*polls, 3);
  *polls = 0;
  EXPECT_THAT(
      EncodedTable::Create(t, "label", "yes", {"x"}, {}, third).status(),
      StatusIs(absl::StatusCode::kCancelled, HasSubstr("caller left")));
  EXPECT_EQ(*polls, 3);
}

}  // namespace
}  // namespace dpq::core::selection
