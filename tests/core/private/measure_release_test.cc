// BuildMeasureRelease and ResolveRepairMethod: a buyer's measure request
// checked in one place, each refusal with its message.
#include "core/private/measure_release.h"

#include <optional>

#include "core/dp/budget_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using measures::Measure;

TEST(MeasureReleaseTest, RepairMethodDefaultsToTheRegisteredExactRepair) {
  EXPECT_THAT(ResolveRepairMethod(std::nullopt, true),
              IsOkAndHolds(RepairMethod::kExact));
  EXPECT_THAT(ResolveRepairMethod(std::nullopt, false),
              IsOkAndHolds(RepairMethod::kCoverBound));
  EXPECT_THAT(ResolveRepairMethod(RepairMethod::kVertexCover, true),
              IsOkAndHolds(RepairMethod::kVertexCover));
  EXPECT_THAT(ResolveRepairMethod(RepairMethod::kExact, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("repair_method EXACT needs a dataset "
                                 "registered with exact_repair")));
}

TEST(MeasureReleaseTest, OneMeasureRunsAtTheWholeEpsilon) {
  MeasureReleaseSpec spec;
  spec.measures = {Measure::kProblematic};
  spec.method = SelectionMethod::kBasic;
  spec.repair_method = RepairMethod::kExact;  // not for I_P: not checked
  spec.epsilon = 0.3;
  absl::StatusOr<MeasureRelease> release = BuildMeasureRelease(spec, false);
  ASSERT_THAT(release, IsOk());
  EXPECT_EQ(release->epsilon_each, 0.3);
  EXPECT_EQ(release->MethodName(Measure::kProblematic), "basic");
}

TEST(MeasureReleaseTest, AReportSplitsEpsilonInThree) {
  MeasureReleaseSpec spec;
  spec.measures = {Measure::kMinimalInconsistency, Measure::kProblematic,
                   Measure::kRepair};
  spec.epsilon = 1;
  absl::StatusOr<MeasureRelease> release = BuildMeasureRelease(spec, true);
  ASSERT_THAT(release, IsOk());
  EXPECT_EQ(release->epsilon_each, dp::EqualPart(1, 3));
  EXPECT_LE(3 * release->epsilon_each, 1.0);
  EXPECT_EQ(release->MethodName(Measure::kMinimalInconsistency), "group_bound");
  EXPECT_EQ(release->MethodName(Measure::kRepair), "exact");
}

// The row count takes its share first; the measures split the rest; all
// parts sum to at most epsilon. Public: nothing taken.
TEST(MeasureReleaseTest, ARowCountTakesItsShare) {
  MeasureReleaseSpec spec;
  spec.measures = {Measure::kMinimalInconsistency, Measure::kProblematic,
                   Measure::kRepair};
  spec.epsilon = 1;
  spec.row_count = true;
  absl::StatusOr<MeasureRelease> release = BuildMeasureRelease(spec, false);
  ASSERT_THAT(release, IsOk());
  EXPECT_TRUE(release->row_count);
  EXPECT_DOUBLE_EQ(release->epsilon_row_count, 0.1);
  EXPECT_NEAR(release->epsilon_each, 0.3, 1e-12);
  spec.row_count_public = true;
  release = BuildMeasureRelease(spec, false);
  ASSERT_THAT(release, IsOk());
  EXPECT_EQ(release->epsilon_row_count, 0);
  EXPECT_EQ(release->epsilon_each, dp::EqualPart(1, 3));
}

TEST(MeasureReleaseTest, RefusesMeasuresThatCannotBeReleased) {
  MeasureReleaseSpec spec;
  spec.epsilon = 1;
  EXPECT_THAT(BuildMeasureRelease(spec, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least one measure")));
  spec.measures = {Measure::kDrastic};
  EXPECT_THAT(BuildMeasureRelease(spec, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("I_D cannot be released")));
  spec.measures = {Measure::kRepair};
  spec.repair_method = RepairMethod::kExact;
  EXPECT_THAT(BuildMeasureRelease(spec, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("needs a dataset registered with "
                                 "exact_repair")));
}

}  // namespace
}  // namespace dpq::core::private_measures
