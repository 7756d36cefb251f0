#include "core/dp/discrete_laplace.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/dp/epsilon.h"
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"

namespace dpq::core::dp {
namespace {

// Largest denominator (2^62) of the rational scale; see the header.
constexpr int kMaxDenominatorLog2 = 62;
// Magnitudes above this are redrawn, so that negation and int64_t are safe.
constexpr uint64_t kMaxMagnitude = uint64_t{1} << 62;

// Bernoulli(numerator / denominator), numerator <= denominator.
bool SampleBernoulli(uint64_t numerator, uint64_t denominator,
                     SecureUrbg& urbg) {
  return urbg.UniformBelow(denominator) < numerator;
}

// Bernoulli(exp(-gamma)) for gamma = numerator / denominator in [0, 1]
// (Canonne, Kamath, Steinke 2020, Algorithm 1, first case): draw A_k ~
// Bernoulli(gamma / k) for k = 1, 2, ... until the first A_k = 0 and return
// whether that k is odd. P(K >= k) = gamma^(k-1) / (k-1)!, so
// P(K odd) = sum_j (-gamma)^j / j! = exp(-gamma).
bool SampleBernoulliExpAtMostOne(uint64_t numerator, uint64_t denominator,
                                 SecureUrbg& urbg) {
  uint64_t k = 1;
  // Bernoulli(gamma / k) as Bernoulli(gamma) AND Bernoulli(1 / k), which are
  // independent: no product denominator * k that could overflow. The loop
  // runs past k with probability gamma^k / k!, so k never grows large.
  while (SampleBernoulli(numerator, denominator, urbg) &&
         urbg.UniformBelow(k) == 0) {
    ++k;
  }
  return k % 2 == 1;
}

}  // namespace

namespace internal {

bool SampleBernoulliExp(uint64_t numerator, uint64_t denominator,
                        SecureUrbg& urbg) {
  // exp(-gamma) = exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma)))
  // (Algorithm 1, second case). Stops at the first failure, so the expected
  // number of rounds is below 1 / (1 - exp(-1)) < 1.6 whatever gamma is.
  const uint64_t whole = numerator / denominator;
  for (uint64_t i = 0; i < whole; ++i) {
    if (!SampleBernoulliExpAtMostOne(1, 1, urbg)) return false;
  }
  return SampleBernoulliExpAtMostOne(numerator % denominator, denominator,
                                     urbg);
}

}  // namespace internal

absl::StatusOr<DiscreteLaplace> DiscreteLaplace::Create(double scale) {
  RETURN_IF_ERROR(ValidateSensitivity(scale, "Scale"));
  if (scale > kMaxScale) {
    return absl::InvalidArgumentError(
        absl::StrCat("Scale must be at most ", static_cast<int64_t>(kMaxScale),
                     ", but is ", scale, "."));
  }
  // scale = mantissa * 2^exponent with an integer mantissa < 2^53: exact,
  // since a double has 53 significand bits.
  int exponent;
  const double fraction = std::frexp(scale, &exponent);  // in [0.5, 1)
  uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  exponent -= 53;
  if (exponent >= 0) {
    // An integer scale, <= 2^40 (checked above).
    return DiscreteLaplace(mantissa << exponent, 1);
  }
  // Reduce the fraction mantissa / 2^-exponent (keeps the numbers small).
  while (mantissa % 2 == 0 && exponent < 0) {
    mantissa /= 2;
    ++exponent;
  }
  if (exponent == 0) return DiscreteLaplace(mantissa, 1);
  if (-exponent <= kMaxDenominatorLog2) {
    return DiscreteLaplace(mantissa, uint64_t{1} << -exponent);
  }
  // Too fine for a 2^62 denominator: round the numerator UP (a larger scale
  // is more noise, so privacy never weakens). Only for scales < 2^-9.
  const int shift = -exponent - kMaxDenominatorLog2;  // >= 1
  uint64_t numerator = 1;
  if (shift < 64) {
    const uint64_t low_bits = mantissa & ((uint64_t{1} << shift) - 1);
    numerator = (mantissa >> shift) + (low_bits != 0 ? 1 : 0);
  }
  return DiscreteLaplace(numerator, uint64_t{1} << kMaxDenominatorLog2);
}

absl::StatusOr<DiscreteLaplace> DiscreteLaplace::ForSensitivity(
    double sensitivity, double epsilon) {
  RETURN_IF_ERROR(ValidateSensitivity(sensitivity));
  RETURN_IF_ERROR(ValidateEpsilon(epsilon));
  double scale = sensitivity / epsilon;
  // The quotient is rounded to nearest; if that went down, step up one ulp.
  // The residual scale * epsilon - sensitivity of a correctly rounded
  // quotient is exactly representable, so the fma computes it exactly.
  if (std::isfinite(scale) && std::fma(scale, epsilon, -sensitivity) < 0) {
    scale = std::nextafter(scale, std::numeric_limits<double>::infinity());
  }
  if (!(scale <= kMaxScale)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Sensitivity / epsilon must be at most ",
        static_cast<int64_t>(kMaxScale), ", but is ", scale, " (sensitivity ",
        sensitivity, ", epsilon ", epsilon, ")."));
  }
  return Create(scale);
}

