// Statistical tests of DiscreteLaplace::Sample and its Bernoulli(exp(-gamma))
// building block. Every check uses a fixed seed and states its false-failure
// probability: the chance that an exactly correct sampler fails it on a fresh
// seed. Thresholds are asymptotic (CLT, Pearson's chi-square) at
// test_stats::kAlpha = 1e-6 per check; with at least 1e5 draws and expected
// bin counts >= 100 the asymptotic error is far below the threshold margin.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/dp/discrete_laplace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/dp/statistics.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::SeededUrbg;
using test_stats::ChiSquareCriticalValue;
using test_stats::ChiSquareStatistic;
using test_stats::kAlpha;
using test_stats::NormalUpperQuantile;

constexpr int64_t kSamples = 400'000;

// The two-sided standard normal quantile: P(|Z| > z) = kAlpha.
double TwoSidedZ() { return NormalUpperQuantile(kAlpha / 2); }

std::vector<int64_t> Draw(const DiscreteLaplace& dl, uint64_t seed, int64_t n) {
  SeededUrbg urbg(seed);
  std::vector<int64_t> samples(n);
  for (int64_t& x : samples) x = dl.Sample(urbg);
  return samples;
}

class DiscreteLaplaceStatisticalTest : public ::testing::TestWithParam<double> {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(dl_, DiscreteLaplace::Create(GetParam()));
    p_ = std::exp(-1 / dl_->scale());
  }
  // P(X = k) = (1 - p) / (1 + p) p^|k|.
  double Pmf(int64_t k) const {
    return (1 - p_) / (1 + p_) * std::pow(p_, std::fabs(k * 1.0));
  }

  std::optional<DiscreteLaplace> dl_;
  double p_ = 0;
};

TEST_P(DiscreteLaplaceStatisticalTest, MeanIsZero) {
  const std::vector<int64_t> x = Draw(*dl_, 11, kSamples);
  double sum = 0;
  for (int64_t v : x) sum += static_cast<double>(v);
  const double mean = sum / kSamples;
  // CLT: mean ~ N(0, sigma^2 / n); |mean| > z sigma / sqrt(n) with
  // probability kAlpha (two-sided z = 4.89).
  const double sigma = std::sqrt(2 * p_) / (1 - p_);
  EXPECT_LE(std::fabs(mean), TwoSidedZ() * sigma / std::sqrt(kSamples))
      << "mean " << mean << " scale " << GetParam();
}

TEST_P(DiscreteLaplaceStatisticalTest, VarianceIsTwoPOverOneMinusPSquared) {
  const std::vector<int64_t> x = Draw(*dl_, 12, kSamples);
  double sum = 0;
  double sum_sq = 0;
  for (int64_t v : x) {
    sum += static_cast<double>(v);
    sum_sq += static_cast<double>(v) * static_cast<double>(v);
  }
  const double n = kSamples;
  const double sample_variance = (sum_sq - sum * sum / n) / (n - 1);
  // Variance and fourth moment of the two-sided geometric distribution:
  // sigma^2 = 2p / (1-p)^2, mu_4 = 2p (1 + 10p + p^2) / (1-p)^4 (from
  // sum_k k^2 p^k and sum_k k^4 p^k). The unbiased sample variance is
  // asymptotically N(sigma^2, (mu_4 - sigma^4) / n); threshold at the
  // two-sided kAlpha quantile.
  const double variance = 2 * p_ / ((1 - p_) * (1 - p_));
  const double mu4 = 2 * p_ * (1 + 10 * p_ + p_ * p_) / std::pow(1 - p_, 4);
  const double sd = std::sqrt((mu4 - variance * variance) / n);
  EXPECT_LE(std::fabs(sample_variance - variance), TwoSidedZ() * sd)
      << "sample variance " << sample_variance << " expected " << variance
      << " scale " << GetParam();
}

TEST_P(DiscreteLaplaceStatisticalTest, TailBeyondConfidenceBound) {
  const int64_t bound = dl_->ConfidenceBound(0.95);
  // Exact tail from the closed form; the bound makes it <= 5% by definition.
  const double tail = 2 * std::pow(p_, bound + 1.0) / (1 + p_);
  ASSERT_LE(tail, 0.05);
  const std::vector<int64_t> x = Draw(*dl_, 13, kSamples);
  const int64_t beyond = std::count_if(
      x.begin(), x.end(), [&](int64_t v) { return v > bound || v < -bound; });
  const double fraction = static_cast<double>(beyond) / kSamples;
  // Count ~ Binomial(n, tail) with n tail >= 1e4 here: normal approximation,
  // two-sided kAlpha. Also implies fraction <= 0.05 + that tolerance.
  const double tolerance =
      TwoSidedZ() * std::sqrt(tail * (1 - tail) / kSamples);
  EXPECT_NEAR(fraction, tail, tolerance) << "bound " << bound;
  EXPECT_LE(fraction, 0.05 + tolerance);
}

