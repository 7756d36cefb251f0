#include "core/private/private_measures.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/discrete_laplace.h"
#include "core/graph/edge_addition.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/measure.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using measures::Measure;
using ::testing::AllOf;
using ::testing::HasSubstr;

PrivateMeasureRequest Request(Measure m, SelectionMethod method, double epsilon,
                              uint64_t n) {
  PrivateMeasureRequest r;
  r.measure = m;
  r.method = method;
  r.epsilon = epsilon;
  r.public_max_rows = n;
  return r;
}

TEST(ParseSelectionMethodTest, ParsesTheFourNames) {
  EXPECT_THAT(ParseSelectionMethod("optimized"),
              IsOkAndHolds(SelectionMethod::kOptimized));
  EXPECT_THAT(ParseSelectionMethod("Hierarchical"),
              IsOkAndHolds(SelectionMethod::kHierarchical));
  EXPECT_THAT(ParseSelectionMethod("BASIC"),
              IsOkAndHolds(SelectionMethod::kBasic));
  EXPECT_THAT(ParseSelectionMethod("baseline"),
              IsOkAndHolds(SelectionMethod::kBaseline));
  EXPECT_THAT(ParseSelectionMethod("em"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("'em'"), HasSubstr("optimized"),
                             HasSubstr("hierarchical"), HasSubstr("basic"),
                             HasSubstr("baseline"))));
  for (SelectionMethod m :
       {SelectionMethod::kOptimized, SelectionMethod::kHierarchical,
        SelectionMethod::kBasic, SelectionMethod::kBaseline}) {
    EXPECT_THAT(ParseSelectionMethod(SelectionMethodName(m)), IsOkAndHolds(m));
  }
}

TEST(ComputePrivateMeasureTest, RefusesDrasticWithExplanation) {
  SeededUrbg urbg(1);
  EXPECT_THAT(
      ComputePrivateMeasure(
          urbg, testing::Figure1Graph(),
          Request(Measure::kDrastic, SelectionMethod::kOptimized, 1.0, 10)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("I_D"), HasSubstr("sensitivity is 1"),
                     HasSubstr("Section 3"))));
}

TEST(ComputePrivateMeasureTest, RefusesMaximalConsistencyWithExplanation) {
  SeededUrbg urbg(1);
  EXPECT_THAT(
      ComputePrivateMeasure(urbg, testing::Figure1Graph(),
                            Request(Measure::kMaximalConsistency,
                                    SelectionMethod::kOptimized, 1.0, 10)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("I_MC"), HasSubstr("#P-complete"),
                     HasSubstr("exponential"), HasSubstr("Proposition 2"))));
}

TEST(ComputePrivateMeasureTest, RejectsBadEpsilon) {
  SeededUrbg urbg(1);
  for (double eps :
       {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic,
                      Measure::kRepair}) {
      EXPECT_THAT(
          ComputePrivateMeasure(urbg, testing::Figure1Graph(),
                                Request(m, SelectionMethod::kBasic, eps, 10)),
          StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("psilon")))
          << eps;
    }
  }
}

TEST(ComputePrivateMeasureTest, RejectsNBelowRowCount) {
  SeededUrbg urbg(1);
  for (SelectionMethod method :
       {SelectionMethod::kOptimized, SelectionMethod::kHierarchical,
        SelectionMethod::kBasic, SelectionMethod::kBaseline}) {
    EXPECT_THAT(
        ComputePrivateMeasure(urbg, testing::Figure1Graph(),
                              Request(Measure::kProblematic, method, 1.0, 3)),
        StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("raise N")));
  }
  EXPECT_THAT(ComputePrivateMeasure(urbg, testing::Figure1Graph(),
                                    Request(Measure::kProblematic,
                                            SelectionMethod::kBasic, 1.0, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("public_max_rows")));
}

