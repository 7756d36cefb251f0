#include "core/private/gem_release.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/dp/generalized_exponential_mechanism.h"
#include "core/private/flow_extensions.h"
#include "core/private/noisy_count.h"
#include "core/private/release_interval.h"
#include "core/private/theta_candidates.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<GemRelease> ReleaseWithGem(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon,
    absl::Span<const DcDegreeBound> degree_bounds, const GemParameters& params,
    const util::StopFn& stop) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  RETURN_IF_ERROR(CheckSortedCandidates(candidates));
  GemRelease out;
  const dp::TwoParts split = dp::SplitEpsilon(epsilon, params.selection_share);
  out.epsilon_selection = split.first;
  out.epsilon_release = split.second;
  const bool prune = params.prune_by_degree_bound &&
                     DegreeBoundApplies(degree_bounds) &&
                     !HasUnkeyedDc(degree_bounds);
  if (prune) {
    const dp::TwoParts bound_split =
        dp::SplitEpsilon(out.epsilon_selection, params.degree_bound_share);
    out.epsilon_degree_bound = bound_split.first;
    out.epsilon_selection = bound_split.second;
    RETURN_IF_ERROR(
        dp::DiscreteLaplace::ForSensitivity(
            static_cast<double>(degree_bounds.size()), out.epsilon_degree_bound)
            .status());
  }

  // The largest release scale is checked before any noise is drawn.
  ASSIGN_OR_RETURN(const int64_t largest,
                   FlowExtensionSensitivity(measure, candidates.back()));
  RETURN_IF_ERROR(dp::DiscreteLaplace::ForSensitivity(
                      static_cast<double>(largest), out.epsilon_release)
                      .status());
  std::vector<uint32_t> thetas(candidates.begin(), candidates.end());
  if (prune) {
    ASSIGN_OR_RETURN(
        const uint32_t bound,
        NoisyDegreeBound(urbg, degree_bounds, out.epsilon_degree_bound,
                         candidates.back()));
    out.noisy_degree_bound = bound;
    // d~ clamped from above says nothing; the caller caps at N - 1.
    if (bound < candidates.back()) {
      ASSIGN_OR_RETURN(const dp::DiscreteLaplace bound_noise,
                       dp::DiscreteLaplace::ForSensitivity(
                           static_cast<double>(degree_bounds.size()),
                           out.epsilon_degree_bound));
      out.degree_upper = uint64_t{bound} + static_cast<uint64_t>(OneSidedMargin(
                                               bound_noise, kUpperBoundMiss));
    }
    std::vector<uint32_t> kept;
    for (uint32_t theta : candidates) {
      if (theta < bound) kept.push_back(theta);
    }
    kept.push_back(bound);  // <= candidates.back(), so sorted and unique
    thetas = std::move(kept);
  }
  out.num_candidates = thetas.size();

  // Public: sensitivities and costs.
  std::vector<int64_t> sensitivities;
  std::vector<double> costs;
  for (uint32_t theta : thetas) {
    ASSIGN_OR_RETURN(const int64_t delta,
                     FlowExtensionSensitivity(measure, theta));
    sensitivities.push_back(delta);
    costs.push_back(params.noise_cost * static_cast<double>(delta) /
                    out.epsilon_release);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> values,
                   FlowExtensionValues(g, measure, thetas, stop));
  // GEM refuses values above 2^61; clamping (1-Lipschitz, so the
  // sensitivities stand) keeps that refusal from depending on the data.
  // Unreachable in practice: f_theta <= n theta.
  for (int64_t& v : values) v = std::min(v, dp::kGemMaxValue);
  ASSIGN_OR_RETURN(
      const size_t chosen,
      dp::SampleGeneralizedExponentialMechanism(
          urbg, {values, sensitivities, costs}, out.epsilon_selection,
          prune ? params.beta : params.beta_unpruned));
  out.theta = thetas[chosen];
  ASSIGN_OR_RETURN(const NoisyCount noisy,
                   ReleaseNoisyCount(urbg, values[chosen],
                                     static_cast<double>(sensitivities[chosen]),
                                     out.epsilon_release));
  out.value = noisy.value;
  out.bound95 = noisy.bound95;
  out.noise_scale = noisy.scale;
  return out;
}

}  // namespace dpq::core::private_measures
