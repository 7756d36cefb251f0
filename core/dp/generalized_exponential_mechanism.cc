#include "core/dp/generalized_exponential_mechanism.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/epsilon.h"
#include "core/dp/exponential_mechanism.h"
#include "core/util/status_macros.h"

namespace dpq::core::dp {
namespace {

constexpr int64_t kMaxAbsValue = kGemMaxValue;

absl::Status ValidateCandidates(const GemCandidates& c, double t) {
  if (c.values.empty()) {
    return absl::InvalidArgumentError("GEM needs at least one candidate.");
  }
  if (c.sensitivities.size() != c.values.size() ||
      c.costs.size() != c.values.size()) {
    return absl::InvalidArgumentError("GEM candidate arrays differ in size.");
  }
  if (!std::isfinite(t) || t < 0) {
    return absl::InvalidArgumentError("GEM threshold must be finite, >= 0.");
  }
  for (size_t i = 0; i < c.values.size(); ++i) {
    if (c.sensitivities[i] < 1 || c.sensitivities[i] > kMaxAbsValue) {
      return absl::InvalidArgumentError(
          "GEM sensitivities must be in [1, 2^61].");
    }
    if (c.values[i] > kMaxAbsValue || c.values[i] < -kMaxAbsValue) {
      return absl::InvalidArgumentError("GEM values must be within 2^61.");
    }
    if (!std::isfinite(c.costs[i])) {
      return absl::InvalidArgumentError("GEM costs must be finite.");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<double> GemThreshold(size_t k, double beta, double epsilon) {
  RETURN_IF_ERROR(ValidateEpsilon(epsilon, "GEM epsilon"));
  if (k == 0) return absl::InvalidArgumentError("GEM needs a candidate.");
  if (!(beta > 0 && beta < 1)) {
    return absl::InvalidArgumentError("GEM beta must be in (0, 1).");
  }
  return 2.0 * std::log(static_cast<double>(k) / beta) / epsilon;
}

absl::StatusOr<std::vector<double>> GemScores(const GemCandidates& c,
                                              double t) {
  RETURN_IF_ERROR(ValidateCandidates(c, t));
  const size_t k = c.values.size();
  std::vector<double> a(k);
  for (size_t i = 0; i < k; ++i) {
    a[i] = c.costs[i] + t * static_cast<double>(c.sensitivities[i]);
  }
  std::vector<double> scores(k, 0.0);
  for (size_t i = 0; i < k; ++i) {
    double s = 0;  // the term j = i
    for (size_t j = 0; j < k; ++j) {
      if (j == i) continue;
      // Exact in int64 (both within 2^62), one rounding to double.
      const double data = static_cast<double>(c.values[j] - c.values[i]);
      const double term =
          (data + (a[i] - a[j])) /
          static_cast<double>(c.sensitivities[i] + c.sensitivities[j]);
      s = std::max(s, term);
    }
    scores[i] = std::min(s, kGemScoreCap);
  }
  return scores;
}

absl::StatusOr<size_t> SampleGeneralizedExponentialMechanism(
    SecureUrbg& urbg, const GemCandidates& candidates, double epsilon,
    double beta) {
  ASSIGN_OR_RETURN(const double t,
                   GemThreshold(candidates.values.size(), beta, epsilon));
  ASSIGN_OR_RETURN(std::vector<double> scores, GemScores(candidates, t));
  // The exponential mechanism maximises: quality = -score.
  for (double& s : scores) s = -s;
  return SampleExponentialMechanism(urbg, scores, epsilon,
                                    kGemScoreSensitivity);
}

}  // namespace dpq::core::dp
