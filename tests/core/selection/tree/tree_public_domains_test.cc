// TreePublicInputsFromCube and FeatureDomainOf: the tree's domains and
// classes come from the declared cube dimensions only, and every refusal
// names the column.
#include "core/selection/tree/tree_public_domains.h"

#include <string>
#include <vector>

#include "core/cube/cuboid_release.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

table::Schema PeopleSchema() {
  return *table::Schema::Create({{"age", table::ColumnType::kInt64},
                                 {"height", table::ColumnType::kDouble},
                                 {"city", table::ColumnType::kString},
                                 {"y", table::ColumnType::kString}});
}

cube::CubeDimension Nominal(const std::string& column,
                            std::vector<std::string> labels, bool has_other) {
  cube::CubeDimension dim;
  dim.column = column;
  dim.labels = std::move(labels);
  dim.has_other = has_other;
  return dim;
}

cube::CubeDimension Binned(const std::string& column,
                           std::vector<double> edges) {
  cube::CubeDimension dim;
  dim.column = column;
  dim.bin_edges = std::move(edges);
  for (size_t i = 0; i + 1 < dim.bin_edges.size(); ++i) {
    dim.labels.push_back("bin");
  }
  return dim;
}

// age declared by values, height by bins, city nominal, y the label.
cube::CubeSchema PeopleCube() {
  cube::CubeSchema cube;
  cube.dimensions = {Nominal("age", {"30", "18", "65", "other"}, true),
                     Binned("height", {1.2, 1.6, 2.1}),
                     Nominal("city", {"A", "B", "other"}, true),
                     Nominal("y", {"no", "yes", "other"}, true)};
  return cube;
}

TEST(TreePublicDomainsTest, DomainsComeFromTheDeclaredDimensions) {
  absl::StatusOr<TreePublicInputs> inputs = TreePublicInputsFromCube(
      PeopleSchema(), PeopleCube(), "y", "yes", {"height", "age", "city"});
  ASSERT_THAT(inputs, IsOk());
  EXPECT_THAT(inputs->features, ElementsAre("height", "age", "city"));
  ASSERT_EQ(inputs->public_domains.size(), 3u);
  // Bins: the first and last edge.
  EXPECT_TRUE(inputs->public_domains[0].numeric);
  EXPECT_EQ(inputs->public_domains[0].min, 1.2);
  EXPECT_EQ(inputs->public_domains[0].max, 2.1);
  // Declared numbers: the smallest and largest, not the catch-all.
  EXPECT_TRUE(inputs->public_domains[1].numeric);
  EXPECT_EQ(inputs->public_domains[1].min, 18);
  EXPECT_EQ(inputs->public_domains[1].max, 65);
  // Text: the declared values without "other".
  EXPECT_FALSE(inputs->public_domains[2].numeric);
  EXPECT_THAT(inputs->public_domains[2].categories, ElementsAre("A", "B"));
  EXPECT_THAT(inputs->label_classes, ElementsAre("no", "yes"));
}

TEST(TreePublicDomainsTest, NoFeaturesMeansEveryDimensionButTheLabel) {
  absl::StatusOr<TreePublicInputs> inputs =
      TreePublicInputsFromCube(PeopleSchema(), PeopleCube(), "y", "no", {});
  ASSERT_THAT(inputs, IsOk());
  EXPECT_THAT(inputs->features, ElementsAre("age", "height", "city"));
  EXPECT_EQ(inputs->public_domains.size(), 3u);
}

TEST(TreePublicDomainsTest, EachRefusalNamesTheColumn) {
  const table::Schema schema = PeopleSchema();
  cube::CubeSchema cube = PeopleCube();
  // The "other" cell is no class.
  EXPECT_THAT(TreePublicInputsFromCube(schema, cube, "y", "other", {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("positive_class 'other' is not a declared "
                                 "value of the label column 'y'; its values "
                                 "are: no, yes.")));
  EXPECT_THAT(TreePublicInputsFromCube(schema, cube, "height", "x", {}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("label column 'height' is declared as a "
                                 "binned cube dimension")));
  cube::CubeSchema no_city = cube;
  no_city.dimensions.erase(no_city.dimensions.begin() + 2);
  EXPECT_THAT(TreePublicInputsFromCube(schema, no_city, "y", "yes", {"city"}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("column 'city' has no public domain")));
  EXPECT_THAT(TreePublicInputsFromCube(schema, no_city, "city", "A", {}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("column 'city' has no public domain")));
  cube::CubeSchema label_only;
  label_only.dimensions = {cube.dimensions[3]};
  EXPECT_THAT(TreePublicInputsFromCube(schema, label_only, "y", "yes", {}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("declares no cube dimension besides the "
                                 "label 'y'")));
  cube::CubeSchema empty_city = cube;
  empty_city.dimensions[2] = Nominal("city", {"other"}, true);
  EXPECT_THAT(
      TreePublicInputsFromCube(schema, empty_city, "y", "yes", {"city"}),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("the cube dimension of column 'city' "
                         "declares no value")));
  cube::CubeSchema text_age = cube;
  text_age.dimensions[0] = Nominal("age", {"young", "old"}, false);
  EXPECT_THAT(TreePublicInputsFromCube(schema, text_age, "y", "yes", {"age"}),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("numeric column 'age' declares the "
                                 "non-numeric value 'young'")));
}

TEST(TreePublicDomainsTest, AClosedNominalDimensionKeepsItsLastValue) {
  absl::StatusOr<FeatureDomain> domain = FeatureDomainOf(
      Nominal("city", {"A", "B"}, false), table::ColumnType::kString);
  ASSERT_THAT(domain, IsOk());
  EXPECT_THAT(domain->categories, ElementsAre("A", "B"));
}

// The candidate thresholds are the public grid of the declaration: the
// interior bin edges, or every declared number but the largest (sorted).
TEST(TreePublicDomainsTest, ThresholdsAreTheDeclaredGrid) {
  absl::StatusOr<TreePublicInputs> inputs = TreePublicInputsFromCube(
      PeopleSchema(), PeopleCube(), "y", "yes", {"height", "age", "city"});
  ASSERT_THAT(inputs, IsOk());
  EXPECT_THAT(inputs->public_domains[0].thresholds, ElementsAre(1.6));
  EXPECT_THAT(inputs->public_domains[1].thresholds, ElementsAre(18, 30));
  EXPECT_TRUE(inputs->public_domains[2].thresholds.empty());
  // Two edges (one bin) split nothing: uniform over [min, max] instead.
  absl::StatusOr<FeatureDomain> one_bin =
      FeatureDomainOf(Binned("height", {1, 2}), table::ColumnType::kDouble);
  ASSERT_THAT(one_bin, IsOk());
  EXPECT_TRUE(one_bin->thresholds.empty());
  // A single declared number: no threshold.
  absl::StatusOr<FeatureDomain> one_value =
      FeatureDomainOf(Nominal("age", {"7"}, false), table::ColumnType::kInt64);
  ASSERT_THAT(one_value, IsOk());
  EXPECT_TRUE(one_value->thresholds.empty());
}

}  // namespace
}  // namespace dpq::core::selection
