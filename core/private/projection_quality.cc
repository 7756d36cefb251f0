#include "core/private/projection_quality.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/epsilon.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

using measures::Measure;

absl::Status CheckProjectionMeasure(Measure measure) {
  if (measure == Measure::kMinimalInconsistency ||
      measure == Measure::kProblematic) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Graph projection (Algorithm 2) releases I_MI or I_P, not "
                   "I_",
                   measures::MeasureName(measure), "."));
}

absl::StatusOr<int64_t> ProjectedStatistic(
    Measure measure, const graph::ProjectionCounts& counts) {
  RETURN_IF_ERROR(CheckProjectionMeasure(measure));
  if (measure == Measure::kMinimalInconsistency) {
    return static_cast<int64_t>(counts.edges);
  }
  return static_cast<int64_t>(counts.positive_degree_nodes);
}

absl::StatusOr<double> ProjectedStatisticSensitivity(Measure measure,
                                                     uint32_t theta) {
  RETURN_IF_ERROR(CheckProjectionMeasure(measure));
  // I_MI: paper Lemma 1. I_P: theta + 1, docs/privacy.md 6.1 (star graph).
  return measure == Measure::kMinimalInconsistency
             ? static_cast<double>(theta)
             : static_cast<double>(theta) + 1.0;
}

absl::StatusOr<double> QualitySensitivity(Measure measure, uint32_t theta_max) {
  RETURN_IF_ERROR(CheckProjectionMeasure(measure));
  if (theta_max == 0) {
    return absl::InvalidArgumentError("theta_max must be at least 1.");
  }
  // I_MI: paper Lemma 2. I_P: 2 * theta_max, docs/privacy.md 6.1.
  return measure == Measure::kMinimalInconsistency
             ? static_cast<double>(theta_max)
             : 2.0 * static_cast<double>(theta_max);
}

absl::StatusOr<std::vector<double>> ProjectionQualities(
    Measure measure, absl::Span<const uint32_t> thetas,
    absl::Span<const int64_t> statistics, uint32_t theta_max,
    double epsilon_release) {
  RETURN_IF_ERROR(CheckProjectionMeasure(measure));
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon_release, "Release epsilon"));
  if (thetas.size() != statistics.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Got ", thetas.size(), " candidates but ",
                     statistics.size(), " statistics."));
  }
  std::optional<int64_t> reference;
  for (size_t i = 0; i < thetas.size(); ++i) {
    if (thetas[i] == theta_max) reference = statistics[i];
  }
  if (!reference.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "theta_max = ", theta_max, " is not one of the candidates."));
  }
  std::vector<double> qualities;
  qualities.reserve(thetas.size());
  for (size_t i = 0; i < thetas.size(); ++i) {
    ASSIGN_OR_RETURN(const double delta_f,
                     ProjectedStatisticSensitivity(measure, thetas[i]));
    double q = -std::sqrt(2.0) * delta_f / epsilon_release;
    if (thetas[i] <= theta_max) {
      // e_bias relative to G_theta_max, not G, to bound the sensitivity
      // (paper eq. 3-4 and the remark before eq. 7).
      q -= static_cast<double>(*reference - statistics[i]);
    }
    qualities.push_back(q);
  }
  return qualities;
}

}  // namespace dpq::core::private_measures
