// Statistical tests of core/private (label `statistical`; fixed seeds, so
// each run is deterministic, and the thresholds are set so that a CORRECT
// implementation fails with the stated probability over the choice of seed).
//
//  - Means: |sample mean - expected| <= 5 standard errors (normal
//    approximation, K = 20000 samples): false failure 5.7e-7 per check.
//  - Coverage of bound95: the true coverage is >= 0.95 (exact closed form);
//    we require >= 0.95 - 5 * sqrt(0.95 * 0.05 / K) = 0.9423: false failure
//    below 3e-7 per check.
//  - EM frequencies: Pearson chi-square against the exact probabilities,
//    every expected count >= 5 (asserted), critical value at p = 1e-6 for
//    the degrees of freedom (computed from the regularized gamma function).
//  - Variance: relative error of the sample variance <= 10%, about six
//    standard errors for a Laplace-like kurtosis of 6 (rel. s.e.
//    sqrt(5 / K) = 1.6%).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/dp/discrete_laplace.h"
#include "core/dp/exponential_mechanism.h"
#include "core/graph/edge_addition.h"
#include "core/graph/graph.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"
#include "core/private/private_vertex_cover.h"
#include "core/private/projection_quality.h"
#include "core/private/release_interval.h"
#include "core/private/threshold_selection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;
using measures::Measure;

constexpr int kSamples = 20000;

// Chi-square critical values at p = 1e-6 for df = 1..10.
constexpr double kChiSquareCritical[] = {23.928, 27.631, 30.665, 33.377,
                                         35.888, 38.258, 40.522, 42.701,
                                         44.811, 46.863};

graph::Graph TestGraph() {
  // G(25, 0.3), fixed: max degree around 12, real truncation below it.
  std::vector<graph::Edge> edges;
  SeededUrbg rng(99);
  for (uint32_t u = 0; u < 25; ++u) {
    for (uint32_t v = u + 1; v < 25; ++v) {
      if (rng.UniformDouble() < 0.3) edges.emplace_back(u, v);
    }
  }
  return *graph::Graph::FromEdges(25, std::move(edges));
}

double DiscreteLaplaceVariance(double scale) {
  const double p = std::exp(-1.0 / scale);
  return 2 * p / ((1 - p) * (1 - p));
}

// E[clamp(count + Z, 0, max)] for Z ~ DiscreteLaplace(scale), summed over
// the pmf (1 - p) / (1 + p) p^|k| far into the tails.
double ClampedMean(int64_t count, int64_t max, double scale) {
  const double p = std::exp(-1.0 / scale);
  const int64_t reach = static_cast<int64_t>(60 * scale) + 10;
  double mean = 0;
  for (int64_t k = -reach; k <= reach; ++k) {
    const double pmf =
        (1 - p) / (1 + p) * std::pow(p, static_cast<double>(std::llabs(k)));
    mean += pmf * static_cast<double>(std::clamp<int64_t>(count + k, 0, max));
  }
  return mean;
}

int64_t Statistic(Measure m, const graph::Graph& g, uint32_t theta) {
  return *ProjectedStatistic(m, graph::EdgeAdditionCounts(g, theta));
}

class ReleaseTest : public ::testing::TestWithParam<Measure> {};

// The released value is the public-range clamp of an unbiased draw: its
// mean is that of clamp(statistic + Z, 0, PublicMaximum).
TEST_P(ReleaseTest, ValueIsTheClampOfAnUnbiasedDrawAndBoundCovers) {
  const Measure m = GetParam();
  const graph::Graph g = TestGraph();
  const uint32_t theta = 3;
  PrivateMeasureRequest req;
  req.measure = m;
  req.method = SelectionMethod::kHierarchical;
  req.epsilon = 1.0;
  req.public_max_rows = 30;
  req.candidates = std::vector<uint64_t>{theta};  // theta* = 3 for sure
  const int64_t expected = Statistic(m, g, theta);
  ASSERT_OK_AND_ASSIGN(const dp::DiscreteLaplace noise,
                       dp::DiscreteLaplace::ForSensitivity(
                           *ProjectedStatisticSensitivity(m, theta), 0.6));
  SeededUrbg urbg(1234);
  double sum = 0;
  int covered = 0;
  int64_t bound = -1;
  for (int i = 0; i < kSamples; ++i) {
    ASSERT_OK_AND_ASSIGN(const PrivateMeasureResult r,
                         ComputePrivateMeasure(urbg, g, req));
    ASSERT_EQ(r.theta, theta);
    sum += static_cast<double>(r.value);
    covered += std::llabs(r.value - expected) <= r.bound95;
    bound = r.bound95;
  }
  EXPECT_EQ(bound, noise.ConfidenceBound(0.95));
  const double se =
      std::sqrt(DiscreteLaplaceVariance(noise.scale()) / kSamples);
  EXPECT_NEAR(sum / kSamples,
              ClampedMean(expected, PublicMaximum(m, req.public_max_rows),
                          noise.scale()),
              5 * se);
  EXPECT_GE(static_cast<double>(covered) / kSamples,
            0.95 - 5 * std::sqrt(0.95 * 0.05 / kSamples));
}

INSTANTIATE_TEST_SUITE_P(Measures, ReleaseTest,
                         ::testing::Values(Measure::kMinimalInconsistency,
                                           Measure::kProblematic));

