// BuildDecisionTreeRequest: every check of a buyer's tree request in one
// place, each refusal with its message, and the request it builds.
#include "core/selection/tree/tree_request.h"

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
using ::testing::IsEmpty;

table::Schema Schema() {
  return *table::Schema::Create({{"age", table::ColumnType::kInt64},
                                 {"city", table::ColumnType::kString},
                                 {"zip", table::ColumnType::kString},
                                 {"y", table::ColumnType::kString}});
}

// zip is a column but no declared dimension.
cube::CubeSchema Cube() {
  cube::CubeSchema cube;
  cube::CubeDimension age;
  age.column = "age";
  age.bin_edges = {0, 50, 100};
  age.labels = {"[0,50)", "[50,100]"};
  cube::CubeDimension city;
  city.column = "city";
  city.labels = {"A", "B"};
  cube::CubeDimension y;
  y.column = "y";
  y.labels = {"0", "1"};
  cube.dimensions = {age, city, y};
  return cube;
}

DecisionTreeSpec Spec() {
  DecisionTreeSpec spec;
  spec.label_column = "y";
  spec.positive_class = "1";
  spec.epsilon = 0.5;
  spec.public_max_rows = 1000;
  return spec;
}

absl::Status Refusal(const DecisionTreeSpec& spec) {
  return BuildDecisionTreeRequest(Schema(), Cube(), spec).status();
}

TEST(TreeRequestTest, BuildsTheRequestWithDefaultsAndPublicDomains) {
  DecisionTreeSpec spec = Spec();
  spec.approach = Approach::kAggregation;
  spec.sensitivity = SensitivityMode::kLocal;
  spec.accuracy_epsilon = 0.25;
  absl::StatusOr<DecisionTreeRequest> request =
      BuildDecisionTreeRequest(Schema(), Cube(), spec);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->label_column, "y");
  EXPECT_EQ(request->positive_class, "1");
  EXPECT_THAT(request->features, ElementsAre("age", "city"));
  ASSERT_EQ(request->public_domains.size(), 2u);
  EXPECT_EQ(request->public_domains[0].max, 100);
  EXPECT_THAT(request->label_classes, ElementsAre("0", "1"));
  EXPECT_EQ(request->selection.approach, Approach::kAggregation);
  EXPECT_EQ(request->selection.sensitivity, SensitivityMode::kLocal);
  EXPECT_THAT(request->selection.weights, ElementsAre(1.0, 1.0));
  EXPECT_EQ(request->selection.epsilon, 0.5);
  EXPECT_EQ(request->accuracy_epsilon, 0.25);
  EXPECT_EQ(request->public_max_rows, 1000u);
  EXPECT_EQ(request->genetic.generations, kDefaultGenerations);
  EXPECT_EQ(request->genetic.population, kDefaultPopulation);
  EXPECT_FALSE(request->stop);
}

TEST(TreeRequestTest, ASmallPopulationCapsTheSurvivors) {
  DecisionTreeSpec spec = Spec();
  spec.population = 2;
  spec.features = {"city"};
  absl::StatusOr<DecisionTreeRequest> request =
      BuildDecisionTreeRequest(Schema(), Cube(), spec);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->genetic.selected, 2u);
  EXPECT_THAT(request->features, ElementsAre("city"));
  // The default: aggregation, weights (1, 1), local sensitivity.
  EXPECT_EQ(request->selection.approach, Approach::kAggregation);
  EXPECT_EQ(request->selection.sensitivity, SensitivityMode::kLocal);
  EXPECT_THAT(request->selection.weights, ElementsAre(1, 1));
}

TEST(TreeRequestTest, RefusesBadWeights) {
  DecisionTreeSpec spec = Spec();
  spec.approach = Approach::kPareto;
  spec.weights = {1, 1};
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("weights apply to "
                                 "SELECTION_APPROACH_AGGREGATION only")));
  spec.approach = Approach::kAggregation;
  spec.weights = {1};
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("one number per objective (2: TPR, TNR), "
                                 "but holds 1.")));
}

TEST(TreeRequestTest, RefusesGeneticParametersOutOfRange) {
  DecisionTreeSpec spec = Spec();
  spec.generations = kMaxGenerations + 1;
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("generations must be at most 200 (0 means "
                                 "5), but is 201.")));
  spec = Spec();
  spec.population = 1;
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("population must be in [2, 1000] (0 means "
                                 "60), but is 1.")));
  spec.population = kMaxPopulation + 1;
  EXPECT_THAT(Refusal(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("but is 1001.")));
}

TEST(TreeRequestTest, RefusesBadColumns) {
  DecisionTreeSpec spec = Spec();
  spec.label_column = "";
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("label_column must not be empty.")));
  spec.label_column = "income";
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("label_column: 'income' is not a column of "
                                 "the dataset; its columns are: age, city, "
                                 "zip, y.")));
  spec = Spec();
  spec.positive_class = "";
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("positive_class must not be empty")));
  spec = Spec();
  spec.features = {"age", "height"};
  EXPECT_THAT(Refusal(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("features: 'height' is not "
                                                "a column of the dataset")));
  spec.features = {"age", "y"};
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("features must not contain the label "
                                 "column 'y'.")));
  spec.features = {"age", "age"};
  EXPECT_THAT(Refusal(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("features lists 'age' "
                                                "twice.")));
}

TEST(TreeRequestTest, RefusesColumnsWithoutAPublicDomain) {
  DecisionTreeSpec spec = Spec();
  spec.features = {"zip"};
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("column 'zip' has no public domain")));
  spec = Spec();
  spec.positive_class = "2";
  EXPECT_THAT(Refusal(spec),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("positive_class '2' is not a declared value "
                                 "of the label column 'y'; its values are: "
                                 "0, 1.")));
}

// The weights come first, the columns after the genetic parameters: the
// order the service has always reported a request's first problem in.
TEST(TreeRequestTest, ChecksInTheDocumentedOrder) {
  DecisionTreeSpec spec = Spec();
  spec.weights = {1};
  spec.generations = kMaxGenerations + 1;
  spec.label_column = "income";
  EXPECT_THAT(Refusal(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("weights")));
  spec.weights.clear();
  EXPECT_THAT(Refusal(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("generations")));
}

}  // namespace
}  // namespace dpq::core::selection
