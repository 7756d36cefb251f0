#include "core/private/private_measures.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/discrete_laplace.h"
#include "core/graph/edge_addition.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/clique_lp_bound.h"
#include "core/measures/measure.h"
#include "core/measures/vertex_cover.h"
#include "core/private/flow_extensions.h"
#include "core/private/theta_candidates.h"
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

constexpr SelectionMethod kAllSelectionMethods[] = {
    SelectionMethod::kGem, SelectionMethod::kOptimized,
    SelectionMethod::kHierarchical, SelectionMethod::kBasic,
    SelectionMethod::kBaseline};
constexpr RepairMethod kAllRepairMethods[] = {RepairMethod::kCoverBound,
                                              RepairMethod::kExact,
                                              RepairMethod::kVertexCover};

// The complete graph on n nodes: LP relaxation n / 2, minimum cover n - 1.
graph::Graph CompleteGraph(uint32_t n) {
  std::vector<graph::Edge> edges;
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t v = u + 1; v < n; ++v) edges.emplace_back(u, v);
  }
  return *graph::Graph::FromEdges(n, std::move(edges));
}

uint64_t MinimumCover(const graph::Graph& g) {
  absl::StatusOr<measures::VertexCoverResult> r =
      measures::MinimumVertexCover(g);
  EXPECT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r.ok() && r->exact.has_value());
  return r.ok() && r->exact.has_value() ? *r->exact : 0;
}

int64_t Bound95(double sensitivity, double epsilon) {
  return dp::DiscreteLaplace::ForSensitivity(sensitivity, epsilon)
      ->ConfidenceBound(0.95);
}

PrivateMeasureRequest Request(Measure m, SelectionMethod method, double epsilon,
                              uint64_t n) {
  PrivateMeasureRequest r;
  r.measure = m;
  r.method = method;
  r.epsilon = epsilon;
  r.public_max_rows = n;
  return r;
}

TEST(ParseSelectionMethodTest, ParsesTheSixNames) {
  EXPECT_THAT(ParseSelectionMethod("group_bound"),
              IsOkAndHolds(SelectionMethod::kGroupBound));
  EXPECT_THAT(ParseSelectionMethod("Group_Bound"),
              IsOkAndHolds(SelectionMethod::kGroupBound));
  EXPECT_THAT(ParseSelectionMethod("gem"), IsOkAndHolds(SelectionMethod::kGem));
  EXPECT_THAT(ParseSelectionMethod("GEM"), IsOkAndHolds(SelectionMethod::kGem));
  EXPECT_THAT(ParseSelectionMethod("optimized"),
              IsOkAndHolds(SelectionMethod::kOptimized));
  EXPECT_THAT(ParseSelectionMethod("Hierarchical"),
              IsOkAndHolds(SelectionMethod::kHierarchical));
  EXPECT_THAT(ParseSelectionMethod("BASIC"),
              IsOkAndHolds(SelectionMethod::kBasic));
  EXPECT_THAT(ParseSelectionMethod("baseline"),
              IsOkAndHolds(SelectionMethod::kBaseline));
  EXPECT_THAT(
      ParseSelectionMethod("em"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("'em'"), HasSubstr("I_MI or I_P"),
                     HasSubstr("group_bound (the default)"), HasSubstr("gem"),
                     HasSubstr("optimized"), HasSubstr("hierarchical"),
                     HasSubstr("basic"), HasSubstr("baseline"))));
  // The names of I_R's methods are not methods of I_MI / I_P.
  for (const char* repair : {"cover_bound", "exact", "vertex_cover"}) {
    EXPECT_THAT(ParseSelectionMethod(repair),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr(absl::StrCat("'", repair, "'"))));
  }
  for (SelectionMethod m : kAllSelectionMethods) {
    EXPECT_THAT(ParseSelectionMethod(SelectionMethodName(m)), IsOkAndHolds(m));
  }
  EXPECT_EQ(SelectionMethodName(SelectionMethod::kGem), "gem");
}

TEST(ParseRepairMethodTest, ParsesTheThreeNamesAndRoundTrips) {
  EXPECT_THAT(ParseRepairMethod("cover_bound"),
              IsOkAndHolds(RepairMethod::kCoverBound));
  EXPECT_THAT(ParseRepairMethod("Exact"), IsOkAndHolds(RepairMethod::kExact));
  EXPECT_THAT(ParseRepairMethod("VERTEX_COVER"),
              IsOkAndHolds(RepairMethod::kVertexCover));
  EXPECT_EQ(RepairMethodName(RepairMethod::kCoverBound), "cover_bound");
  EXPECT_EQ(RepairMethodName(RepairMethod::kExact), "exact");
  EXPECT_EQ(RepairMethodName(RepairMethod::kVertexCover),
            kVertexCoverMethodName);
  EXPECT_EQ(kVertexCoverMethodName, "vertex_cover");
  for (RepairMethod m : kAllRepairMethods) {
    EXPECT_THAT(ParseRepairMethod(RepairMethodName(m)), IsOkAndHolds(m));
  }
}