TEST(ComputePrivateMeasureTest, RejectsBadCandidates) {
  SeededUrbg urbg(1);
  PrivateMeasureRequest r = Request(Measure::kMinimalInconsistency,
                                    SelectionMethod::kHierarchical, 1.0, 10);
  r.candidates = std::vector<uint64_t>{};
  EXPECT_THAT(ComputePrivateMeasure(urbg, testing::Figure1Graph(), r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
  r.candidates = std::vector<uint64_t>{1, 11};
  EXPECT_THAT(ComputePrivateMeasure(urbg, testing::Figure1Graph(), r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is 11")));
  r.candidates = std::vector<uint64_t>{0};
  EXPECT_THAT(ComputePrivateMeasure(urbg, testing::Figure1Graph(), r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is 0")));
}

TEST(ComputePrivateMeasureTest, RejectsNoiseScaleTooLargeBeforeDrawing) {
  SeededUrbg urbg(1);
  // N / eps2 = 4e9 / 6e-4 > 2^40.
  EXPECT_THAT(ComputePrivateMeasure(
                  urbg, testing::Figure1Graph(),
                  Request(Measure::kMinimalInconsistency,
                          SelectionMethod::kBaseline, 1e-3, 4000000000u)),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(ComputePrivateMeasureTest, BaselineUsesThetaNAndAllEpsilon) {
  SeededUrbg urbg(2);
  ASSERT_OK_AND_ASSIGN(
      const PrivateMeasureResult r,
      ComputePrivateMeasure(urbg, testing::Figure1Graph(),
                            Request(Measure::kMinimalInconsistency,
                                    SelectionMethod::kBaseline, 2.0, 50)));
  EXPECT_EQ(r.theta, 50u);
  EXPECT_EQ(r.method, "baseline");
  EXPECT_EQ(r.epsilon_spent, 2.0);
  EXPECT_EQ(r.epsilon_release, 2.0);
  EXPECT_EQ(r.epsilon_selection, 0.0);
  EXPECT_EQ(r.epsilon_degree_bound, 0.0);
  EXPECT_FALSE(r.noisy_degree_bound.has_value());
  // bound95 of DiscreteLaplace(50 / 2).
  EXPECT_EQ(
      r.bound95,
      dp::DiscreteLaplace::ForSensitivity(50, 2.0)->ConfidenceBound(0.95));
}

TEST(ComputePrivateMeasureTest, BaselineIpUsesThetaPlusOne) {
  SeededUrbg urbg(2);
  ASSERT_OK_AND_ASSIGN(
      const PrivateMeasureResult r,
      ComputePrivateMeasure(
          urbg, testing::Figure1Graph(),
          Request(Measure::kProblematic, SelectionMethod::kBaseline, 1.0, 9)));
  EXPECT_EQ(
      r.bound95,
      dp::DiscreteLaplace::ForSensitivity(10, 1.0)->ConfidenceBound(0.95));
}

TEST(ComputePrivateMeasureTest, EpsilonPartsComposeToTheRequest) {
  const graph::Graph g = testing::StarGraph(20, 0);
  for (SelectionMethod method :
       {SelectionMethod::kOptimized, SelectionMethod::kHierarchical,
        SelectionMethod::kBasic, SelectionMethod::kBaseline}) {
    for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
      SeededUrbg urbg(3);
      PrivateMeasureRequest req = Request(m, method, 0.9, 100);
      req.degree_bounds = {{true, 19}};
      ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                           ComputePrivateMeasure(urbg, g, req));
      EXPECT_EQ(r.method, SelectionMethodName(method));
      EXPECT_EQ(r.epsilon_spent, 0.9);
      EXPECT_NEAR(
          r.epsilon_degree_bound + r.epsilon_selection + r.epsilon_release, 0.9,
          1e-12);
      ASSERT_TRUE(r.theta.has_value());
      EXPECT_GE(*r.theta, 1u);
      EXPECT_LE(*r.theta, 100u);
      EXPECT_GE(r.bound95, 0);
      if (method == SelectionMethod::kBaseline) continue;
      EXPECT_NEAR(r.epsilon_release, 0.6 * 0.9, 1e-12);
      if (method == SelectionMethod::kOptimized) {
        EXPECT_NEAR(r.epsilon_degree_bound, 0.1 * 0.9, 1e-12);
        EXPECT_NEAR(r.epsilon_selection, 0.3 * 0.9, 1e-12);
        ASSERT_TRUE(r.noisy_degree_bound.has_value());
        EXPECT_LE(*r.theta, *r.noisy_degree_bound);
      } else {
        EXPECT_NEAR(r.epsilon_selection, 0.4 * 0.9, 1e-12);
        EXPECT_FALSE(r.noisy_degree_bound.has_value());
      }
      EXPECT_EQ(r.num_candidates, 7u);  // {1,2,5,10,20,50,100}
      EXPECT_EQ(r.first_step_theta.has_value(),
                method != SelectionMethod::kBasic);
    }
  }
}

TEST(ComputePrivateMeasureTest, OptimizedWithoutBoundsReportsNoBound) {
  SeededUrbg urbg(4);
  PrivateMeasureRequest req = Request(Measure::kMinimalInconsistency,
                                      SelectionMethod::kOptimized, 1.0, 10);
  ASSERT_OK_AND_ASSIGN(
      const PrivateMeasureResult r,
      ComputePrivateMeasure(urbg, testing::Figure1Graph(), req));
  EXPECT_EQ(r.method, "optimized");
  EXPECT_FALSE(r.noisy_degree_bound.has_value());
  EXPECT_EQ(r.epsilon_degree_bound, 0.0);
  EXPECT_DOUBLE_EQ(r.epsilon_selection, 0.4);
}

TEST(ComputePrivateMeasureTest, ReleasesExactValueWithHugeEpsilon) {
  // With eps = 1e6 every step is (nearly) exact: the theta chosen truncates
  // nothing on Figure 1, and the value is the true measure.
  for (SelectionMethod method :
       {SelectionMethod::kOptimized, SelectionMethod::kHierarchical,
        SelectionMethod::kBasic, SelectionMethod::kBaseline}) {
    SeededUrbg urbg(5);
    PrivateMeasureRequest req =
        Request(Measure::kMinimalInconsistency, method, 1e6, 4);
    req.degree_bounds = {{true, 3}};
    ASSERT_OK_AND_ASSIGN(
        const PrivateMeasureResult r,
        ComputePrivateMeasure(urbg, testing::Figure1Graph(), req));
    EXPECT_EQ(r.value, 3) << SelectionMethodName(method);
    EXPECT_EQ(r.bound95, 0);
  }
}

TEST(ComputePrivateMeasureTest, RepairUsesVertexCoverAndIgnoresMethod) {
  SeededUrbg urbg(6);
  // N and candidates are not used by Algorithm 5 (N = 0 is not an error).
  PrivateMeasureRequest req =
      Request(Measure::kRepair, SelectionMethod::kBasic, 1e6, 0);
  req.candidates = std::vector<uint64_t>{};
  ASSERT_OK_AND_ASSIGN(
      const PrivateMeasureResult r,
      ComputePrivateMeasure(urbg, testing::Figure2Graph(), req));
  EXPECT_EQ(r.method, "vertex_cover");
  EXPECT_EQ(r.value, 6);
  EXPECT_FALSE(r.theta.has_value());
  EXPECT_EQ(r.epsilon_spent, 1e6);
  EXPECT_EQ(r.epsilon_release, 1e6);
  EXPECT_EQ(r.num_candidates, 0u);
}

}  // namespace
}  // namespace dpq::core::private_measures
