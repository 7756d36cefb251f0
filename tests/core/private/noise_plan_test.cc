// The cost preview's noise plan (noise_plan.h) against real releases: for
// every method, measure and DC shape, the plan's method, release epsilon
// and 95% noise bound at the theta the release chose are the release's own.
#include "core/private/noise_plan.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/graph/graph.h"
#include "core/private/measure_release.h"
#include "core/private/private_measures.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOkAndHolds;
using measures::Measure;

// Two stars of 8 and 5 leaves and a triangle, on 30 nodes.
graph::Graph TestGraph() {
  std::vector<graph::Edge> edges;
  for (uint32_t i = 1; i <= 8; ++i) edges.emplace_back(0, i);
  for (uint32_t i = 10; i <= 14; ++i) edges.emplace_back(9, i);
  edges.emplace_back(20, 21);
  edges.emplace_back(21, 22);
  edges.emplace_back(20, 22);
  return *graph::Graph::FromEdges(30, std::move(edges));
}

TEST(NoisePlanTest, EveryMethodsPlanIsWhatItsReleaseSpends) {
  const graph::Graph g = TestGraph();
  const std::vector<std::vector<DcDegreeBound>> shapes = {
      {{true, 8}, {true, 5}},            // FDs: group_bound applies
      {{true, 8}, {false, 0, true, 4}},  // cross-keyed: I_MI only
      {{true, 8}, {false, 0}}};          // an unkeyed DC: gem instead
  dpq::testing::SeededUrbg urbg(11);
  int checked = 0;
  for (const auto& shape : shapes) {
    for (const SelectionMethod method :
         {SelectionMethod::kGroupBound, SelectionMethod::kGem,
          SelectionMethod::kOptimized, SelectionMethod::kHierarchical,
          SelectionMethod::kBasic, SelectionMethod::kBaseline}) {
      for (const RepairMethod repair :
           {RepairMethod::kCoverBound, RepairMethod::kVertexCover}) {
        for (const bool report : {false, true}) {
          MeasureReleaseSpec spec;
          spec.measures =
              report ? std::vector<Measure>{Measure::kMinimalInconsistency,
                                            Measure::kProblematic,
                                            Measure::kRepair}
                     : std::vector<Measure>{Measure::kProblematic};
          spec.method = method;
          spec.repair_method = repair;
          spec.epsilon = 0.9;
          spec.row_count = report;
          ASSERT_OK_AND_ASSIGN(const MeasureRelease release,
                               BuildMeasureRelease(spec, false));
          const std::vector<MeasureNoisePlan> plans =
              PlanMeasureNoise(release, shape);
          ASSERT_EQ(plans.size(), release.measures.size());
          for (size_t i = 0; i < plans.size(); ++i) {
            const MeasureNoisePlan& plan = plans[i];
            SCOPED_TRACE(absl::StrCat(SelectionMethodName(method), " ",
                                      plan.method, " measure ", i, " DCs ",
                                      shape.size(), shape[1].keyed));
            PrivateMeasureRequest request;
            request.measure = release.measures[i];
            request.method = release.method;
            request.repair_method = release.repair_method;
            request.cover_bound = 9;
            request.epsilon = release.epsilon_each;
            request.public_max_rows = 60;
            request.degree_bounds = shape;
            request.degree_keys = static_cast<uint32_t>(shape.size()) + 1;
            ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult result,
                                 ComputePrivateMeasure(urbg, g, request));
            EXPECT_EQ(plan.measure, release.measures[i]);
            EXPECT_EQ(plan.method, result.method);
            EXPECT_EQ(plan.release_epsilon, result.epsilon_release);
            const uint32_t theta = result.theta.value_or(0);
            EXPECT_THAT(plan.Bound95At(theta), IsOkAndHolds(result.bound95))
                << "theta " << theta;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 3 * 6 * 2 * (1 + 3));
}

TEST(NoisePlanTest, SensitivityPerMeasure) {
  MeasureReleaseSpec spec;
  spec.measures = {Measure::kMinimalInconsistency, Measure::kProblematic,
                   Measure::kRepair};
  spec.method = SelectionMethod::kBaseline;
  spec.epsilon = 3;
  ASSERT_OK_AND_ASSIGN(const MeasureRelease release,
                       BuildMeasureRelease(spec, false));
  const std::vector<MeasureNoisePlan> plans = PlanMeasureNoise(release, {});
  ASSERT_EQ(plans.size(), 3u);
  // baseline: the whole epsilon each (epsilon / 3 per measure).
  EXPECT_EQ(plans[0].release_epsilon, release.epsilon_each);
  EXPECT_EQ(plans[0].theta_coefficient, 1u);
  EXPECT_EQ(plans[0].sensitivity_constant, 0u);
  EXPECT_EQ(plans[1].sensitivity_constant, 1u);
  EXPECT_EQ(plans[2].theta_coefficient, 0u);
  EXPECT_EQ(plans[2].sensitivity_constant, 1u);
  EXPECT_EQ(plans[2].method, "cover_bound");
  // scale = (theta + 1) / eps at theta 9 for I_P: 10 / 1.
  EXPECT_THAT(plans[1].ScaleAt(9), IsOkAndHolds(10.0));
}

}  // namespace
}  // namespace dpq::core::private_measures