TEST(ParseRepairMethodTest, UnknownNameListsTheRepairMethods) {
  for (const char* bad : {"lp", "", "gem", "optimized", "cover bound"}) {
    EXPECT_THAT(
        ParseRepairMethod(bad),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 AllOf(HasSubstr(absl::StrCat("'", bad, "'")), HasSubstr("I_R"),
                       HasSubstr("cover_bound (the default)"),
                       HasSubstr("exact"), HasSubstr("vertex_cover"))))
        << bad;
  }
}

TEST(EstimateTest, EveryMethodHasItsPublicEstimate) {
  for (SelectionMethod m : kAllSelectionMethods) {
    EXPECT_EQ(EstimateOf(m), Estimate::kLowerBound) << SelectionMethodName(m);
  }
  EXPECT_EQ(EstimateOf(RepairMethod::kCoverBound), Estimate::kLowerBound);
  EXPECT_EQ(EstimateOf(RepairMethod::kExact), Estimate::kExact);
  EXPECT_EQ(EstimateOf(RepairMethod::kVertexCover), Estimate::kUpperBound);
  EXPECT_EQ(EstimateName(Estimate::kExact), "exact");
  EXPECT_EQ(EstimateName(Estimate::kLowerBound), "lower_bound");
  EXPECT_EQ(EstimateName(Estimate::kUpperBound), "upper_bound");
}

TEST(PrivateMeasureRequestTest, DefaultsAreGroupBoundAndCoverBound) {
  const PrivateMeasureRequest r;
  EXPECT_EQ(r.method, SelectionMethod::kGroupBound);
  EXPECT_EQ(r.repair_method, RepairMethod::kCoverBound);
  EXPECT_FALSE(r.exact_repair.has_value());
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

// I_R dispatches on repair_method; N, the candidates and the selection
// method are not used by any I_R method (N = 0 and an empty Theta are not
// errors), and the selection method changes nothing.
TEST(ComputePrivateMeasureTest, RepairDispatchesOnRepairMethodNotSelection) {
  const graph::Graph g = testing::Figure2Graph();
  const uint64_t exact = MinimumCover(g);
  ASSERT_EQ(exact, 4u);  // {B, C, E, F} (or any other of size 4)
  struct Case {
    RepairMethod method;
    int64_t value;  // at epsilon 1e6 (noise 0 but with prob. < 1e-400000)
    Estimate estimate;
  };
  const Case cases[] = {
      {RepairMethod::kVertexCover, 6, Estimate::kUpperBound},
      {RepairMethod::kCoverBound,
       static_cast<int64_t>(measures::CoverLowerBound(g)),
       Estimate::kLowerBound},
      {RepairMethod::kExact, static_cast<int64_t>(exact), Estimate::kExact},
  };
  for (const Case& c : cases) {
    for (SelectionMethod selection :
         {SelectionMethod::kBasic, SelectionMethod::kGem}) {
      SCOPED_TRACE(absl::StrCat(RepairMethodName(c.method), " with ",
                                SelectionMethodName(selection)));
      SeededUrbg urbg(6);
      PrivateMeasureRequest req = Request(Measure::kRepair, selection, 1e6, 0);
      req.candidates = std::vector<uint64_t>{};
      req.repair_method = c.method;
      req.exact_repair = exact;
      ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                           ComputePrivateMeasure(urbg, g, req));
      EXPECT_EQ(r.method, RepairMethodName(c.method));
      EXPECT_EQ(r.estimate, c.estimate);
      EXPECT_EQ(r.value, c.value);
      EXPECT_EQ(r.bound95, 0);
      EXPECT_FALSE(r.theta.has_value());
      EXPECT_EQ(r.epsilon_spent, 1e6);
      EXPECT_EQ(r.epsilon_release, 1e6);
      EXPECT_EQ(r.epsilon_selection, 0.0);
      EXPECT_EQ(r.num_candidates, 0u);
    }
  }
}

TEST(ComputePrivateMeasureTest, RepairDefaultsToCoverBound) {
  SeededUrbg urbg(7);
  PrivateMeasureRequest req;
  req.measure = Measure::kRepair;
  req.epsilon = 1e6;
  ASSERT_OK_AND_ASSIGN(
      const PrivateMeasureResult r,
      ComputePrivateMeasure(urbg, testing::Figure2Graph(), req));
  EXPECT_EQ(r.method, "cover_bound");
  EXPECT_EQ(r.estimate, Estimate::kLowerBound);
}

