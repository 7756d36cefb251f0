#include "core/measures/exact_measures.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/measures/brute_force.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::measures {
namespace {

using ::dpq::testing::StatusIs;
using graph::Graph;
using graph::NodeId;
using ::testing::HasSubstr;
using ::testing::Optional;

constexpr Measure kAllMeasures[] = {
    Measure::kDrastic, Measure::kMinimalInconsistency, Measure::kProblematic,
    Measure::kRepair, Measure::kMaximalConsistency};

// Paper Figure 1 / Example 1: tuple 4 conflicts with tuples 1, 2 and 3.
TEST(ExactMeasuresTest, PaperFigure1Star) {
  const Graph g = brute_force::Figure1Star();
  const struct {
    Measure measure;
    uint64_t value;
  } kExpected[] = {{Measure::kDrastic, 1},
                   {Measure::kMinimalInconsistency, 3},
                   {Measure::kProblematic, 4},
                   {Measure::kRepair, 1},
                   {Measure::kMaximalConsistency, 2}};
  for (const auto& [measure, value] : kExpected) {
    ASSERT_OK_AND_ASSIGN(ExactResult r, ComputeExactMeasure(g, measure));
    SCOPED_TRACE(MeasureName(measure));
    EXPECT_EQ(r.measure, measure);
    EXPECT_TRUE(r.exact());
    EXPECT_THAT(r.value, Optional(value));
    EXPECT_EQ(r.lower_bound, value);
    EXPECT_EQ(r.upper_bound, value);
    EXPECT_EQ(r.max_degree, 3u);
    EXPECT_EQ(r.repair.has_value(), measure == Measure::kRepair);
  }
}

TEST(ExactMeasuresTest, ConsistentDatabase) {
  for (const Graph& g : {Graph(), *Graph::FromEdges(5, {})}) {
    for (Measure measure : kAllMeasures) {
      ASSERT_OK_AND_ASSIGN(ExactResult r, ComputeExactMeasure(g, measure));
      EXPECT_THAT(r.value,
                  Optional(measure == Measure::kMaximalConsistency ? 1u : 0u))
          << MeasureName(measure);
      EXPECT_EQ(r.max_degree, 0u);
    }
  }
}

TEST(ExactMeasuresTest, SimpleMeasuresOnRandomGraphs) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    const Graph g = brute_force::RandomGraph(1 + trial % 30, 0.05, rng);
    uint64_t positive_degree = 0;
    uint32_t max_degree = 0;
    for (NodeId v = 0; v < g.num_nodes(); ++v) {
      positive_degree += g.degree(v) > 0;
      max_degree = std::max(max_degree, g.degree(v));
    }
    EXPECT_EQ(DrasticMeasure(g), g.Edges().empty() ? 0u : 1u);
    EXPECT_EQ(MinimalInconsistencyMeasure(g), g.Edges().size());
    EXPECT_EQ(ProblematicMeasure(g), positive_degree);
    ASSERT_OK_AND_ASSIGN(ExactResult r,
                         ComputeExactMeasure(g, Measure::kProblematic));
    EXPECT_EQ(r.max_degree, max_degree);
  }
}

TEST(ExactMeasuresTest, RepairReportsBoundsWhenTheSearchIsCut) {
  ExactLimits limits;
  limits.repair.max_branch_nodes = 0;
  ASSERT_OK_AND_ASSIGN(
      ExactResult r,
      ComputeExactMeasure(brute_force::Petersen(), Measure::kRepair, limits));
  EXPECT_FALSE(r.exact());
  EXPECT_EQ(r.lower_bound, 5u);
  EXPECT_GE(r.upper_bound, 6u);
  EXPECT_LE(r.upper_bound, 10u);
  ASSERT_TRUE(r.repair.has_value());
  EXPECT_THAT(r.repair->not_exact_reason, HasSubstr("max_branch_nodes"));
  EXPECT_EQ(r.repair->lp_doubled, 10u);
}

TEST(ExactMeasuresTest, MaximalConsistencyErrorIsPassedOn) {
  ExactLimits limits;
  limits.maximal_consistency.max_component_nodes = 5;
  EXPECT_THAT(ComputeExactMeasure(brute_force::Petersen(),
                                  Measure::kMaximalConsistency, limits),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("component with 10 nodes exceeds the limit "
                                 "of 5")));
}

TEST(ExactMeasuresTest, RejectsInvalidLimits) {
  ExactLimits limits;
  limits.repair.max_component_nodes = 0;
  EXPECT_THAT(ComputeExactMeasure(Graph(), Measure::kDrastic, limits),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("max_component_nodes")));
}

TEST(MeasureTest, ParsesShortAndPaperNames) {
  EXPECT_THAT(ParseMeasure("mi"),
              ::dpq::testing::IsOkAndHolds(Measure::kMinimalInconsistency));
  EXPECT_THAT(ParseMeasure("I_R"),
              ::dpq::testing::IsOkAndHolds(Measure::kRepair));
  for (Measure measure : kAllMeasures) {
    EXPECT_THAT(ParseMeasure(MeasureName(measure)),
                ::dpq::testing::IsOkAndHolds(measure));
  }
  EXPECT_THAT(ParseMeasure("x"), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("Unknown measure 'x'")));
}

}  // namespace
}  // namespace dpq::core::measures
