// BuildCuboidRequest: every check of a buyer's cuboid request in one place,
// each refusal with its message, and the request it builds.
#include "core/cube/cuboid_request.h"

#include <string>
#include <vector>

#include "core/cube/cuboid_release.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Dimension `column` with `cells` labels.
CubeDimension Dimension(const std::string& column, size_t cells) {
  CubeDimension dim;
  dim.column = column;
  for (size_t i = 0; i < cells; ++i) dim.labels.push_back(std::to_string(i));
  return dim;
}

CubeSchema Schema() {
  CubeSchema schema;
  schema.dimensions = {Dimension("Sex", 2), Dimension("Age", 5),
                       Dimension("Zip", 1000), Dimension("Street", 1000)};
  return schema;
}

CuboidRequestSpec Spec(std::vector<std::vector<std::string>> cuboids) {
  CuboidRequestSpec spec;
  spec.cuboids = std::move(cuboids);
  spec.epsilon = 0.5;
  return spec;
}

TEST(CuboidRequestTest, BuildsTheReleaseOptions) {
  CuboidRequestSpec spec = Spec({{"Sex", "Age"}, {"Age"}});
  spec.non_negative_integral = true;
  absl::StatusOr<CuboidRequest> request =
      BuildCuboidRequest(Schema(), {{"Sex"}}, spec);
  ASSERT_THAT(request, IsOk());
  EXPECT_THAT(request->cuboids,
              ElementsAre(ElementsAre("Sex", "Age"), ElementsAre("Age")));
  EXPECT_THAT(request->options.public_exact_cuboids,
              ElementsAre(ElementsAre("Sex")));
  EXPECT_EQ(request->options.epsilon, 0.5);
  EXPECT_TRUE(request->options.non_negative_integral);
  EXPECT_EQ(request->options.max_cells, kMaxNoisedCells);
}

TEST(CuboidRequestTest, RefusesTooFewOrTooManyCuboids) {
  EXPECT_THAT(BuildCuboidRequest(Schema(), {}, Spec({})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cuboids must hold 1 to 16 cuboids, but "
                                 "holds 0.")));
  std::vector<std::vector<std::string>> many(kMaxCuboidsPerRequest + 1,
                                             {"Sex"});
  EXPECT_THAT(
      BuildCuboidRequest(Schema(), {}, Spec(many)),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("but holds 17.")));
}

TEST(CuboidRequestTest, RefusesUnknownAndRepeatedDimensions) {
  EXPECT_THAT(BuildCuboidRequest(Schema(), {}, Spec({{"Sex"}, {"Income"}})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cuboids[1]: 'Income' is not a cube "
                                 "dimension of this dataset; its dimensions "
                                 "are: Sex, Age, Zip, Street.")));
  EXPECT_THAT(BuildCuboidRequest(CubeSchema(), {}, Spec({{"Sex"}})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("its dimensions are: (none).")));
  EXPECT_THAT(BuildCuboidRequest(Schema(), {}, Spec({{"Age", "Sex", "Age"}})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cuboids[0] names dimension 'Age' twice.")));
}

TEST(CuboidRequestTest, RefusesMoreCellsThanTheLimit) {
  // 1000 * 1000 cells: counted from the declared labels, saturating.
  EXPECT_THAT(
      BuildCuboidRequest(Schema(), {}, Spec({{"Zip", "Street", "Age"}})),
      StatusIs(absl::StatusCode::kResourceExhausted,
               HasSubstr("more than 200000 cells together")));
  // 2 * 100,000 cells fit exactly; one more cuboid does not.
  CubeSchema schema = Schema();
  schema.dimensions.push_back(Dimension("Id", 100'000));
  EXPECT_THAT(BuildCuboidRequest(schema, {}, Spec({{"Id"}, {"Id"}})), IsOk());
  EXPECT_THAT(BuildCuboidRequest(schema, {}, Spec({{"Id"}, {"Id"}, {"Sex"}})),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("more than 200000 cells together")));
}

TEST(CuboidRequestTest, RefusesWhatTheReleaseWouldRefuse) {
  // A public cuboid over an undeclared dimension: the release's own check
  // (CheckCuboidRelease), before any budget.
  EXPECT_THAT(
      BuildCuboidRequest(Schema(), {{"Income"}}, Spec({{"Sex"}})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Income")));
}

}  // namespace
}  // namespace dpq::core::cube
