#include "core/dp/exponential_mechanism.h"

#include <cmath>
#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/dp/epsilon.h"
#include "core/dp/scaled_gap.h"
#include "core/dp/secure_urbg.h"
#include "core/dp/selection_gap.h"
#include "core/util/status_macros.h"

namespace dpq::core::dp {
namespace {

absl::Status ValidateInputs(absl::Span<const double> qualities, double epsilon,
                            double sensitivity) {
  RETURN_IF_ERROR(ValidateEpsilon(epsilon));
  RETURN_IF_ERROR(ValidateSensitivity(sensitivity));
  if (qualities.empty()) {
    return absl::InvalidArgumentError(
        "The exponential mechanism needs at least one candidate, but the "
        "list of qualities is empty.");
  }
  for (size_t i = 0; i < qualities.size(); ++i) {
    if (!std::isfinite(qualities[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Quality ", i, " must be finite, but is ", qualities[i], "."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<double>> ExponentialMechanismProbabilities(
    absl::Span<const double> qualities, double epsilon, double sensitivity) {
  RETURN_IF_ERROR(ValidateInputs(qualities, epsilon, sensitivity));
  // McSherry and Talwar (FOCS 2007): P(i) proportional to
  // exp(eps q_i / (2 Delta)). Dividing every weight by that of the best
  // candidate (log-sum-exp shift) keeps the weights in [0, 1] with at least
  // one equal to 1, so the sum is in [1, n]: no overflow, no 0/0.
  double max_quality = qualities[0];
  for (double q : qualities) max_quality = q > max_quality ? q : max_quality;
  std::vector<double> weights(qualities.size());
  double total = 0;
  for (size_t i = 0; i < qualities.size(); ++i) {
    // Log-weight eps (q_i - q_max) / (2 Delta) <= 0. Halving before the
    // subtraction keeps the gap finite for any finite qualities.
    const double half_gap = max_quality / 2 - qualities[i] / 2;
    weights[i] = std::exp(-ScaledGap(half_gap, epsilon, sensitivity));
    total += weights[i];
  }
  for (double& w : weights) w /= total;
  return weights;
}

absl::StatusOr<size_t> SampleExponentialMechanism(
    SecureUrbg& urbg, absl::Span<const double> qualities, double epsilon,
    double sensitivity) {
  ASSIGN_OR_RETURN(const std::vector<SelectionGap> gaps,
                   SelectionGaps(qualities, epsilon, sensitivity));
  // Exact rejection sampling: propose r uniformly, accept it with
  // probability exp(-gamma_r). An accepted r has probability proportional
  // to exp(-gamma_r), exactly (selection_gap.h). Each round accepts with
  // probability sum_r exp(-gamma_r) / n >= 1 / n (the best candidate has
  // gamma 0), so the expected number of rounds is at most n.
  for (;;) {
    const size_t r = urbg.UniformBelow(gaps.size());
    if (SampleBernoulliExpGap(gaps[r], urbg)) return r;
  }
}

}  // namespace dpq::core::dp
