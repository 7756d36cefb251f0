#include "core/selection/dampening.h"

#include <cmath>
#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::selection {

absl::StatusOr<double> Dampen(double u,
                              absl::FunctionRef<double(uint64_t)> delta_at,
                              double global, uint64_t max_steps) {
  if (!std::isfinite(u)) {
    return absl::InvalidArgumentError(
        absl::StrCat("The score to dampen must be finite, but is ", u, "."));
  }
  if (!std::isfinite(global) || global <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Local dampening needs a finite positive global sensitivity, but it "
        "is ",
        global, "."));
  }
  // Odd extension (D(-u) = -D(u)): work on |u| and restore the sign.
  const double sign = u < 0 ? -1.0 : 1.0;
  const double a = std::fabs(u);
  double level_start = 0;  // b_t = sum_{j<t} min(delta(j), global)
  for (uint64_t t = 0; t < max_steps; ++t) {
    const double raw = delta_at(t);
    if (!std::isfinite(raw) || raw < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "A sensitivity function must return finite non-negative values, "
          "but returned ",
          raw, " at distance ", t, "."));
    }
    // The cap at the global sensitivity keeps delta admissible (dampening.h).
    const double delta = raw < global ? raw : global;
    if (a < level_start + delta) {  // a >= level_start holds by the loop
      return sign * (static_cast<double>(t) + (a - level_start) / delta);
    }
    level_start += delta;
  }
  // Tail: delta = global from T_max on (admissible after the cap).
  return sign * (static_cast<double>(max_steps) + (a - level_start) / global);
}

}  // namespace dpq::core::selection
