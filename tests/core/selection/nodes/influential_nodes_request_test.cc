// BuildInfluentialNodesRequest: every check of a buyer's node request in
// one place, each refusal with its message, and the request it builds.
#include "core/selection/nodes/influential_nodes_request.h"

#include <vector>

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

InfluentialNodesSpec Spec(uint32_t k) {
  InfluentialNodesSpec spec;
  spec.k = k;
  spec.epsilon = 0.5;
  return spec;
}

TEST(InfluentialNodesRequestTest, DefaultsToDegreeAndEgocentricDensity) {
  absl::StatusOr<InfluentialNodesRequest> request =
      BuildInfluentialNodesRequest(Spec(3), 10, "net");
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->k, 3u);
  EXPECT_EQ(request->selection.k, 3u);
  EXPECT_EQ(request->selection.epsilon, 0.5);
  EXPECT_THAT(
      request->objectives,
      ElementsAre(NodeObjective::kDegree, NodeObjective::kEgocentricDensity));
  EXPECT_THAT(request->selection.weights, IsEmpty());  // Pareto
  EXPECT_FALSE(request->selection.stop);
  EXPECT_EQ(NodeObjectiveList(request->objectives),
            "degree,egocentric_density");
}

TEST(InfluentialNodesRequestTest, AggregationWeightsDefaultToOnes) {
  InfluentialNodesSpec spec = Spec(1);
  spec.objectives = {NodeObjective::kEgocentricDensity};
  spec.approach = Approach::kAggregation;
  spec.sensitivity = SensitivityMode::kLocal;
  absl::StatusOr<InfluentialNodesRequest> request =
      BuildInfluentialNodesRequest(spec, 10, "net");
  ASSERT_THAT(request, IsOk());
  EXPECT_THAT(request->selection.weights, ElementsAre(1.0));
  EXPECT_EQ(request->selection.sensitivity, SensitivityMode::kLocal);
}

TEST(InfluentialNodesRequestTest, RefusesKOutOfRange) {
  EXPECT_THAT(BuildInfluentialNodesRequest(Spec(0), 10, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("k must be in [1, 100], but is 0.")));
  EXPECT_THAT(BuildInfluentialNodesRequest(Spec(kMaxNodesK + 1), 1000, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("k must be in [1, 100], but is 101.")));
  EXPECT_THAT(BuildInfluentialNodesRequest(Spec(7), 6, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("k must be at most the declared node count "
                                 "of dataset 'net' (6), but is 7.")));
}

TEST(InfluentialNodesRequestTest, RefusesARepeatedObjective) {
  InfluentialNodesSpec spec = Spec(1);
  spec.objectives = {NodeObjective::kDegree, NodeObjective::kEgocentricDensity,
                     NodeObjective::kDegree};
  EXPECT_THAT(BuildInfluentialNodesRequest(spec, 10, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("objectives lists degree twice.")));
}

TEST(InfluentialNodesRequestTest, RefusesWeightsThatDoNotMatchTheObjectives) {
  InfluentialNodesSpec spec = Spec(1);
  spec.weights = {1, 1};
  EXPECT_THAT(BuildInfluentialNodesRequest(spec, 10, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("with the Pareto approach")));
  spec.approach = Approach::kAggregation;
  spec.weights = {1};
  EXPECT_THAT(BuildInfluentialNodesRequest(spec, 10, "net"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("one number per objective (2: "
                                 "degree,egocentric_density), but holds 1.")));
}

}  // namespace
}  // namespace dpq::core::selection