int64_t DiscreteLaplace::Sample(SecureUrbg& urbg) const {
  // Canonne, Kamath, Steinke 2020, Algorithm 2, for scale t = n / d with
  // n = numerator_, d = denominator_:
  //  1. U uniform in {0, ..., n-1}, kept with probability exp(-U / n);
  //  2. V ~ Geometric: P(V = v) = (1 - e^-1) e^-v;
  //  3. then X = U + n V has P(X = x) proportional to exp(-x / n), and
  //     Y = floor(X / d) has P(Y = y) proportional to exp(-y d / n);
  //  4. a uniform sign, rejecting "-0" so that 0 is not counted twice.
  // Every loop below ends in each round with a constant probability (> e^-1
  // for the first, 1 - e^-1 for the second, > 1/2 for the outer one).
  for (;;) {
    uint64_t u;
    do {
      u = urbg.UniformBelow(numerator_);
    } while (!internal::SampleBernoulliExp(u, numerator_, urbg));
    uint64_t v = 0;
    while (internal::SampleBernoulliExp(1, 1, urbg)) ++v;
    // numerator_ < 2^53 and v < 2^64: the product fits in 128 bits.
    const unsigned __int128 x =
        static_cast<unsigned __int128>(numerator_) * v + u;
    const unsigned __int128 y = x / denominator_;
    if (y > kMaxMagnitude) continue;  // Probability < exp(-2^22); see header.
    const bool negative = urbg.UniformBelow(2) == 1;
    if (negative && y == 0) continue;
    const int64_t magnitude = static_cast<int64_t>(y);
    return negative ? -magnitude : magnitude;
  }
}

double DiscreteLaplace::scale() const {
  // Exact: the numerator is below 2^53 and the denominator a power of two.
  return static_cast<double>(numerator_) / static_cast<double>(denominator_);
}

int64_t DiscreteLaplace::ConfidenceBound(double confidence) const {
  constexpr int64_t kNoBound = std::numeric_limits<int64_t>::max();
  if (!(confidence < 1)) return kNoBound;  // Also NaN.
  if (confidence <= 0) return 0;
  // In logs: P(|X| > k) <= 1 - c  iff
  //   log(2) - (k + 1) / t - log1p(p) <= log1p(-c),  p = exp(-1 / t).
  // log1p keeps full precision for confidences near 1 and large scales.
  const double inverse_scale =
      static_cast<double>(denominator_) / static_cast<double>(numerator_);
  const double log1p_p = std::log1p(std::exp(-inverse_scale));
  const double target = std::log1p(-confidence);
  const auto log_tail = [&](int64_t k) {
    return std::numbers::ln2 - static_cast<double>(k + 1) * inverse_scale -
           log1p_p;
  };
  // Closed form k = ceil(t (log 2 - log1p(p) - log1p(-c))) - 1, then a
  // correction by a step or two in case rounding moved it across the
  // boundary, so that the result is the smallest k by the log_tail test.
  const double k_real =
      std::ceil(scale() * (std::numbers::ln2 - log1p_p - target)) - 1;
  // k_real < 2^40 * 40 for any confidence below 1 in double.
  int64_t k = k_real > 0 ? static_cast<int64_t>(k_real) : 0;
  while (k > 0 && log_tail(k - 1) <= target) --k;
  while (log_tail(k) > target) ++k;
  return k;
}

}  // namespace dpq::core::dp
