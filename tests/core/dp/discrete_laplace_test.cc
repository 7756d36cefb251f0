#include "core/dp/discrete_laplace.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::dp {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::Eq;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(DiscreteLaplaceTest, CreateRejectsNonPositiveAndNonFiniteScales) {
  EXPECT_THAT(DiscreteLaplace::Create(0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Scale must be finite and positive, but is 0.")));
  EXPECT_THAT(DiscreteLaplace::Create(-1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Scale must be finite and positive, but is -1.")));
  EXPECT_THAT(DiscreteLaplace::Create(std::nan("")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nan")));
  EXPECT_THAT(DiscreteLaplace::Create(kInf),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("inf")));
}

TEST(DiscreteLaplaceTest, CreateRejectsScalesAboveTwoToTheForty) {
  EXPECT_THAT(
      DiscreteLaplace::Create(2e12),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Scale must be at most 1099511627776, but is 2e+12.")));
  EXPECT_OK(DiscreteLaplace::Create(DiscreteLaplace::kMaxScale));
  EXPECT_FALSE(
      DiscreteLaplace::Create(std::nextafter(DiscreteLaplace::kMaxScale, kInf))
          .ok());
}

bool IsPowerOfTwo(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

TEST(DiscreteLaplaceTest, ScaleIsExactForOrdinaryScales) {
  for (double s : {0.5, 1.0, 3.7, 100.0, 0.7, 2.5, 40.0, 1.0 / 3, 1e-2,
                   0x1.0p-9, 0.1 + 0.2, 123456.789, 0x1.0p40}) {
    ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(s));
    EXPECT_EQ(dl.scale(), s);
    EXPECT_TRUE(IsPowerOfTwo(dl.denominator())) << s;
    EXPECT_LT(dl.numerator(), uint64_t{1} << 53) << s;
    EXPECT_EQ(static_cast<double>(dl.numerator()) /
                  static_cast<double>(dl.denominator()),
              s);
  }
}

TEST(DiscreteLaplaceTest, TinyScalesAreRoundedUpNeverDown) {
  for (double s : {1e-3, 1e-6, 1e-12, 1e-18, 3e-19, 1e-30,
                   std::numeric_limits<double>::denorm_min()}) {
    ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(s));
    EXPECT_GE(dl.scale(), s);
    EXPECT_LE(dl.scale(), s + 0x1.0p-62) << s;
    if (s >= 1e-12) {
      EXPECT_LE((dl.scale() - s) / s, 1e-6) << s;
    }
    EXPECT_GE(dl.numerator(), 1u);
  }
}

TEST(DiscreteLaplaceTest, ForSensitivityValidatesBothInputs) {
  EXPECT_THAT(DiscreteLaplace::ForSensitivity(1, -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Epsilon must be finite and positive, but is -1.")));
  EXPECT_THAT(DiscreteLaplace::ForSensitivity(1, 2e6),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Epsilon must be at most 1000000")));
  EXPECT_THAT(
      DiscreteLaplace::ForSensitivity(0, 1),
      StatusIs(absl::StatusCode::kInvalidArgument,
               Eq("Sensitivity must be finite and positive, but is 0.")));
  EXPECT_THAT(DiscreteLaplace::ForSensitivity(1, 1e-15),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Sensitivity / epsilon must be at most "
                                 "1099511627776, but is 1e+15")));
  EXPECT_THAT(DiscreteLaplace::ForSensitivity(1e300, 1e-300),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Sensitivity / epsilon")));
}

TEST(DiscreteLaplaceTest, ForSensitivityRoundsTheQuotientUp) {
  // scale * epsilon >= sensitivity in exact arithmetic (the fma residual is
  // exact), for pairs where the rounded quotient is below or above the true
  // one.
  for (double sensitivity : {1.0, 2.0, 3.0, 7.0, 0.3, 1e-3, 123.0}) {
    for (double epsilon : {0.1, 0.3, 0.7, 1.0, 3.0, 1e-3, 1.1, 9.9}) {
      ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::ForSensitivity(
                                                   sensitivity, epsilon));
      EXPECT_GE(std::fma(dl.scale(), epsilon, -sensitivity), 0)
          << sensitivity << " / " << epsilon;
      EXPECT_LE(dl.scale(), sensitivity / epsilon * (1 + 1e-15));
    }
  }
}

// P(|X| <= k) accumulated term by term from the pmf
// P(X = j) = (1 - p) / (1 + p) p^|j|.
int64_t BruteForceConfidenceBound(double scale, double confidence) {
  const double p = std::exp(-1 / scale);
  const double c = (1 - p) / (1 + p);
  double inside = c;  // P(|X| <= 0)
  int64_t k = 0;
  while (1 - inside > 1 - confidence) {
    ++k;
    inside += 2 * c * std::pow(p, static_cast<double>(k));
  }
  return k;
}

TEST(DiscreteLaplaceTest, ConfidenceBoundMatchesBruteForceSumOfPmf) {
  for (double scale : {0.5, 1.0, 3.7, 100.0, 0.05, 12.25}) {
    ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(scale));
    for (double confidence : {0.5, 0.9, 0.95, 0.99, 0.999}) {
      EXPECT_EQ(dl.ConfidenceBound(confidence),
                BruteForceConfidenceBound(scale, confidence))
          << "scale " << scale << " confidence " << confidence;
    }
  }
}

TEST(DiscreteLaplaceTest, ConfidenceBoundIsSmallestKWithTailBelowLevel) {
  for (double scale : {0.5, 1.0, 3.7, 100.0, 1e4}) {
    ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(scale));
    const double p = std::exp(-1 / scale);
    const auto tail = [&](int64_t k) {
      return 2 * std::pow(p, static_cast<double>(k + 1)) / (1 + p);
    };
    for (double confidence : {0.9, 0.95, 0.99}) {
      const int64_t k = dl.ConfidenceBound(confidence);
      EXPECT_LE(tail(k), (1 - confidence) * (1 + 1e-12));
      if (k > 0) {
        EXPECT_GT(tail(k - 1), (1 - confidence) * (1 - 1e-12));
      }
    }
  }
}

TEST(DiscreteLaplaceTest, ConfidenceBoundHandValues) {
  // Scale 1: tail(k) = 2 e^-(k+1) / (1 + e^-1); tail(2) = 0.0729,
  // tail(3) = 0.0268, so the 95% bound is 3.
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(1));
  EXPECT_EQ(dl.ConfidenceBound(0.95), 3);
  // P(X = 0) = (1 - p) / (1 + p) = 0.4621 for scale 1, so the 46% bound is
  // 0 and the 47% bound is 1.
  EXPECT_EQ(dl.ConfidenceBound(0.46), 0);
  EXPECT_EQ(dl.ConfidenceBound(0.47), 1);
}

TEST(DiscreteLaplaceTest, ConfidenceBoundEdgeCases) {
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(2));
  EXPECT_EQ(dl.ConfidenceBound(0), 0);
  EXPECT_EQ(dl.ConfidenceBound(-1), 0);
  EXPECT_EQ(dl.ConfidenceBound(1), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(dl.ConfidenceBound(std::nan("")),
            std::numeric_limits<int64_t>::max());
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace tiny, DiscreteLaplace::Create(1e-12));
  EXPECT_EQ(tiny.ConfidenceBound(0.999999), 0);
}

TEST(DiscreteLaplaceTest, ConfidenceBoundForLargeScaleIsScaleTimesLog) {
  // p -> 1: tail(k) ~ p^(k+1), so k ~ scale * ln(1 / (1 - c)).
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl,
                       DiscreteLaplace::Create(DiscreteLaplace::kMaxScale));
  const double expected = DiscreteLaplace::kMaxScale * std::log(20.0);
  EXPECT_NEAR(static_cast<double>(dl.ConfidenceBound(0.95)), expected,
              expected * 1e-9);
}

