#include "core/selection/multi_objective_selection.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <vector>

#include "absl/status/status.h"
#include "core/selection/egodensity_sensitivity.h"
#include "core/selection/rate_sensitivity.h"
#include "core/selection/score_table.h"
#include "core/selection/sensitivity_function.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Example 4.4 of the paper: a and b are the Pareto front.
ScoreTable Example44() {
  ScoreTable t;
  t.num_candidates = 5;
  t.num_objectives = 2;
  t.scores = {3, 5, 4, 2, 1, /*u2*/ 5, 3, 2, 4, 1};
  return t;
}

struct Fixture {
  ConstantSensitivity one{1.0};
  std::vector<const SensitivityFunction*> sens{&one, &one};
};

SelectionOptions Options(Approach approach, SensitivityMode mode, double eps,
                         size_t k) {
  SelectionOptions o;
  o.approach = approach;
  o.sensitivity = mode;
  o.epsilon = eps;
  o.k = k;
  o.weights = {1, 1};
  return o;
}

TEST(MultiObjectiveSelectionTest, HugeEpsilonSelectsTheBestInEveryVariant) {
  Fixture f;
  SeededUrbg urbg(1);
  // Pareto: a and b have PS 0, then c and d (-1), then e (-4).
  // Aggregation with weights (1, 1): a = 8, b = 8, c = 6, d = 6, e = 2.
  for (Approach approach : {Approach::kPareto, Approach::kAggregation}) {
    for (SensitivityMode mode :
         {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
      for (GlobalMechanism mech :
           {GlobalMechanism::kExponential, GlobalMechanism::kPermuteAndFlip}) {
        SelectionOptions o = Options(approach, mode, 1e5, 4);
        o.global_mechanism = mech;
        auto chosen = SelectMultiObjective(Example44(), f.sens, o, urbg);
        ASSERT_TRUE(chosen.ok()) << chosen.status();
        ASSERT_EQ(chosen->size(), 4u);
        EXPECT_EQ(std::set<size_t>(chosen->begin(), chosen->begin() + 2),
                  (std::set<size_t>{0, 1}));
        EXPECT_EQ(std::set<size_t>(chosen->begin() + 2, chosen->end()),
                  (std::set<size_t>{2, 3}));
      }
    }
  }
}

TEST(MultiObjectiveSelectionTest, ReturnsDistinctCandidatesForKEqualN) {
  Fixture f;
  SeededUrbg urbg(2);
  auto chosen = SelectMultiObjective(
      Example44(), f.sens,
      Options(Approach::kPareto, SensitivityMode::kLocal, 0.1, 5), urbg);
  ASSERT_TRUE(chosen.ok()) << chosen.status();
  EXPECT_EQ(std::set<size_t>(chosen->begin(), chosen->end()).size(), 5u);
}

TEST(MultiObjectiveSelectionTest, SingleCandidateIsReturned) {
  ScoreTable t;
  t.num_candidates = 1;
  t.num_objectives = 2;
  t.scores = {0.5, 0.25};
  Fixture f;
  SeededUrbg urbg(3);
  EXPECT_THAT(
      SelectMultiObjective(
          t, f.sens, Options(Approach::kPareto, SensitivityMode::kLocal, 1, 1),
          urbg),
      IsOkAndHolds(ElementsAre(0u)));
}

TEST(MultiObjectiveSelectionTest, RejectsBadInput) {
  Fixture f;
  SeededUrbg urbg(4);
  const auto bad = [&](const ScoreTable& t,
                       std::vector<const SensitivityFunction*> sens,
                       const SelectionOptions& o, const char* text) {
    EXPECT_THAT(SelectMultiObjective(t, sens, o, urbg),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(text)))
        << text;
  };
  const SelectionOptions ok =
      Options(Approach::kAggregation, SensitivityMode::kLocal, 1, 1);
  SelectionOptions o = ok;
  o.epsilon = -1;
  bad(Example44(), f.sens, o, "Epsilon");
  o.epsilon = std::numeric_limits<double>::infinity();
  bad(Example44(), f.sens, o, "Epsilon");
  o = ok;
  o.k = 0;
  bad(Example44(), f.sens, o, "k must be");
  o.k = 6;
  bad(Example44(), f.sens, o, "k must be");
  o = ok;
  o.weights = {1};
  bad(Example44(), f.sens, o, "one weight per objective");
  o.weights = {0, 0};
  bad(Example44(), f.sens, o, "not all be zero");
  o.weights = {1, std::nan("")};
  bad(Example44(), f.sens, o, "Weight 1");
  o = ok;
  o.max_dampening_steps = 0;
  bad(Example44(), f.sens, o, "max_dampening_steps");
  bad(Example44(), {&f.one}, ok, "sensitivity function");
  bad(Example44(), {&f.one, nullptr}, ok, "missing");
  ConstantSensitivity negative(-1);
  bad(Example44(), {&f.one, &negative}, ok, "global sensitivity");
  ConstantSensitivity zero(0);
  // Weight only on a data-independent objective: nothing to calibrate.
  o = ok;
  o.weights = {1, 0};
  bad(Example44(), {&zero, &f.one}, o, "sensitivity");
  ScoreTable t = Example44();
  t.scores[3] = std::nan("");
  bad(t, f.sens, ok, "finite");
  t = Example44();
  t.scores.pop_back();
  bad(t, f.sens, ok, "score table");
  t = ScoreTable{};
  t.num_objectives = 2;
  bad(t, f.sens, ok, "candidate");
  // Scores whose weighted sum overflows.
  t = Example44();
  t.scores[0] = 1e308;
  t.scores[5] = 1e308;
  bad(t, f.sens, ok, "overflows");
}

