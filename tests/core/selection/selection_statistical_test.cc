// Randomised checks of the selection mechanisms (docs/selection.md, "Tests"),
// seeded. Each test states its false-failure probability; the thresholds come
// from the chi-square survival function (computed offline: P(chi2_4 > 40) =
// 4.3e-8, P(chi2_19 > 65) = 6.1e-7) or from a normal bound on log frequencies
// (see EmpiricalPrivacyAudit).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <vector>

#include "core/dp/exponential_mechanism.h"
#include "core/selection/egodensity_sensitivity.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/permute_and_flip.h"
#include "core/selection/priv_agg.h"
#include "core/selection/priv_pareto.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"
#include "core/selection/top_k_selection.h"
#include "gtest/gtest.h"
#include "tests/core/selection/small_graphs.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::SmallGraphs;

double ChiSquare(const std::vector<int64_t>& counts,
                 const std::vector<double>& probabilities, int64_t draws) {
  double chi2 = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const double expected = probabilities[i] * static_cast<double>(draws);
    chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
  }
  return chi2;
}

std::vector<double> PermuteAndFlipExact(const std::vector<double>& q,
                                        double eps, double delta) {
  const size_t n = q.size();
  const double best = *std::max_element(q.begin(), q.end());
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::vector<double> out(n, 0);
  double perms = 0;
  do {
    double reach = 1;
    for (size_t r : order) {
      const double accept = std::exp(eps * (q[r] - best) / (2 * delta));
      out[r] += reach * accept;
      reach *= 1 - accept;
    }
    ++perms;
  } while (std::next_permutation(order.begin(), order.end()));
  for (double& p : out) p /= perms;
  return out;
}

// Exponential mechanism, permute-and-flip and local dampening (EM on the
// dampened scores) against their exact probabilities: 5 outcomes, 5 x 10^4
// draws each, chi-square with 4 degrees of freedom < 40. False-failure
// probability 3 x 4.3e-8.
TEST(SelectionStatisticalTest, SamplersMatchExactProbabilities) {
  const int64_t draws = 50000;
  SelectionScores s;
  s.scores = {0, 1, 2, 3, 4};
  s.sensitivity = 1;
  SeededUrbg urbg(101);
  // EM and PF.
  for (GlobalMechanism m :
       {GlobalMechanism::kExponential, GlobalMechanism::kPermuteAndFlip}) {
    std::vector<int64_t> counts(5, 0);
    for (int64_t i = 0; i < draws; ++i) {
      ++counts[(*SelectWithoutReplacement(s, 1, 1.0, m, urbg))[0]];
    }
    const std::vector<double> exact =
        m == GlobalMechanism::kExponential
            ? *dp::ExponentialMechanismProbabilities(s.scores, 1.0, 1.0)
            : PermuteAndFlipExact(s.scores, 1.0, 1.0);
    EXPECT_LT(ChiSquare(counts, exact, draws), 40.0);
  }
  // Local dampening of PrivAgg on a small graph-like table.
  ScoreTable t;
  t.num_candidates = 5;
  t.num_objectives = 2;
  t.scores = {4, 3, 2, 2, 1, /*density*/ 0.5, 2.0 / 3, 1, 0, 0};
  ConstantSensitivity degree(1);
  EgocentricDensitySensitivity density({4, 3, 2, 2, 1});
  const std::vector<const SensitivityFunction*> sens = {&degree, &density};
  SelectionOptions o;
  o.approach = Approach::kAggregation;
  o.sensitivity = SensitivityMode::kLocal;
  o.weights = {1, 2};
  o.epsilon = 1;
  const SelectionScores d = *PrivAggLocalScores(t, sens, o.weights, 1000);
  const std::vector<double> exact =
      *dp::ExponentialMechanismProbabilities(d.scores, 1.0, 1.0);
  std::vector<int64_t> counts(5, 0);
  for (int64_t i = 0; i < draws; ++i) {
    ++counts[(*SelectMultiObjective(t, sens, o, urbg))[0]];
  }
  EXPECT_LT(ChiSquare(counts, exact, draws), 40.0);
}

// Ordered pairs of two draws without replacement against the sequential
// exponential-mechanism formula P(a) P(b | not a) at epsilon / 2 each:
// 20 outcomes, chi-square with 19 degrees of freedom < 65. False-failure
// probability 6.1e-7.
TEST(SelectionStatisticalTest, TopTwoMatchesSequentialFormula) {
  const int64_t draws = 50000;
  SelectionScores s;
  s.scores = {0, 1, 2, 3, 4};
  s.sensitivity = 1;
  const double eps = 2;
  const std::vector<double> first =
      *dp::ExponentialMechanismProbabilities(s.scores, eps / 2, 1);
  std::vector<double> exact;
  for (size_t a = 0; a < 5; ++a) {
    std::vector<double> rest;
    for (size_t b = 0; b < 5; ++b) {
      if (b != a) rest.push_back(s.scores[b]);
    }
    const std::vector<double> second =
        *dp::ExponentialMechanismProbabilities(rest, eps / 2, 1);
    for (double p : second) exact.push_back(first[a] * p);
  }
  SeededUrbg urbg(202);
  std::vector<int64_t> counts(20, 0);
  for (int64_t i = 0; i < draws; ++i) {
    const std::vector<size_t> c = *SelectWithoutReplacement(
        s, 2, eps, GlobalMechanism::kExponential, urbg);
    ASSERT_NE(c[0], c[1]);
    ++counts[c[0] * 4 + (c[1] < c[0] ? c[1] : c[1] - 1)];
  }
  EXPECT_LT(ChiSquare(counts, exact, draws), 65.0);
}

