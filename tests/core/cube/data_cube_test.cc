#include "core/cube/data_cube.h"

#include <string>
#include <vector>

#include "core/cube/cuboid_release.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/cube/cube_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using testing::Example21Specs;
using testing::Figure1Table;
using ::testing::HasSubstr;
using testing::InferredSpec;
using testing::Spec;
using testing::StringTable;

std::vector<double> Counts(const Cuboid& c) {
  std::vector<double> out;
  for (const CuboidCell& cell : c.cells) out.push_back(cell.count);
  return out;
}

double CountOf(const Cuboid& c, const std::vector<std::string>& values) {
  for (const CuboidCell& cell : c.cells) {
    if (cell.values == values) return cell.count;
  }
  ADD_FAILURE() << "no such cell";
  return -1;
}

TEST(DataCubeTest, Figure1CuboidsAndExample21) {
  const table::Table t = Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, Example21Specs()));
  ASSERT_EQ(schema.dimensions.size(), 3u);
  EXPECT_EQ(schema.dimensions[1].labels.size(), 7u);
  // Figure 1(b): cuboid {Salary}.
  ASSERT_OK_AND_ASSIGN(Cuboid salary,
                       ComputeExactCuboid(t, schema, {"Salary"}));
  EXPECT_THAT(Counts(salary), ElementsAre(0, 3, 3, 0, 2));
  // Figure 1(c): cuboid {Age}.
  ASSERT_OK_AND_ASSIGN(Cuboid age, ComputeExactCuboid(t, schema, {"Age"}));
  EXPECT_THAT(Counts(age), ElementsAre(0, 0, 4, 2, 1, 0, 1));
  // Example 2.1: cell (*, 21-30, 10-50k) aggregates three rows.
  ASSERT_OK_AND_ASSIGN(Cuboid age_salary,
                       ComputeExactCuboid(t, schema, {"Age", "Salary"}));
  ASSERT_EQ(age_salary.cells.size(), 35u);
  EXPECT_EQ(CountOf(age_salary, {"21-30", "10-50k"}), 3);
  EXPECT_EQ(CountOf(age_salary, {"21-30", "50-200k"}), 1);
  EXPECT_EQ(CountOf(age_salary, {"31-40", "50-200k"}), 2);
  // ... and {Salary} can be computed from {Age, Salary}.
  ASSERT_OK_AND_ASSIGN(std::vector<size_t> idx,
                       ResolveDimensions(schema, {"Age", "Salary"}));
  ASSERT_OK_AND_ASSIGN(DenseCuboid dense,
                       ComputeDenseCuboid(t, schema, idx, 1000));
  EXPECT_EQ(AggregateCuboid(dense, {2}).counts,
            std::vector<double>({0, 3, 3, 0, 2}));
}

TEST(DataCubeTest, EveryCuboidOfTheLatticeFollowsFromTheBaseCuboid) {
  const table::Table t = Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, Example21Specs()));
  ASSERT_OK_AND_ASSIGN(DenseCuboid base,
                       ComputeDenseCuboid(t, schema, {0, 1, 2}, 1000));
  for (const std::vector<size_t>& dims : std::vector<std::vector<size_t>>{
           {}, {0}, {1}, {2}, {0, 1}, {2, 0}, {1, 2}, {2, 1, 0}}) {
    ASSERT_OK_AND_ASSIGN(DenseCuboid direct,
                         ComputeDenseCuboid(t, schema, dims, 1000));
    EXPECT_EQ(AggregateCuboid(base, dims).counts, direct.counts);
  }
}

TEST(DataCubeTest, ApexCuboidIsTheRowCount) {
  const table::Table t = Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, {}));
  ASSERT_OK_AND_ASSIGN(Cuboid apex, ComputeExactCuboid(t, schema, {}));
  ASSERT_EQ(apex.cells.size(), 1u);
  EXPECT_TRUE(apex.cells[0].values.empty());
  EXPECT_EQ(apex.cells[0].count, 8);
}

