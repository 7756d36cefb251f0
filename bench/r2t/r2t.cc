#include "bench/r2t/r2t.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bench/r2t/laplace_noise.h"
#include "core/dp/epsilon.h"
#include "core/util/status_macros.h"

namespace dpq::bench::r2t {

absl::StatusOr<std::vector<double>> R2tThresholds(uint64_t global_sensitivity,
                                                  double base,
                                                  ThresholdRule rule) {
  if (!(base > 1) || !std::isfinite(base)) {
    return absl::InvalidArgumentError(
        absl::StrCat("R2T base must be finite and > 1, but is ", base, "."));
  }
  if (global_sensitivity == 0) {
    return absl::InvalidArgumentError(
        "R2T global sensitivity (public_max_rows) must be >= 1, but is 0.");
  }
  const double gs = static_cast<double>(global_sensitivity);
  // Each threshold costs an LP and eps / L of the budget; thousands of them
  // mean a base too close to 1 (a typo), not a useful experiment.
  constexpr double kMaxThresholds = 1000;
  if (std::log(gs) / std::log(base) > kMaxThresholds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "R2T base ", base, " needs more than ", kMaxThresholds,
        " thresholds to reach GS = ", global_sensitivity, "; use e.g. 2."));
  }
  std::vector<double> taus;
  double tau = base;
  taus.push_back(tau);
  if (rule == ThresholdRule::kCoverGs) {
    while (tau < gs) {
      tau *= base;
      taus.push_back(tau);
    }
    return taus;
  }
  // int(math.log(GS, base)), then "if max_i <= 1: max_i += 1".
  while (tau * base <= gs) {
    tau *= base;
    taus.push_back(tau);
  }
  if (taus.size() == 1) taus.push_back(tau * base);
  return taus;
}

absl::StatusOr<TruncatedCurve> ComputeTruncatedCurve(
    const core::graph::Graph& g, const R2tOptions& options) {
  if (g.num_nodes() > options.global_sensitivity) {
    return absl::FailedPreconditionError(absl::StrCat(
        "The graph has ", g.num_nodes(),
        " nodes, more than the global sensitivity bound N = ",
        options.global_sensitivity, "; pass a larger public_max_rows."));
  }
  TruncatedCurve curve;
  ASSIGN_OR_RETURN(curve.taus, R2tThresholds(options.global_sensitivity,
                                             options.base, options.rule));
  for (double tau : curve.taus) {
    ASSIGN_OR_RETURN(TruncatedCount c,
                     TruncatedEdgeCount(g, tau, options.solver));
    curve.seconds += c.stats.seconds;
    curve.counts.push_back(c);
  }
  return curve;
}

absl::StatusOr<R2tResult> RaceToTheTop(core::dp::SecureUrbg& urbg,
                                       const TruncatedCurve& curve,
                                       const R2tOptions& options) {
  RETURN_IF_ERROR(core::dp::ValidateEpsilon(options.epsilon));
  if (!(options.beta > 0 && options.beta < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("R2T beta must be in (0, 1), but is ", options.beta, "."));
  }
  if (curve.taus.empty() || curve.taus.size() != curve.counts.size()) {
    return absl::InvalidArgumentError("R2T needs at least one threshold.");
  }
  const double num_thresholds = static_cast<double>(curve.taus.size());
  const double shift_factor = std::log(num_thresholds / options.beta);
  R2tResult result;
  double best = 0;  // R2T also races Q(I, 0) = 0
  for (size_t j = 0; j < curve.taus.size(); ++j) {
    // Sensitivity tau_j, budget eps / L: scale L tau_j / eps.
    const double scale = num_thresholds * curve.taus[j] / options.epsilon;
    const double noisy = curve.counts[j].value + SampleLaplace(urbg, scale) -
                         scale * shift_factor;
    result.noisy.push_back(noisy);
    if (noisy > best) {
      best = noisy;
      result.chosen = static_cast<int>(j);
    }
  }
  result.estimate = best;
  return result;
}

}  // namespace dpq::bench::r2t
