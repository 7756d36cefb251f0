#include "core/ledger/epsilon_units.h"

#include <cmath>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::ledger {
namespace {

constexpr double kScale = 1e12;  // exactly representable
constexpr double kMaxAmount = static_cast<double>(kMaxUnits) / kScale;

absl::Status CheckRange(double value, absl::string_view name, bool positive) {
  if (!std::isfinite(value) || (positive ? !(value > 0) : !(value >= 0))) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " must be finite and ", positive ? "positive" : "at least 0",
        ", but is ", value, "."));
  }
  if (value > kMaxAmount) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " must be at most ", static_cast<int64_t>(kMaxAmount),
        ", but is ", value, "."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> ChargeUnits(double epsilon, absl::string_view name) {
  if (absl::Status s = CheckRange(epsilon, name, /*positive=*/true); !s.ok()) {
    return s;
  }
  // In integers, from the double's exact binary value: epsilon = m * 2^-shift
  // with m < 2^53 an integer (frexp is exact, subnormals included), so
  // epsilon * 10^12 = m * 10^12 / 2^shift exactly, m * 10^12 < 2^93 fits in
  // 128 bits, and the ceiling is a shift plus one if a bit is shifted out.
  // (A double ceiling of p + e fails above 2^53 units, epsilon ~9007, where
  // "+ 1" is a tie that rounds back to even; docs/privacy.md 5.1.)
  int exponent = 0;
  const double fraction = std::frexp(epsilon, &exponent);  // [0.5, 1)
  const auto m = static_cast<uint64_t>(std::ldexp(fraction, 53));
  const int shift = 53 - exponent;  // >= 29: epsilon <= kMaxAmount < 2^24
  const unsigned __int128 product = static_cast<unsigned __int128>(m) *
                                    static_cast<uint64_t>(kUnitsPerEpsilon);
  unsigned __int128 units = 1;  // shift >= 128: the product is below 1
  if (shift < 128) {
    const unsigned __int128 low =
        (static_cast<unsigned __int128>(1) << shift) - 1;
    units = (product >> shift) + ((product & low) != 0 ? 1 : 0);
  }
  // units <= ceil(kMaxAmount * 10^12) = kMaxUnits (CheckRange).
  return units < 1 ? 1 : static_cast<int64_t>(units);
}

absl::StatusOr<int64_t> AmountUnits(double amount, absl::string_view name) {
  if (absl::Status s = CheckRange(amount, name, /*positive=*/false); !s.ok()) {
    return s;
  }
  const auto units = static_cast<int64_t>(std::nearbyint(amount * kScale));
  if (units == 0 && amount > 0) {
    // Stored as 0 it would mean something else: no budget, or no cap.
    return absl::InvalidArgumentError(absl::StrCat(
        name, " is ", amount,
        ", below the ledger's smallest amount 0.000000000001 (epsilon is "
        "counted in units of 10^-12), so it would be stored as 0; give 0 or "
        "at least 0.000000000001."));
  }
  return units;
}

double FromUnits(int64_t units) { return static_cast<double>(units) / kScale; }

double EpsilonOfUnits(int64_t units) {
  const double u = static_cast<double>(units < 1 ? 1 : units);
  double e = u / kScale;
  // Step down until e * 10^12 <= units exactly.
  while (e > 0 && std::fma(e, kScale, -u) > 0) e = std::nextafter(e, 0.0);
  return e;
}

double QuantizedEpsilon(double epsilon) {
  // Out of range: unchanged, so that validation still sees it.
  if (!std::isfinite(epsilon) || !(epsilon > 0) || epsilon > kMaxAmount) {
    return epsilon;
  }
  return EpsilonOfUnits(static_cast<int64_t>(std::nearbyint(epsilon * kScale)));
}

std::string UnitsDecimal(int64_t units) {
  // Magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64_t.
  const uint64_t magnitude = units < 0
                                 ? uint64_t{0} - static_cast<uint64_t>(units)
                                 : static_cast<uint64_t>(units);
  const uint64_t scale = static_cast<uint64_t>(kUnitsPerEpsilon);
  std::string text = absl::StrCat(units < 0 ? "-" : "", magnitude / scale);
  std::string fraction = absl::StrCat(magnitude % scale + scale).substr(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) absl::StrAppend(&text, ".", fraction);
  return text;
}

}  // namespace dpq::core::ledger