// The noise scale is Delta / epsilon with Delta = 1 for cover_bound and
// exact (sensitivity 1) and Delta = 2 for Algorithm 5.
TEST(ComputePrivateMeasureTest, RepairNoiseMatchesEachMethodsSensitivity) {
  for (RepairMethod method : kAllRepairMethods) {
    SeededUrbg urbg(8);
    PrivateMeasureRequest req =
        Request(Measure::kRepair, SelectionMethod::kGem, 0.5, 10);
    req.repair_method = method;
    req.exact_repair = 4;
    ASSERT_OK_AND_ASSIGN(
        const PrivateMeasureResult r,
        ComputePrivateMeasure(urbg, testing::Figure2Graph(), req));
    EXPECT_EQ(r.bound95,
              Bound95(method == RepairMethod::kVertexCover ? 2.0 : 1.0, 0.5))
        << RepairMethodName(method);
    EXPECT_GT(r.bound95, 0);
  }
}

// cover_bound releases ceil(LP): on K_n that is ceil(n / 2), strictly below
// I_R = n - 1 for n >= 4, so the released value is a lower bound.
// Without a table's FD blocks (a bare graph), cover_bound is the LP with
// every triangle: on K_n, y = 1/3 everywhere, so ceil(n - n / 3).
TEST(ComputePrivateMeasureTest, CoverBoundOnABareGraphIsTheTriangleLp) {
  for (uint32_t n : {2u, 3u, 4u, 5u, 8u}) {
    const graph::Graph g = CompleteGraph(n);
    SeededUrbg urbg(9);
    PrivateMeasureRequest req =
        Request(Measure::kRepair, SelectionMethod::kGem, 1e6, n);
    req.repair_method = RepairMethod::kCoverBound;
    ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                         ComputePrivateMeasure(urbg, g, req));
    const int64_t expected = n == 2 ? 1 : (2 * n + 2) / 3;
    EXPECT_EQ(r.value, expected) << "K_" << n;
    EXPECT_GE(r.value, static_cast<int64_t>(
                           (measures::VertexCoverLpDoubled(g) + 1) / 2));
    EXPECT_LE(r.value, static_cast<int64_t>(MinimumCover(g)));
    if (n == 8) {
      EXPECT_LT(r.value, static_cast<int64_t>(MinimumCover(g)));
    }
    EXPECT_EQ(r.estimate, Estimate::kLowerBound);
    EXPECT_EQ(r.method, "cover_bound");
  }
  // On random graphs: the triangle LP, between ceil(LP) and I_R.
  int checked = 0;
  for (const testing::NamedGraph& ng : testing::RandomTestGraphs()) {
    if (ng.graph.num_nodes() > 16) continue;  // keep the exact solver cheap
    SeededUrbg urbg(10);
    PrivateMeasureRequest req =
        Request(Measure::kRepair, SelectionMethod::kGem, 1e6, 100);
    ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                         ComputePrivateMeasure(urbg, ng.graph, req));
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound lp,
                         measures::CliqueLpCoverBound(ng.graph, {}));
    EXPECT_EQ(r.value, static_cast<int64_t>(lp.bound)) << ng.name;
    EXPECT_GE(r.value,
              static_cast<int64_t>(measures::CoverLowerBound(ng.graph)))
        << ng.name;
    EXPECT_LE(r.value, static_cast<int64_t>(MinimumCover(ng.graph))) << ng.name;
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

TEST(ComputePrivateMeasureTest, ExactReleasesTheOwnersCover) {
  const graph::Graph g = CompleteGraph(5);
  SeededUrbg urbg(11);
  PrivateMeasureRequest req =
      Request(Measure::kRepair, SelectionMethod::kGem, 1e6, 50);
  req.repair_method = RepairMethod::kExact;
  req.exact_repair = MinimumCover(g);
  ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                       ComputePrivateMeasure(urbg, g, req));
  EXPECT_EQ(r.value, 4);
  EXPECT_EQ(r.method, "exact");
  EXPECT_EQ(r.estimate, Estimate::kExact);
  // The value comes from the request, not from the graph: the registry
  // computes it once, at registration.
  req.exact_repair = 17;
  ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult stored,
                       ComputePrivateMeasure(urbg, g, req));
  EXPECT_EQ(stored.value, 17);
}

