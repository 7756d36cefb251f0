#include "core/measures/rational_recovery.h"

#include <cmath>
#include <cstdint>
#include <optional>

namespace dpq::core::measures {
namespace {

// The denominator k <= max_k of the first convergent h/k of t's continued
// fraction with |t - h/k| <= error, if any. The convergents are the best
// approximations of t, so a rational with a denominator that small near t
// is found. Long double keeps 64 bits of t's expansion, enough for the few
// terms small denominators need.
std::optional<int64_t> ConvergentDenominator(long double t, long double error,
                                             int64_t max_k) {
  long double x = t;
  __int128 h1 = 1, h2 = 0, k1 = 0, k2 = 1;
  for (int step = 0; step < 64; ++step) {
    const long double a = std::floor(x);
    if (std::fabs(a) > 0x1p62L) return std::nullopt;
    const __int128 ai = static_cast<__int128>(static_cast<int64_t>(a));
    const __int128 h = ai * h1 + h2;
    const __int128 k = ai * k1 + k2;
    if (k <= 0 || k > max_k) return std::nullopt;
    const long double kd = static_cast<long double>(k);
    if (std::fabs(t * kd - static_cast<long double>(h)) <= error * kd) {
      return static_cast<int64_t>(k);
    }
    const long double fraction = x - a;
    if (fraction <= 0) return std::nullopt;
    x = 1 / fraction;
    h2 = h1;
    h1 = h;
    k2 = k1;
    k1 = k;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ScaledIntegers> RecoverCommonDenominator(
    absl::Span<const double> values, double tolerance, int64_t max_denominator,
    double max_magnitude) {
  if (!(tolerance > 0) || max_denominator < 1 || !(max_magnitude >= 0)) {
    return std::nullopt;
  }
  // q * tolerance < 1/4 keeps each numerator unique, and |value| * q
  // below 2^62 keeps it an int64.
  const long double limit = std::fmin(
      std::fmin(static_cast<long double>(max_denominator),
                0.25L / static_cast<long double>(tolerance)),
      0x1p62L / std::fmax(1.0L, static_cast<long double>(max_magnitude)));
  const int64_t max_q = static_cast<int64_t>(limit);
  if (max_q < 1) return std::nullopt;
  int64_t q = 1;
  for (double v : values) {
    if (!std::isfinite(v) || std::fabs(v) > max_magnitude) return std::nullopt;
    const long double t = static_cast<long double>(v) * q;
    const long double error = static_cast<long double>(tolerance) * q;
    if (std::fabs(t - std::round(t)) <= error) continue;
    const std::optional<int64_t> d = ConvergentDenominator(t, error, max_q / q);
    if (!d.has_value()) return std::nullopt;
    q *= *d;
  }
  ScaledIntegers out;
  out.denominator = q;
  out.numerators.reserve(values.size());
  const long double error = static_cast<long double>(tolerance) * q;
  for (double v : values) {
    const long double t = static_cast<long double>(v) * q;
    const long double n = std::round(t);
    if (std::fabs(t - n) > error) return std::nullopt;
    out.numerators.push_back(static_cast<int64_t>(n));
  }
  return out;
}

}  // namespace dpq::core::measures