TEST(DiscreteLaplaceTest, TinyScaleAlwaysSamplesZero) {
  // P(X != 0) = 2p / (1 + p) with p = exp(-1e12), which is 0 in any
  // arithmetic that matters.
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(1e-12));
  SeededUrbg urbg(1);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(dl.Sample(urbg), 0);
}

TEST(DiscreteLaplaceTest, SamplesTakeBothSignsAndManyValues) {
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl, DiscreteLaplace::Create(3));
  SeededUrbg urbg(2);
  std::set<int64_t> seen;
  for (int i = 0; i < 2000; ++i) seen.insert(dl.Sample(urbg));
  EXPECT_LT(*seen.begin(), -5);
  EXPECT_GT(*seen.rbegin(), 5);
  EXPECT_TRUE(seen.contains(0));
}

TEST(DiscreteLaplaceTest, MaxScaleSamplesStayInPlausibleRange) {
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl,
                       DiscreteLaplace::Create(DiscreteLaplace::kMaxScale));
  SeededUrbg urbg(3);
  // P(|X| > 50 scale) = 2 e^-50 / (1 + p) < 4e-22 per draw.
  const double limit = 50 * DiscreteLaplace::kMaxScale;
  std::set<int64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const int64_t x = dl.Sample(urbg);
    EXPECT_LT(std::fabs(static_cast<double>(x)), limit);
    seen.insert(x);
  }
  EXPECT_GT(seen.size(), 990u);
}

TEST(DiscreteLaplaceTest, WorksWithOpenSslUrbg) {
  ASSERT_OK_AND_ASSIGN(DiscreteLaplace dl,
                       DiscreteLaplace::ForSensitivity(1, 0.1));
  OpenSslUrbg urbg;
  std::set<int64_t> seen;
  for (int i = 0; i < 100; ++i) seen.insert(dl.Sample(urbg));
  // Scale 10: P(X = k) <= 0.05 for every k, so 100 draws take > 5 values
  // except with negligible probability.
  EXPECT_GT(seen.size(), 5u);
}

TEST(BernoulliExpTest, DegenerateCases) {
  SeededUrbg urbg(4);
  for (int i = 0; i < 100; ++i) {
    // gamma = 0: exp(0) = 1.
    EXPECT_TRUE(internal::SampleBernoulliExp(0, 1, urbg));
    EXPECT_TRUE(internal::SampleBernoulliExp(0, 7, urbg));
  }
  // gamma = 1000: probability e^-1000, and terminates quickly.
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(internal::SampleBernoulliExp(1000, 1, urbg));
  }
}

}  // namespace
}  // namespace dpq::core::dp
