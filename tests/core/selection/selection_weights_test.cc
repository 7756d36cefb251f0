// CheckSelectionWeights: the weights of a multi-objective selection, each
// refusal with its message.
#include "core/selection/selection_weights.h"

#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(SelectionWeightsTest, ParetoTakesNoWeights) {
  EXPECT_THAT(CheckSelectionWeights(Approach::kPareto, {}, 2, "TPR, TNR"),
              IsOkAndHolds(IsEmpty()));
  const std::vector<double> two = {1, 2};
  EXPECT_THAT(CheckSelectionWeights(Approach::kPareto, two, 2, "TPR, TNR"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("weights apply to "
                                 "SELECTION_APPROACH_AGGREGATION only, but 2 "
                                 "were given with the Pareto approach.")));
}

TEST(SelectionWeightsTest, AggregationDefaultsToOnes) {
  EXPECT_THAT(CheckSelectionWeights(Approach::kAggregation, {}, 3, "a, b, c"),
              IsOkAndHolds(ElementsAre(1.0, 1.0, 1.0)));
  const std::vector<double> given = {-1, 0.5};
  EXPECT_THAT(CheckSelectionWeights(Approach::kAggregation, given, 2, "x"),
              IsOkAndHolds(ElementsAre(-1.0, 0.5)));
}

TEST(SelectionWeightsTest, AggregationRefusesBadWeights) {
  const std::vector<double> one = {1};
  EXPECT_THAT(CheckSelectionWeights(Approach::kAggregation, one, 2, "TPR, TNR"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("weights must hold one number per objective "
                                 "(2: TPR, TNR), but holds 1.")));
  const std::vector<double> infinite = {
      1, std::numeric_limits<double>::infinity()};
  EXPECT_THAT(
      CheckSelectionWeights(Approach::kAggregation, infinite, 2, "TPR, TNR"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("weights[1] must be finite, but is inf.")));
  const std::vector<double> zeros = {0, 0};
  EXPECT_THAT(CheckSelectionWeights(Approach::kAggregation, zeros, 2, "x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("weights must not all be zero")));
}

}  // namespace
}  // namespace dpq::core::selection