// PrivAgg is scale-invariant, so the weights are normalised to max |w| = 1:
// weights {2, -1} and {2e300, -1e300} give the same scores and sensitivity
// (no overflow, no error that depends on how large a score is).
TEST(MultiObjectiveSelectionTest, AggregationWeightsAreScaleInvariant) {
  Fixture f;
  for (const SensitivityMode mode :
       {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
    SelectionOptions small = Options(Approach::kAggregation, mode, 1, 1);
    small.weights = {2, -1};
    SelectionOptions huge = small;
    huge.weights = {2e300, -1e300};
    auto a = ComputeSelectionScores(Example44(), f.sens, small);
    auto b = ComputeSelectionScores(Example44(), f.sens, huge);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->scores, b->scores);
    EXPECT_EQ(a->sensitivity, b->sensitivity);
  }
}

TEST(MultiObjectiveSelectionTest, RejectsBadLocalSensitivityValues) {
  // A sensitivity function that claims a negative local bound.
  class Broken final : public SensitivityFunction {
   public:
    double At(size_t, uint64_t) const override { return -0.5; }
    double Global() const override { return 1; }
  };
  Broken broken;
  ConstantSensitivity one(1);
  SeededUrbg urbg(5);
  for (Approach approach : {Approach::kPareto, Approach::kAggregation}) {
    EXPECT_THAT(SelectMultiObjective(
                    Example44(), {&one, &broken},
                    Options(approach, SensitivityMode::kLocal, 1, 1), urbg),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("non-negative")));
  }
}

TEST(MultiObjectiveSelectionTest, ComputeSelectionScoresExposesTheScores) {
  Fixture f;
  auto pareto = ComputeSelectionScores(
      Example44(), f.sens,
      Options(Approach::kPareto, SensitivityMode::kGlobal, 1, 1));
  ASSERT_TRUE(pareto.ok());
  EXPECT_THAT(pareto->scores, ElementsAre(0, 0, -1, -1, -4));
  EXPECT_EQ(pareto->sensitivity, 4);
  SelectionOptions o =
      Options(Approach::kAggregation, SensitivityMode::kGlobal, 1, 1);
  o.weights = {2, -1};
  auto agg = ComputeSelectionScores(Example44(), f.sens, o);
  ASSERT_TRUE(agg.ok());
  // The weights are normalised to {1, -0.5} (max |w| = 1): the scores and
  // their sensitivity |1| * 1 + |-0.5| * 1 halve, their ratio is unchanged.
  EXPECT_THAT(agg->scores, ElementsAre(0.5, 3.5, 3, 0, 0.5));
  EXPECT_EQ(agg->sensitivity, 1.5);
  o.sensitivity = SensitivityMode::kLocal;
  auto local = ComputeSelectionScores(Example44(), f.sens, o);
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->sensitivity, 1);
  // Constant delta 3 (capped at Delta = 3): D = u_agg / 3.
  EXPECT_DOUBLE_EQ(local->scores[1], 7.0 / 3);
  o.k = 9;
  EXPECT_THAT(ComputeSelectionScores(Example44(), f.sens, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
}

TEST(MultiObjectiveSelectionTest, ParsesNamesCaseInsensitively) {
  EXPECT_THAT(ParseApproach("Pareto"), IsOkAndHolds(Approach::kPareto));
  EXPECT_THAT(ParseApproach("AGGREGATION"),
              IsOkAndHolds(Approach::kAggregation));
  EXPECT_THAT(ParseApproach("sum"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("\"pareto\" or \"aggregation\"")));
  EXPECT_THAT(ParseSensitivityMode("Local"),
              IsOkAndHolds(SensitivityMode::kLocal));
  EXPECT_THAT(ParseSensitivityMode("global"),
              IsOkAndHolds(SensitivityMode::kGlobal));
  EXPECT_THAT(ParseSensitivityMode("smooth"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("\"global\" or \"local\"")));
  EXPECT_EQ(ApproachName(Approach::kAggregation), "aggregation");
  EXPECT_EQ(SensitivityModeName(SensitivityMode::kLocal), "local");
}

TEST(MultiObjectiveSelectionTest, WorksWithTheApplicationSensitivities) {
  // TPR/TNR-like objectives of 4 trees, P = 40 positives, N = 60 negatives.
  ScoreTable t;
  t.num_candidates = 4;
  t.num_objectives = 2;
  t.scores = {0.9, 0.5, 0.2, 0.85, /*TNR*/ 0.3, 0.5, 0.95, 0.25};
  RateSensitivity tpr(40), tnr(60);
  SeededUrbg urbg(6);
  SelectionOptions o =
      Options(Approach::kPareto, SensitivityMode::kLocal, 1e4, 1);
  EXPECT_THAT(SelectMultiObjective(t, {&tpr, &tnr}, o, urbg),
              IsOkAndHolds(ElementsAre(::testing::AnyOf(0u, 1u, 2u))));
  // Degree and egocentric density of a star with 3 leaves plus one edge.
  EgocentricDensitySensitivity ed({3, 2, 2, 1});
  ConstantSensitivity degree(1);
  ScoreTable g;
  g.num_candidates = 4;
  g.num_objectives = 2;
  g.scores = {3, 2, 2, 1, /*density*/ 1.0 / 3, 1, 1, 0};
  o.approach = Approach::kAggregation;
  o.weights = {1, 100};
  EXPECT_THAT(SelectMultiObjective(g, {&degree, &ed}, o, urbg),
              IsOkAndHolds(ElementsAre(::testing::AnyOf(1u, 2u))));
}

}  // namespace
}  // namespace dpq::core::selection
