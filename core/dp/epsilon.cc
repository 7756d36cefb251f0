#include "core/dp/epsilon.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/util/error_details.h"
#include "core/util/shortest_double.h"
#include "core/util/status_macros.h"

namespace dpq::core::dp {
namespace {

// Shortest text that parses back to `value` ("-1", "0.1", "2e+06", "nan",
// "inf"), so a message never shows a rounded value that looks valid.
std::string FormatValue(double value) { return util::ShortestDouble(value); }

absl::Status ValidateFinitePositive(double value, absl::string_view name) {
  // `!(value > 0)` also rejects NaN, for which every comparison is false.
  if (!std::isfinite(value) || !(value > 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be finite and positive, but is ",
                     FormatValue(value), "."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateEpsilon(double epsilon, absl::string_view name) {
  RETURN_IF_ERROR(ValidateFinitePositive(epsilon, name));
  if (epsilon > kMaxEpsilon) {
    // kMaxEpsilon is an integer; print it as one ("1000000", not "1e+06").
    return absl::InvalidArgumentError(absl::StrCat(
        name, " must be at most ", static_cast<int64_t>(kMaxEpsilon),
        ", but is ", FormatValue(epsilon), "."));
  }
  return absl::OkStatus();
}

absl::Status ValidateRequestEpsilon(double epsilon, absl::string_view name) {
  // `name` is a request field here: its refusal names it for the client
  // (a BadRequest field violation, docs/errors.md).
  if (absl::Status valid = ValidateEpsilon(epsilon, name); !valid.ok()) {
    return util::InvalidFieldError(name, valid.message());
  }
  if (epsilon < kMinRequestEpsilon) {
    return util::InvalidFieldError(
        name, absl::StrCat(
                  name,
                  " must be at least 1e-06 (the smallest epsilon dpq releases "
                  "at), but is ",
                  FormatValue(epsilon), "."));
  }
  return absl::OkStatus();
}

absl::Status ValidateSensitivity(double delta, absl::string_view name) {
  return ValidateFinitePositive(delta, name);
}

}  // namespace dpq::core::dp