TEST(ComputePrivateMeasureTest, ExactWithoutExactRepairIsInvalidArgument) {
  SeededUrbg urbg(12);
  PrivateMeasureRequest req =
      Request(Measure::kRepair, SelectionMethod::kGem, 1.0, 10);
  req.repair_method = RepairMethod::kExact;
  EXPECT_THAT(ComputePrivateMeasure(urbg, testing::Figure2Graph(), req),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("'exact'"), HasSubstr("exact_repair"),
                             HasSubstr("cover_bound"))));
  // The other methods do not need it.
  for (RepairMethod method :
       {RepairMethod::kCoverBound, RepairMethod::kVertexCover}) {
    req.repair_method = method;
    EXPECT_OK(ComputePrivateMeasure(urbg, testing::Figure2Graph(), req));
  }
}

// gem: theta is one of the candidates, and at epsilon 1e6 the value is the
// flow extension f_theta(G) at the reported theta (noise of scale
// Delta_theta / (0.7e6) is 0 but with negligible probability; within 1 to
// be safe).
TEST(ComputePrivateMeasureTest, GemReleasesTheFlowExtensionAtACandidate) {
  std::vector<testing::NamedGraph> graphs = {
      {"figure1", testing::Figure1Graph()},
      {"figure2", testing::Figure2Graph()},
      {"star20", testing::StarGraph(20, 3)},
      {"K8", CompleteGraph(8)}};
  const std::vector<testing::NamedGraph> random = testing::RandomTestGraphs();
  for (size_t i = 0; i < random.size(); i += 10) graphs.push_back(random[i]);
  const std::vector<uint32_t> candidates = DefaultThetaCandidates(100);
  for (const testing::NamedGraph& ng : graphs) {
    for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
      SCOPED_TRACE(absl::StrCat(ng.name, " ", measures::MeasureName(m)));
      SeededUrbg urbg(13);
      ASSERT_OK_AND_ASSIGN(
          const PrivateMeasureResult r,
          ComputePrivateMeasure(urbg, ng.graph,
                                Request(m, SelectionMethod::kGem, 1e6, 100)));
      EXPECT_EQ(r.method, "gem");
      EXPECT_EQ(r.estimate, Estimate::kLowerBound);
      EXPECT_EQ(r.num_candidates, candidates.size());
      ASSERT_TRUE(r.theta.has_value());
      EXPECT_THAT(candidates, ::testing::Contains(*r.theta));
      ASSERT_OK_AND_ASSIGN(const std::vector<int64_t> f,
                           FlowExtensionValues(ng.graph, m, {*r.theta}));
      EXPECT_NEAR(r.value, f[0], 1);
      // A lower bound of the measure.
      const int64_t exact =
          m == Measure::kMinimalInconsistency
              ? static_cast<int64_t>(ng.graph.num_edges())
              : static_cast<int64_t>(ng.graph.num_non_isolated());
      EXPECT_LE(f[0], exact);
      EXPECT_EQ(r.epsilon_spent, 1e6);
      EXPECT_LE(r.epsilon_selection + r.epsilon_release, 1e6);
      EXPECT_NEAR(r.epsilon_selection + r.epsilon_release, 1e6, 1e-3);
      EXPECT_GT(r.epsilon_selection, 0.0);
      EXPECT_EQ(r.epsilon_degree_bound, 0.0);
      EXPECT_FALSE(r.noisy_degree_bound.has_value());
    }
  }
}

TEST(ComputePrivateMeasureTest, GemUsesTheCallersCandidatesAndIsTheDefault) {
  const graph::Graph g = testing::StarGraph(20, 0);
  for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
    SeededUrbg urbg(14);
    PrivateMeasureRequest req;  // method left at its default
    req.measure = m;
    req.epsilon = 1.0;
    req.public_max_rows = 50;
    req.candidates = std::vector<uint64_t>{7, 3, 7};
    ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                         ComputePrivateMeasure(urbg, g, req));
    EXPECT_EQ(r.method, "gem");
    EXPECT_EQ(r.num_candidates, 2u);  // deduplicated
    ASSERT_TRUE(r.theta.has_value());
    EXPECT_THAT(*r.theta, ::testing::AnyOf(3u, 7u));
    // The release noise has the sensitivity of the chosen theta.
    ASSERT_OK_AND_ASSIGN(const int64_t delta,
                         FlowExtensionSensitivity(m, *r.theta));
    EXPECT_EQ(r.bound95,
              Bound95(static_cast<double>(delta), r.epsilon_release));
  }
  // Bad candidates are refused as for the paper's methods.
  SeededUrbg urbg(15);
  PrivateMeasureRequest req =
      Request(Measure::kProblematic, SelectionMethod::kGem, 1.0, 30);
  req.candidates = std::vector<uint64_t>{31};
  EXPECT_THAT(ComputePrivateMeasure(urbg, g, req),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is 31")));
}

}  // namespace
}  // namespace dpq::core::private_measures
