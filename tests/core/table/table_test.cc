#include "core/table/table.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::table {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Optional;

using Rows = std::vector<std::vector<std::optional<std::string>>>;

Schema PeopleSchema() {
  return *Schema::Create({{"age", ColumnType::kInt64},
                          {"rate", ColumnType::kDouble},
                          {"city", ColumnType::kString}});
}

TEST(StringDictionaryTest, FindsStringsByBinarySearch) {
  const StringDictionary dictionary({"apple", "fig", "pear"});
  EXPECT_THAT(dictionary.Find("apple"), Optional(0u));
  EXPECT_THAT(dictionary.Find("fig"), Optional(1u));
  EXPECT_THAT(dictionary.Find("pear"), Optional(2u));
  EXPECT_EQ(dictionary.Find("banana"), std::nullopt);
  EXPECT_EQ(dictionary.Find(""), std::nullopt);
  EXPECT_EQ(dictionary.Find("zzz"), std::nullopt);
  EXPECT_EQ(StringDictionary().Find("a"), std::nullopt);
}

TEST(TableTest, FromCellsParsesEachColumnWithItsType) {
  ASSERT_OK_AND_ASSIGN(
      Table table,
      Table::FromCells(PeopleSchema(), Rows{{"30", "1.5", "rome"},
                                            {std::nullopt, "", "oslo"},
                                            {" 07 ", "2", ""}}));
  ASSERT_EQ(table.num_rows(), 3u);
  EXPECT_EQ(table.column(0).int64s[0], 30);
  EXPECT_EQ(table.column(0).int64s[2], 7);
  EXPECT_TRUE(table.column(0).is_null(1));
  EXPECT_EQ(table.column(1).doubles[0], 1.5);
  EXPECT_TRUE(table.column(1).is_null(1));
  EXPECT_EQ(table.column(1).doubles[2], 2.0);
  EXPECT_TRUE(table.column(2).is_null(2));
  // Ids follow string order: "oslo" < "rome".
  EXPECT_EQ(table.dictionary().size(), 2u);
  EXPECT_EQ(table.column(2).string_ids[0], 1u);
  EXPECT_EQ(table.column(2).string_ids[1], 0u);
  EXPECT_EQ(table.CellText(2, 0), "rome");
}

TEST(TableTest, FromCellsRejectsBadCellsNamingRowAndColumn) {
  EXPECT_THAT(Table::FromCells(PeopleSchema(),
                               Rows{{"1", "2", "x"}, {"old", "2", "y"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("row 1"), HasSubstr("\"age\""),
                             HasSubstr("\"old\""))));
  EXPECT_THAT(Table::FromCells(PeopleSchema(), Rows{{"1", "nan", "x"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("row 0"), HasSubstr("\"rate\""))));
  EXPECT_THAT(Table::FromCells(PeopleSchema(), Rows{{"1", "2"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("row 0"), HasSubstr("expected 3"),
                             HasSubstr("found 2"))));
}

TEST(TableTest, CellTextIsExactForIntegers) {
  ASSERT_OK_AND_ASSIGN(
      Table table,
      Table::FromCells(*Schema::Create({{"n", ColumnType::kInt64}}),
                       Rows{{"-9223372036854775808"},
                            {"9223372036854775807"},
                            {"0"},
                            {std::nullopt}}));
  EXPECT_EQ(table.CellText(0, 0), "-9223372036854775808");
  EXPECT_EQ(table.CellText(0, 1), "9223372036854775807");
  EXPECT_EQ(table.CellText(0, 2), "0");
  EXPECT_EQ(table.CellText(0, 3), "");
}

TEST(TableTest, CellTextRoundTripsDoubles) {
  const std::vector<double> values = {
      0.1,
      1.0 / 3,
      1.9519792,
      -2.5e-300,
      1e300,
      5.0,
      -0.0,
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::denorm_min()};
  // Built directly: going through text would beg the question.
  std::vector<Column> columns(1);
  columns[0].type = ColumnType::kDouble;
  columns[0].doubles = values;
  columns[0].nulls.assign(values.size(), 0);
  const Table table(*Schema::Create({{"d", ColumnType::kDouble}}),
                    std::move(columns), values.size(),
                    std::make_shared<StringDictionary>());
  for (size_t row = 0; row < values.size(); ++row) {
    const std::string text = table.CellText(0, row);
    // strtod, unlike std::stod, does not throw on denormals.
    const double parsed = std::strtod(text.c_str(), nullptr);
    EXPECT_EQ(parsed, values[row]) << text;
    EXPECT_EQ(std::signbit(parsed), std::signbit(values[row])) << text;
  }
  EXPECT_EQ(table.CellText(0, 0), "0.1");
  EXPECT_EQ(table.CellText(0, 2), "1.9519792");
  EXPECT_EQ(table.CellText(0, 5), "5");
}

TEST(TableTest, WithoutRowKeepsOrderAndDictionary) {
  ASSERT_OK_AND_ASSIGN(
      Table table,
      Table::FromCells(PeopleSchema(), Rows{{"1", "1.5", "a"},
                                            {"2", std::nullopt, "b"},
                                            {"3", "3.5", std::nullopt},
                                            {"4", "4.5", "d"}}));
  const Table without = table.WithoutRow(1);
  ASSERT_EQ(without.num_rows(), 3u);
  EXPECT_EQ(without.num_columns(), 3u);
  EXPECT_EQ(without.schema().column(1).name, "rate");
  EXPECT_THAT(without.column(0).int64s, ElementsAre(1, 3, 4));
  EXPECT_THAT(without.column(1).nulls, ElementsAre(0, 0, 0));
  EXPECT_EQ(without.CellText(1, 1), "3.5");
  EXPECT_THAT(without.column(2).nulls, ElementsAre(0, 1, 0));
  EXPECT_EQ(without.CellText(2, 2), "d");
  // Same dictionary object: ids stay comparable with the original table's.
  EXPECT_EQ(&without.dictionary(), &table.dictionary());
  EXPECT_EQ(without.column(2).string_ids[2], table.column(2).string_ids[3]);
  // The original is unchanged.
  EXPECT_EQ(table.num_rows(), 4u);
  EXPECT_EQ(table.CellText(0, 1), "2");

  const Table first_removed = table.WithoutRow(0);
  EXPECT_THAT(first_removed.column(0).int64s, ElementsAre(2, 3, 4));
  const Table last_removed = table.WithoutRow(3);
  EXPECT_THAT(last_removed.column(0).int64s, ElementsAre(1, 2, 3));
}

}  // namespace
}  // namespace dpq::core::table