// Empirical privacy-loss audit of SelectMultiObjective (PrivPareto and
// PrivAgg, global and local, k = 1, epsilon = 1) on the neighbouring pair
// of 5-vertex graphs with the largest exact log-ratio for that variant.
// 25000 seeded runs per graph; outcomes with estimated probability >= 0.05
// on both sides. For p >= 0.04 the standard deviation of log(p_hat) is
// <= sqrt(0.96 / (25000 * 0.04)) = 0.031, of a log-ratio <= 0.044; the
// slack 0.25 is > 5.7 of those: per comparison a false-failure probability
// < 1.2e-8, over the 4 variants x 5 outcomes x 2 checks < 5e-7.
TEST(SelectionStatisticalTest, EmpiricalPrivacyAudit) {
  const double eps = 1, slack = 0.25;
  const int runs = 25000;
  const SmallGraphs graphs(5);
  const std::vector<double> w = {1, 100};
  struct Variant {
    const char* name;
    Approach approach;
    SensitivityMode mode;
  };
  const Variant variants[] = {
      {"PrivPareto global", Approach::kPareto, SensitivityMode::kGlobal},
      {"PrivPareto local", Approach::kPareto, SensitivityMode::kLocal},
      {"PrivAgg global", Approach::kAggregation, SensitivityMode::kGlobal},
      {"PrivAgg local", Approach::kAggregation, SensitivityMode::kLocal}};
  SeededUrbg urbg(303);
  for (const Variant& v : variants) {
    // Exact distributions, as in privacy_audit_test.cc.
    const auto exact = [&](uint32_t g) {
      const ScoreTable t = graphs.DegreeAndDensity(g);
      const ConstantSensitivity degree(1);
      const EgocentricDensitySensitivity density(graphs.Degrees(g));
      const std::vector<const SensitivityFunction*> sens = {&degree, &density};
      SelectionScores s;
      if (v.approach == Approach::kPareto) {
        s = v.mode == SensitivityMode::kGlobal
                ? PrivParetoGlobalScores(t)
                : *PrivParetoLocalScores(t, sens, kDefaultMaxDampeningSteps);
      } else {
        s = v.mode == SensitivityMode::kGlobal
                ? *PrivAggGlobalScores(t, sens, w)
                : *PrivAggLocalScores(t, sens, w, kDefaultMaxDampeningSteps);
      }
      return *dp::ExponentialMechanismProbabilities(s.scores, eps,
                                                    s.sensitivity);
    };
    std::vector<std::vector<double>> dist;
    for (uint32_t g = 0; g < graphs.num_graphs(); ++g) dist.push_back(exact(g));
    uint32_t worst_g = 0, worst_h = 0;
    double worst = -1;
    for (uint32_t g = 0; g < graphs.num_graphs(); ++g) {
      for (int e = 0; e < graphs.pairs(); ++e) {
        const uint32_t h = g ^ (1u << e);
        for (size_t r = 0; r < 5; ++r) {
          const double lr = std::log(dist[g][r] / dist[h][r]);
          if (lr > worst && dist[g][r] >= 0.08 && dist[h][r] >= 0.08) {
            worst = lr;
            worst_g = g;
            worst_h = h;
          }
        }
      }
    }
    // Sample the mechanism end to end on both graphs.
    const auto sample = [&](uint32_t g) {
      const ScoreTable t = graphs.DegreeAndDensity(g);
      const ConstantSensitivity degree(1);
      const EgocentricDensitySensitivity density(graphs.Degrees(g));
      const std::vector<const SensitivityFunction*> sens = {&degree, &density};
      SelectionOptions o;
      o.approach = v.approach;
      o.sensitivity = v.mode;
      o.weights = w;
      o.epsilon = eps;
      std::vector<double> freq(5, 0);
      for (int i = 0; i < runs; ++i) {
        freq[(*SelectMultiObjective(t, sens, o, urbg))[0]] += 1.0 / runs;
      }
      return freq;
    };
    const std::vector<double> px = sample(worst_g), py = sample(worst_h);
    double estimated = 0;
    for (size_t r = 0; r < 5; ++r) {
      if (px[r] < 0.05 || py[r] < 0.05) continue;
      const double lr = std::log(px[r] / py[r]);
      estimated = std::max(estimated, std::fabs(lr));
      EXPECT_LE(std::fabs(lr), eps + slack) << v.name << " outcome " << r;
      EXPECT_NEAR(lr, std::log(dist[worst_g][r] / dist[worst_h][r]), slack)
          << v.name << " outcome " << r;
    }
    std::cout << v.name << ": exact worst log-ratio (p >= 0.08) " << worst
              << ", estimated " << estimated << "\n";
  }
}

}  // namespace
}  // namespace dpq::core::selection
