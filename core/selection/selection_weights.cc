#include "core/selection/selection_weights.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/error_details.h"

namespace dpq::core::selection {

absl::StatusOr<std::vector<double>> CheckSelectionWeights(
    Approach approach, absl::Span<const double> weights, size_t objectives,
    absl::string_view what) {
  if (approach == Approach::kPareto) {
    if (!weights.empty()) {
      return util::InvalidFieldError(
          "weights",
          absl::StrCat(
              "weights apply to SELECTION_APPROACH_AGGREGATION only, but ",
              weights.size(), " were given with the Pareto approach."));
    }
    return std::vector<double>();
  }
  if (weights.empty()) return std::vector<double>(objectives, 1.0);
  if (weights.size() != objectives) {
    return util::InvalidFieldError(
        "weights",
        absl::StrCat("weights must hold one number per objective (", objectives,
                     ": ", what, "), but holds ", weights.size(), "."));
  }
  bool any_nonzero = false;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      return util::InvalidFieldError(
          absl::StrCat("weights[", i, "]"),
          absl::StrCat("weights[", i, "] must be finite, but is ", weights[i],
                       "."));
    }
    any_nonzero = any_nonzero || weights[i] != 0;
  }
  if (!any_nonzero) {
    return util::InvalidFieldError(
        "weights",
        "weights must not all be zero: the aggregate would rank every "
        "candidate equally.");
  }
  return std::vector<double>(weights.begin(), weights.end());
}

}  // namespace dpq::core::selection