TEST_P(DiscreteLaplaceStatisticalTest, PmfFitsByChiSquare) {
  // Bins of consecutive magnitudes on each side of 0 (k >= 0 and k < 0, so
  // that symmetry is tested too), each with expected count >= kMinExpected,
  // the last one open-ended.
  constexpr double kMinExpected = 100;
  const double n = kSamples;
  struct Side {
    std::vector<int64_t> lower;  // Lower magnitude edge of each bin.
    std::vector<double> mass;    // Its exact probability.
  };
  const auto make_side = [&](int64_t start) {
    Side side;
    for (;;) {
      // P(X on this side, |X| >= start) = (1-p)/(1+p) p^start / (1-p).
      const double tail = std::pow(p_, start * 1.0) / (1 + p_);
      side.lower.push_back(start);
      if (n * tail < 2 * kMinExpected) {
        side.mass.push_back(tail);
        return side;
      }
      double mass = Pmf(start);
      while (n * mass < kMinExpected) mass += Pmf(++start);
      side.mass.push_back(mass);
      ++start;
    }
  };
  const Side positive = make_side(0);  // 0 counts once, on this side.
  const Side negative = make_side(1);
  std::vector<int64_t> positive_counts(positive.lower.size());
  std::vector<int64_t> negative_counts(negative.lower.size());
  for (int64_t k : Draw(*dl_, 14, kSamples)) {
    const Side& side = k >= 0 ? positive : negative;
    const int64_t magnitude = k >= 0 ? k : -k;
    // Index of the last bin whose lower edge is <= magnitude.
    const size_t bin =
        std::upper_bound(side.lower.begin(), side.lower.end(), magnitude) -
        side.lower.begin() - 1;
    ++(k >= 0 ? positive_counts : negative_counts)[bin];
  }
  std::vector<int64_t> observed = positive_counts;
  observed.insert(observed.end(), negative_counts.begin(),
                  negative_counts.end());
  std::vector<double> probabilities = positive.mass;
  probabilities.insert(probabilities.end(), negative.mass.begin(),
                       negative.mass.end());
  double total = 0;
  for (double q : probabilities) total += q;
  ASSERT_NEAR(total, 1, 1e-9);  // The bins partition the integers.

  const int df = static_cast<int>(observed.size()) - 1;
  const double statistic =
      ChiSquareStatistic(observed, probabilities, kSamples);
  // Pearson's statistic is asymptotically chi^2 with bins - 1 degrees of
  // freedom; exceeding its upper kAlpha quantile has probability kAlpha.
  EXPECT_LE(statistic, ChiSquareCriticalValue(df, kAlpha))
      << "df " << df << " scale " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Scales, DiscreteLaplaceStatisticalTest,
                         ::testing::Values(0.7, 2.5, 40.0));

TEST(BernoulliExpStatisticalTest, FrequencyMatchesExpMinusGamma) {
  constexpr int64_t kDraws = 200'000;
  SeededUrbg urbg(15);
  // gamma = n / d, including gamma > 1 (the floor(gamma) rounds of
  // Bernoulli(exp(-1))) and a denominator near 2^53 as used by Sample().
  const std::vector<std::pair<uint64_t, uint64_t>> gammas = {
      {1, 3},
      {1, 1},
      {5, 2},
      {7, 2},
      {(uint64_t{1} << 52) + 1, (uint64_t{1} << 53) - 1}};
  for (const auto& [num, den] : gammas) {
    const double p = std::exp(-static_cast<double>(num) / den);
    int64_t ones = 0;
    for (int64_t i = 0; i < kDraws; ++i) {
      ones += internal::SampleBernoulliExp(num, den, urbg) ? 1 : 0;
    }
    // Binomial(kDraws, p) with kDraws p >= 6000: normal approximation,
    // two-sided kAlpha.
    const double fraction = static_cast<double>(ones) / kDraws;
    EXPECT_NEAR(fraction, p, TwoSidedZ() * std::sqrt(p * (1 - p) / kDraws))
        << num << "/" << den;
  }
}

}  // namespace
}  // namespace dpq::core::dp