// Exact selection probabilities of one EM step over `thetas` with
// reference theta_max (what threshold_selection.cc should implement).
std::vector<double> StepProbabilities(Measure m, const graph::Graph& g,
                                      const std::vector<uint32_t>& thetas,
                                      uint32_t theta_max, double eps,
                                      double eps2) {
  std::vector<int64_t> f;
  for (uint32_t t : thetas) f.push_back(Statistic(m, g, t));
  const std::vector<double> q =
      *ProjectionQualities(m, thetas, f, theta_max, eps2);
  return *dp::ExponentialMechanismProbabilities(
      q, eps, *QualitySensitivity(m, theta_max));
}

void ExpectChiSquareFits(const std::vector<uint32_t>& thetas,
                         const std::vector<double>& probabilities,
                         const std::vector<int>& counts) {
  double chi2 = 0;
  int df = -1;
  for (size_t i = 0; i < thetas.size(); ++i) {
    const double expected = probabilities[i] * kSamples;
    if (expected == 0) {
      EXPECT_EQ(counts[i], 0);
      continue;
    }
    ASSERT_GE(expected, 5.0)
        << "theta " << thetas[i] << ": test setup has a tiny cell";
    chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
    ++df;
  }
  ASSERT_GE(df, 2) << "the setup should spread the probability";
  EXPECT_LE(chi2, kChiSquareCritical[df - 1]) << "df = " << df;
}

class SelectionTest : public ::testing::TestWithParam<Measure> {};

TEST_P(SelectionTest, BasicFrequenciesMatchProbabilities) {
  const Measure m = GetParam();
  const graph::Graph g = TestGraph();
  const std::vector<uint32_t> thetas = {2, 4, 6, 8, 12};
  const double eps1 = 1.5, eps2 = 0.5;
  const std::vector<double> p =
      StepProbabilities(m, g, thetas, thetas.back(), eps1, eps2);
  std::vector<int> counts(thetas.size(), 0);
  SeededUrbg urbg(77);
  for (int i = 0; i < kSamples; ++i) {
    ASSERT_OK_AND_ASSIGN(const ThresholdSelection s,
                         SelectThresholdBasic(urbg, g, m, thetas, eps1, eps2));
    const size_t k = static_cast<size_t>(
        std::find(thetas.begin(), thetas.end(), s.theta) - thetas.begin());
    ASSERT_LT(k, thetas.size());
    ++counts[k];
  }
  ExpectChiSquareFits(thetas, p, counts);
}

TEST_P(SelectionTest, HierarchicalFrequenciesMatchTwoStepProbabilities) {
  const Measure m = GetParam();
  const graph::Graph g = TestGraph();
  const std::vector<uint32_t> thetas = {2, 4, 6, 8, 12};
  const double eps1 = 3.0, eps2 = 0.5;
  // P(theta*) = sum over theta1 of P1(theta1) * P2(theta* | theta1), where
  // step 2 runs over {theta <= theta1} with theta_max = theta1.
  const std::vector<double> p1 =
      StepProbabilities(m, g, thetas, thetas.back(), eps1 / 2, eps2);
  std::vector<double> p(thetas.size(), 0.0);
  for (size_t j = 0; j < thetas.size(); ++j) {
    const std::vector<uint32_t> prefix(thetas.begin(), thetas.begin() + j + 1);
    const std::vector<double> p2 =
        StepProbabilities(m, g, prefix, thetas[j], eps1 / 2, eps2);
    for (size_t i = 0; i <= j; ++i) p[i] += p1[j] * p2[i];
  }
  std::vector<int> counts(thetas.size(), 0);
  SeededUrbg urbg(78);
  for (int i = 0; i < kSamples; ++i) {
    ASSERT_OK_AND_ASSIGN(
        const ThresholdSelection s,
        SelectThresholdHierarchical(urbg, g, m, thetas, eps1, eps2));
    const size_t k = static_cast<size_t>(
        std::find(thetas.begin(), thetas.end(), s.theta) - thetas.begin());
    ASSERT_LT(k, thetas.size());
    ++counts[k];
  }
  ExpectChiSquareFits(thetas, p, counts);
}

INSTANTIATE_TEST_SUITE_P(Measures, SelectionTest,
                         ::testing::Values(Measure::kMinimalInconsistency,
                                           Measure::kProblematic));

TEST(PrivateVertexCoverStatisticalTest, NoiseHasScaleTwoOverEpsilon) {
  const graph::Graph g = TestGraph();
  const int64_t cover = graph::StableGreedyVertexCoverSize(g);
  const double eps = 1.0;
  const double variance = DiscreteLaplaceVariance(2.0 / eps);
  SeededUrbg urbg(4321);
  double sum = 0, sum_sq = 0;
  int covered = 0;
  for (int i = 0; i < kSamples; ++i) {
    ASSERT_OK_AND_ASSIGN(const NoisyCount c,
                         PrivateVertexCoverSize(urbg, g, eps));
    const double z = static_cast<double>(c.value - cover);
    sum += z;
    sum_sq += z * z;
    covered += std::abs(z) <= static_cast<double>(c.bound95);
  }
  const double mean = sum / kSamples;
  EXPECT_NEAR(mean, 0.0, 5 * std::sqrt(variance / kSamples));
  const double sample_variance =
      (sum_sq - kSamples * mean * mean) / (kSamples - 1);
  // Lap(eps/2) (the paper's typo) would give variance ~0.5, not ~7.8.
  EXPECT_NEAR(sample_variance / variance, 1.0, 0.10);
  EXPECT_GE(static_cast<double>(covered) / kSamples,
            0.95 - 5 * std::sqrt(0.95 * 0.05 / kSamples));
}

}  // namespace
}  // namespace dpq::core::private_measures
