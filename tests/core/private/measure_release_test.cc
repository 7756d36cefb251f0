// BuildMeasureRelease and ResolveRepairMethod: a buyer's measure request
// checked in one place, each refusal with its message.
#include "core/private/measure_release.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/graph/graph.h"
#include "core/private/row_count_release.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOk;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;
using measures::Measure;
using ::testing::HasSubstr;

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

// A star of `leaves` leaves plus isolated nodes up to `nodes`.
graph::Graph Star(uint32_t nodes, uint32_t leaves) {
  std::vector<graph::Edge> edges;
  for (uint32_t i = 1; i <= leaves; ++i) edges.emplace_back(0, i);
  return *graph::Graph::FromEdges(nodes, std::move(edges));
}

// CheckMeasureReleaseRuns walks every method, measure and DC shape over
// extreme N and epsilon: whatever it refuses, the release refuses on real
// graphs as well, and whatever it passes, the release then runs on every
// graph tried (stars up to the largest degree, degree bounds that push B~
// and the escalation to N). A refusal after the charge would break the
// promise of docs/security.md.
TEST(MeasureReleaseTest, PublicRefusalsComeBeforeTheRelease) {
  const std::vector<uint64_t> maxima = {1, 1000, 2'000'000, 4'294'967'295};
  const std::vector<double> epsilons = {1e-6, 2e-6, 1e-4, 1, 1e3};
  const std::vector<std::vector<DcDegreeBound>> shapes = {
      {},                                // a graph dataset
      {{true, 0}, {true, 0}},            // FDs
      {{true, 0}, {false, 0, true, 0}},  // a cross-keyed DC
      {{true, 0}, {false, 0}}};          // an unkeyed DC
  const std::vector<SelectionMethod> methods = {
      SelectionMethod::kGroupBound, SelectionMethod::kGem,
      SelectionMethod::kOptimized,  SelectionMethod::kHierarchical,
      SelectionMethod::kBasic,      SelectionMethod::kBaseline};
  dpq::testing::SeededUrbg urbg(3);
  int refused = 0, passed = 0;
  for (const uint64_t n : maxima) {
    for (const double epsilon : epsilons) {
      for (const auto& shape_bounds : shapes) {
        for (const SelectionMethod method : methods) {
          MeasureReleaseSpec spec;
          spec.measures = {Measure::kMinimalInconsistency,
                           Measure::kProblematic, Measure::kRepair};
          spec.method = method;
          spec.epsilon = epsilon;
          spec.row_count = true;
          ASSERT_OK_AND_ASSIGN(const MeasureRelease release,
                               BuildMeasureRelease(spec, false));
          PublicDatasetShape shape;
          shape.public_max_rows = n;
          shape.dc_shape = shape_bounds;
          shape.degree_keys = static_cast<uint32_t>(shape_bounds.size()) + 1;
          const absl::Status check =
              CheckMeasureReleaseRuns(release, shape, urbg);
          SCOPED_TRACE(absl::StrCat("N ", n, " epsilon ", epsilon, " method ",
                                    SelectionMethodName(method), " DCs ",
                                    shape_bounds.size()));
          if (!check.ok()) {
            ++refused;
            EXPECT_THAT(check, StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("Nothing was charged")));
          } else {
            ++passed;
          }
          // Real graphs: a star as large as N allows (at most 60 nodes) and
          // private degree bounds at their largest.
          const uint32_t nodes =
              static_cast<uint32_t>(std::min<uint64_t>(n, 60));
          for (const uint32_t leaves : {0u, nodes - 1}) {
            const graph::Graph g = Star(nodes, leaves);
            bool any_failed = false;
            for (const Measure measure : release.measures) {
              PrivateMeasureRequest request;
              request.measure = measure;
              request.method = method;
              request.repair_method = release.repair_method;
              request.cover_bound = leaves > 0 ? 1 : 0;
              request.epsilon = release.epsilon_each;
              request.public_max_rows = n;
              request.degree_bounds = shape_bounds;
              for (DcDegreeBound& b : request.degree_bounds) {
                (b.keyed ? b.bound : b.cross_bound) = n - 1;
              }
              request.degree_keys = shape.degree_keys;
              const absl::Status ran =
                  ComputePrivateMeasure(urbg, g, request).status();
              if (check.ok()) {
                EXPECT_THAT(ran, IsOk()) << "leaves " << leaves;
              }
              any_failed = any_failed || !ran.ok();
            }
            if (!check.ok()) {
              EXPECT_TRUE(any_failed ||
                          !ReleaseRowCount(urbg, nodes, false,
                                           release.epsilon_row_count, n)
                               .ok())
                  << check.message();
            }
          }
        }
      }
    }
  }
  // Both outcomes occur: the walk reaches the limit.
  EXPECT_GT(refused, 0);
  EXPECT_GT(passed, 0);
}

}  // namespace
}  // namespace dpq::core::private_measures