TEST(DataCubeTest, CellsAreRowMajorInTheRequestedOrder) {
  const table::Table t = Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, {}));
  ASSERT_OK_AND_ASSIGN(Cuboid c, ComputeExactCuboid(t, schema, {"Sex", "Age"}));
  // Inferred domains, each with its "other" cell: Sex {F, M, other}, Age
  // {21-30, 31-40, 41-50, 60+, other}.
  ASSERT_EQ(c.cells.size(), 15u);
  EXPECT_THAT(c.dimensions, ElementsAre("Sex", "Age"));
  EXPECT_THAT(c.cells[1].values, ElementsAre("F", "31-40"));
  EXPECT_THAT(Counts(c),
              ElementsAre(2, 1, 1, 0, 0, 2, 1, 0, 1, 0, 0, 0, 0, 0, 0));
  ASSERT_OK_AND_ASSIGN(Cuboid r, ComputeExactCuboid(t, schema, {"Age", "Sex"}));
  EXPECT_THAT(r.cells[1].values, ElementsAre("21-30", "M"));
  EXPECT_THAT(Counts(r),
              ElementsAre(2, 2, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0));
}

TEST(DataCubeTest, NumericColumnsAreBucketedByBinEdges) {
  std::vector<std::vector<std::optional<std::string>>> rows = {
      {"0"}, {"9.5"}, {"10"}, {"20"}, {"20.5"}, {"-1"}, {std::nullopt}};
  const table::Table t = *table::Table::FromCells(
      *table::Schema::Create({{"x", table::ColumnType::kDouble}}), rows);
  ASSERT_OK_AND_ASSIGN(CubeSchema schema,
                       BuildCubeSchema(t, {Spec("x", {0, 10, 20})}));
  EXPECT_THAT(schema.dimensions[0].labels,
              ElementsAre("[0,10)", "[10,20]", "other"));
  ASSERT_OK_AND_ASSIGN(Cuboid c, ComputeExactCuboid(t, schema, {"x"}));
  EXPECT_THAT(Counts(c), ElementsAre(2, 2, 3));
  // Closed: the three rows outside are left out.
  ASSERT_OK_AND_ASSIGN(CubeSchema closed,
                       BuildCubeSchema(t, {Spec("x", {0, 10, 20}, {}, true)}));
  ASSERT_OK_AND_ASSIGN(Cuboid k, ComputeExactCuboid(t, closed, {"x"}));
  EXPECT_THAT(Counts(k), ElementsAre(2, 2));
}

TEST(DataCubeTest, DeclaredDomainsHaveAnOtherCellUnlessClosed) {
  const table::Table t = StringTable(
      {"a", "b"}, {{"x", "p"}, {"y", "p"}, {"other", "q"}, {"", "q"}});
  ASSERT_OK_AND_ASSIGN(
      CubeSchema schema,
      BuildCubeSchema(t, {Spec("a", {}, {"x", "other"}), InferredSpec("b")}));
  EXPECT_THAT(schema.dimensions[0].labels,
              ElementsAre("x", "other", "(other)"));
  ASSERT_OK_AND_ASSIGN(Cuboid a, ComputeExactCuboid(t, schema, {"a"}));
  EXPECT_THAT(Counts(a), ElementsAre(1, 1, 2));
  // Closed domain {x, y}: rows 3 and 4 leave EVERY cuboid, also {b}, so
  // the cuboids stay consistent.
  ASSERT_OK_AND_ASSIGN(
      CubeSchema closed,
      BuildCubeSchema(t, {Spec("a", {}, {"x", "y"}, true), InferredSpec("b")}));
  ASSERT_OK_AND_ASSIGN(Cuboid b, ComputeExactCuboid(t, closed, {"b"}));
  EXPECT_THAT(Counts(b), ElementsAre(2, 0, 0));
}

// Found by fuzzing (tests/fuzz/regressions/cube_dimension): with both
// "other" and "(other)" declared, the catch-all cell was a second
// "(other)", two cells under one label.
TEST(DataCubeTest, TheOtherCellsLabelDiffersFromEveryDeclaredValue) {
  const table::Table t =
      StringTable({"a"}, {{"other"}, {"(other)"}, {"z"}, {""}});
  ASSERT_OK_AND_ASSIGN(
      CubeSchema schema,
      BuildCubeSchema(t, {Spec("a", {}, {"(other)", "other", "((other))"})}));
  EXPECT_THAT(schema.dimensions[0].labels,
              ElementsAre("(other)", "other", "((other))", "(((other)))"));
  ASSERT_OK_AND_ASSIGN(Cuboid a, ComputeExactCuboid(t, schema, {"a"}));
  EXPECT_THAT(Counts(a), ElementsAre(1, 1, 0, 2));
}

