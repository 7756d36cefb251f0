#include "core/util/validate.h"

#include <cmath>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"

namespace dpq::core::util {
namespace {

// The one message shape.
template <typename Value>
absl::Status Refused(absl::string_view name, absl::string_view condition,
                     absl::string_view note, Value value) {
  return absl::InvalidArgumentError(absl::StrCat(
      name, " must be ", condition, note, ", but is ", value, "."));
}

}  // namespace

absl::Status ValidateInRange(int64_t value, int64_t lo, int64_t hi,
                             absl::string_view name, absl::string_view note) {
  if (value >= lo && value <= hi) return absl::OkStatus();
  return Refused(name, absl::StrCat("in [", lo, ", ", hi, "]"), note, value);
}

absl::Status ValidateAtLeast(int64_t value, int64_t lo, absl::string_view name,
                             absl::string_view note) {
  if (value >= lo) return absl::OkStatus();
  return Refused(name, absl::StrCat(">= ", lo), note, value);
}

absl::Status ValidatePositive(uint64_t value, absl::string_view name) {
  if (value > 0) return absl::OkStatus();
  return Refused(name, "> 0", "", value);
}

absl::Status ValidateFiniteAndPositive(double value, absl::string_view name,
                                       absl::string_view note) {
  // `!(value > 0)` also refuses NaN, for which every comparison is false.
  if (std::isfinite(value) && value > 0) return absl::OkStatus();
  return Refused(name, "finite and > 0", note, value);
}

absl::Status ValidateFiniteAndNonNegative(double value, absl::string_view name,
                                          absl::string_view note) {
  if (std::isfinite(value) && value >= 0) return absl::OkStatus();
  return Refused(name, "finite and >= 0", note, value);
}

absl::Status AsFieldError(absl::string_view field, const absl::Status& status) {
  if (status.ok()) return status;
  return InvalidFieldError(field, status.message());
}

}  // namespace dpq::core::util
