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

// epsilon * 10^12 as p + e exactly (p rounded, e its exact error).
struct ScaledExact {
  double p;
  double e;
};
ScaledExact Scale(double epsilon) {
  const double p = epsilon * kScale;
  return {p, std::fma(epsilon, kScale, -p)};
}

absl::Status CheckRange(double value, absl::string_view name, bool positive) {
  if (!std::isfinite(value) || (positive ? !(value > 0) : !(value >= 0))) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be finite and ",
                     positive ? "positive" : "at least 0", ", but is ", value,
                     "."));
  }
  if (value > kMaxAmount) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be at most ",
                     static_cast<int64_t>(kMaxAmount), ", but is ", value,
                     "."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> ChargeUnits(double epsilon, absl::string_view name) {
  if (absl::Status s = CheckRange(epsilon, name, /*positive=*/true); !s.ok()) {
    return s;
  }
  const ScaledExact x = Scale(epsilon);
  // ceil(p + e): p is within half an ulp of the exact product.
  double units = std::ceil(x.p);
  if (units == x.p && x.e > 0) units += 1;
  return units < 1 ? 1 : static_cast<int64_t>(units);
}

absl::StatusOr<int64_t> AmountUnits(double amount, absl::string_view name) {
  if (absl::Status s = CheckRange(amount, name, /*positive=*/false); !s.ok()) {
    return s;
  }
  return static_cast<int64_t>(std::nearbyint(Scale(amount).p));
}

double FromUnits(int64_t units) {
  return static_cast<double>(units) / kScale;
}

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
  // The magnitude as unsigned, so that INT64_MIN has one too.
  const uint64_t magnitude = units < 0 ? 0 - static_cast<uint64_t>(units)
                                       : static_cast<uint64_t>(units);
  const uint64_t per = static_cast<uint64_t>(kUnitsPerEpsilon);
  std::string text = absl::StrCat(units < 0 ? "-" : "", magnitude / per);
  uint64_t fraction = magnitude % per;
  if (fraction == 0) return text;
  std::string digits = std::to_string(fraction);
  digits.insert(0, 12 - digits.size(), '0');  // 12 digits after the point
  digits.erase(digits.find_last_not_of('0') + 1);
  return absl::StrCat(text, ".", digits);
}

}  // namespace dpq::core::ledger