TEST(DataCubeTest, InferenceTakesLowCardinalityStringAndIntColumns) {
  std::vector<std::vector<std::optional<std::string>>> rows = {
      {"a", "3", "1.5", "u1"},
      {"b", "10", "2.5", "u2"},
      {"a", std::nullopt, "3.5", "u3"}};
  const table::Table t = *table::Table::FromCells(
      *table::Schema::Create({{"s", table::ColumnType::kString},
                              {"i", table::ColumnType::kInt64},
                              {"d", table::ColumnType::kDouble},
                              {"id", table::ColumnType::kString}}),
      rows);
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, {}, 2));
  ASSERT_EQ(schema.dimensions.size(), 2u);  // "d" is double, "id" too big
  // Always an "other" cell: whether a NULL exists must not decide it.
  EXPECT_THAT(schema.dimensions[0].labels, ElementsAre("a", "b", "other"));
  EXPECT_THAT(schema.dimensions[1].labels, ElementsAre("3", "10", "other"));
  ASSERT_OK_AND_ASSIGN(Cuboid i, ComputeExactCuboid(t, schema, {"i", "s"}));
  EXPECT_THAT(Counts(i), ElementsAre(1, 0, 0, 0, 1, 0, 1, 0, 0));
  EXPECT_THAT(BuildCubeSchema(t, {InferredSpec("id")}, 2),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'id'")));
}

// Regression (docs/privacy.md 7, finding 7): an inferred domain gets its
// "other" cell whether or not a NULL occurs, so one added row with a NULL
// cannot change the public labels; and a nominal spec without a domain is
// refused unless inference is asked for.
TEST(DataCubeTest, InferredDomainsNeedConsentAndAlwaysHaveOther) {
  const table::Table without_null = StringTable({"s"}, {{"a"}, {"b"}});
  const table::Table with_null = StringTable({"s"}, {{"a"}, {"b"}, {""}});
  ASSERT_OK_AND_ASSIGN(CubeSchema a,
                       BuildCubeSchema(without_null, {InferredSpec("s")}));
  ASSERT_OK_AND_ASSIGN(CubeSchema b,
                       BuildCubeSchema(with_null, {InferredSpec("s")}));
  EXPECT_EQ(a.dimensions[0].labels, b.dimensions[0].labels);
  EXPECT_THAT(BuildCubeSchema(without_null, {Spec("s")}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("declares neither a domain nor bin edges")));
}

TEST(DataCubeTest, BadSpecsAreRejectedNamingTheColumn) {
  std::vector<std::vector<std::optional<std::string>>> rows = {{"1.5", "a"}};
  const table::Table t = *table::Table::FromCells(
      *table::Schema::Create({{"d", table::ColumnType::kDouble},
                              {"s", table::ColumnType::kString}}),
      rows);
  EXPECT_THAT(
      BuildCubeSchema(t, {Spec("nope")}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'nope'")));
  EXPECT_THAT(BuildCubeSchema(t, {Spec("d")}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("needs bin edges")));
  EXPECT_THAT(BuildCubeSchema(t, {Spec("d", {2, 1})}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("strictly ascending")));
  EXPECT_THAT(
      BuildCubeSchema(t, {Spec("s", {1, 2})}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("string column")));
  EXPECT_THAT(BuildCubeSchema(t, {Spec("s", {}, {"a", "a"})}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("twice")));
  EXPECT_THAT(BuildCubeSchema(t, {InferredSpec("s"), InferredSpec("s")}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("declared twice")));
}

TEST(DataCubeTest, ExactCuboidRejectsUnknownDimensionsAndTooManyCells) {
  const table::Table t = Figure1Table();
  ASSERT_OK_AND_ASSIGN(CubeSchema schema, BuildCubeSchema(t, Example21Specs()));
  EXPECT_THAT(
      ComputeExactCuboid(t, schema, {"Age", "Height"}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'Height'")));
  EXPECT_THAT(
      ComputeExactCuboid(t, schema, {"Age", "Age"}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("repeated")));
  EXPECT_THAT(ComputeExactCuboid(t, schema, {"Age", "Salary"}, 34),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("35")));
}

TEST(DataCubeTest, LatticeOperations) {
  EXPECT_EQ(MakeDimSet({2, 0, 2}), (DimSet{0, 2}));
  EXPECT_TRUE(IsSubset({0, 2}, {0, 1, 2}));
  EXPECT_FALSE(IsSubset({0, 3}, {0, 1, 2}));
  EXPECT_EQ(Union({0, 2}, {1, 2}), (DimSet{0, 1, 2}));
  EXPECT_EQ(Intersection({0, 2}, {1, 2}), (DimSet{2}));
  EXPECT_EQ(Minus({0, 2}, {1, 2}), (DimSet{0}));
}

}  // namespace
}  // namespace dpq::core::cube
