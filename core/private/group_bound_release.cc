#include "core/private/group_bound_release.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/private/flow_extensions.h"
#include "core/private/noisy_count.h"
#include "core/private/release_interval.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

// The small theta I_P may take instead of B~ (see the header).
constexpr uint32_t kUncoveredTheta = 2;

// The epsilon parts; their exact sum is at most epsilon.
struct Budget {
  double group_bound = 0, uncovered = 0, scale = 0, release = 0;
};

// Takes `share` of `whole` off `*rest` (shares are of the whole epsilon).
double Take(double whole, double share, double* rest) {
  const dp::TwoParts parts =
      dp::SplitEpsilon(*rest, std::min(1.0, share * whole / *rest));
  *rest = parts.second;
  return parts.first;
}

Budget SplitBudget(Measure measure, double epsilon,
                   const GroupBoundParameters& params) {
  Budget b;
  double rest = epsilon;
  b.group_bound = Take(epsilon, params.bound_share, &rest);
  if (measure == Measure::kProblematic) {
    b.uncovered = Take(epsilon, params.uncovered_share, &rest);
  }
  if (measure == Measure::kMinimalInconsistency) {
    b.scale = Take(epsilon, params.scale_share, &rest);
  }
  b.release = rest;
  return b;
}

// The discrete Laplace of sensitivity Delta_theta at `epsilon`.
absl::StatusOr<dp::DiscreteLaplace> FlowNoise(Measure measure, uint32_t theta,
                                              double epsilon) {
  ASSIGN_OR_RETURN(const int64_t sensitivity,
                   FlowExtensionSensitivity(measure, theta));
  return dp::DiscreteLaplace::ForSensitivity(static_cast<double>(sensitivity),
                                             epsilon);
}

// f_theta(G) + DiscreteLaplace(Delta_theta / epsilon): epsilon-DP.
absl::StatusOr<NoisyCount> NoisyFlow(dp::SecureUrbg& urbg,
                                     const graph::Graph& g, Measure measure,
                                     uint32_t theta, double epsilon,
                                     const util::StopFn& stop) {
  ASSIGN_OR_RETURN(const std::vector<int64_t> f,
                   FlowExtensionValues(g, measure, {theta}, stop));
  ASSIGN_OR_RETURN(const int64_t sensitivity,
                   FlowExtensionSensitivity(measure, theta));
  return ReleaseNoisyCount(urbg, f[0], static_cast<double>(sensitivity),
                           epsilon);
}

// Step 1: B~ = clamp(B + Z_b, 1, N).
uint32_t NoisyGroupBound(dp::SecureUrbg& urbg, const dp::DiscreteLaplace& noise,
                         uint64_t largest, uint32_t max_rows) {
  const int64_t noisy = SaturatingAdd(
      static_cast<int64_t>(std::min<uint64_t>(largest, UINT32_MAX)),
      noise.Sample(urbg));
  return static_cast<uint32_t>(
      std::clamp<int64_t>(noisy, 1, static_cast<int64_t>(max_rows)));
}

// Delta <= W (B + ...) <= W (B~ + m_b), capped at max(1, N - 1).
uint64_t DegreeUpper(absl::Span<const DcDegreeBound> degree_bounds,
                     uint32_t degree_keys, uint32_t noisy_bound,
                     const dp::DiscreteLaplace& noise, uint32_t max_rows) {
  uint64_t keys = degree_keys;
  if (keys == 0) {
    for (const DcDegreeBound& b : degree_bounds) {
      keys += b.keyed ? 1 : (b.cross_keyed ? 2 : 0);
    }
  }
  const uint64_t b_upper =
      uint64_t{noisy_bound} +
      static_cast<uint64_t>(OneSidedMargin(noise, kUpperBoundMiss));
  const uint64_t cap = std::max<uint64_t>(1, uint64_t{max_rows} - 1);
  // keys <= 2 #DCs and b_upper < 2^33: the product fits easily.
  return std::min(cap, keys * b_upper);
}

// Step 2 (I_P): U~.
absl::StatusOr<int64_t> NoisyUncovered(dp::SecureUrbg& urbg,
                                       const graph::Graph& g,
                                       const dp::DiscreteLaplace& noise,
                                       const util::StopFn& stop) {
  ASSIGN_OR_RETURN(
      const std::vector<int64_t> covered,
      FlowExtensionValues(g, Measure::kProblematic, {kUncoveredTheta}, stop));
  const int64_t uncovered = static_cast<int64_t>(g.num_nodes()) - covered[0];
  return SaturatingAdd(uncovered, noise.Sample(urbg));
}

// Step 3: a lower confidence bound (miss scale_miss) of the I_MI flow
// extension at theta, released with sensitivity theta at eps_s: how large
// the graph is against theta.
absl::StatusOr<double> EdgeScale(dp::SecureUrbg& urbg, const graph::Graph& g,
                                 uint32_t theta, double epsilon,
                                 const GroupBoundParameters& params,
                                 const util::StopFn& stop) {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise,
                   FlowNoise(Measure::kMinimalInconsistency, theta, epsilon));
  ASSIGN_OR_RETURN(
      const NoisyCount noisy,
      NoisyFlow(urbg, g, Measure::kMinimalInconsistency, theta, epsilon, stop));
  return static_cast<double>(
      SaturatingAdd(noisy.value, -OneSidedMargin(noise, params.scale_miss)));
}

}  // namespace

bool GroupBoundApplies(Measure measure,
                       absl::Span<const DcDegreeBound> degree_bounds) {
  if (measure == Measure::kProblematic) {
    return !degree_bounds.empty() && !HasUnkeyedDc(degree_bounds);
  }
  return EveryDcBounded(degree_bounds);
}

absl::StatusOr<GroupBoundRelease> ReleaseWithGroupBound(
    dp::SecureUrbg& urbg, const graph::Graph& g, Measure measure,
    double epsilon, uint32_t max_rows,
    absl::Span<const DcDegreeBound> degree_bounds, uint32_t degree_keys,
    const GroupBoundParameters& params, const util::StopFn& stop) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  if (measure != Measure::kMinimalInconsistency &&
      measure != Measure::kProblematic) {
    return absl::InvalidArgumentError("group_bound releases I_MI or I_P only.");
  }
  if (!GroupBoundApplies(measure, degree_bounds)) {
    return absl::InvalidArgumentError(
        measure == Measure::kProblematic
            ? "group_bound for I_P needs every DC to have a same-column "
              "equality (t1.A = t2.A)."
            : "group_bound for I_MI needs every DC to have an equality "
              "between the tuples (t1.A = t2.A or t1.A = t2.B).");
  }
  if (max_rows == 0) {
    return absl::InvalidArgumentError("public_max_rows must be at least 1.");
  }
  const Budget budget = SplitBudget(measure, epsilon, params);
  GroupBoundRelease out;
  out.epsilon_group_bound = budget.group_bound;
  out.epsilon_uncovered = budget.uncovered;
  out.epsilon_scale = budget.scale;
  out.epsilon_release = budget.release;
  // Every scale is checked before any noise is drawn (theta <= N).
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace bound_noise,
                   dp::DiscreteLaplace::ForSensitivity(1, budget.group_bound));
  RETURN_IF_ERROR(FlowNoise(measure, max_rows, budget.release).status());
  if (budget.scale > 0) {
    RETURN_IF_ERROR(FlowNoise(measure, max_rows, budget.scale).status());
  }
  std::optional<dp::DiscreteLaplace> uncovered_noise;
  if (measure == Measure::kProblematic) {
    ASSIGN_OR_RETURN(uncovered_noise, dp::DiscreteLaplace::ForSensitivity(
                                          kUncoveredTheta, budget.uncovered));
  }

  out.noisy_group_bound = NoisyGroupBound(
      urbg, bound_noise, LargestDegreeBound(degree_bounds), max_rows);
  out.theta = out.noisy_group_bound;
  const uint32_t group_theta = out.theta;
  out.degree_upper = DegreeUpper(degree_bounds, degree_keys,
                                 out.noisy_group_bound, bound_noise, max_rows);
  if (uncovered_noise.has_value()) {
    ASSIGN_OR_RETURN(const int64_t noisy,
                     NoisyUncovered(urbg, g, *uncovered_noise, stop));
    // theta = 2 when U~ (an estimate of a bound on its bias) is below the
    // noise it saves against theta = B~ (scales 3 / eps_r and (B~ + 1) /
    // eps_r). A comparison of DP outputs and public values:
    // post-processing, whatever its rounding. The interval uses U~ + m_u.
    const double saved =
        (static_cast<double>(group_theta) - 2.0) / budget.release;
    if (static_cast<double>(noisy) <= saved) out.theta = kUncoveredTheta;
    // n <= U + F_2 <= U + F_theta needs theta >= 2.
    if (out.theta >= kUncoveredTheta) {
      out.uncovered_upper = SaturatingAdd(
          noisy, OneSidedMargin(*uncovered_noise, kUpperBoundMiss));
    }
  }
  const uint32_t theta2 = static_cast<uint32_t>(*out.degree_upper);
  if (measure == Measure::kMinimalInconsistency && theta2 > group_theta) {
    // Escalate when theta2's extra noise is a small share of the edges.
    ASSIGN_OR_RETURN(const double scale, EdgeScale(urbg, g, group_theta,
                                                   budget.scale, params, stop));
    const double extra_noise =
        static_cast<double>(theta2 - group_theta) / budget.release;
    if (scale >= params.escalation_factor * extra_noise) out.theta = theta2;
  }

  ASSIGN_OR_RETURN(
      const NoisyCount noisy,
      NoisyFlow(urbg, g, measure, out.theta, out.epsilon_release, stop));
  out.value = noisy.value;
  out.bound95 = noisy.bound95;
  out.noise_scale = noisy.scale;
  return out;
}

double GroupBoundReleaseEpsilon(Measure measure, double epsilon,
                                const GroupBoundParameters& params) {
  return SplitBudget(measure, epsilon, params).release;
}

}  // namespace dpq::core::private_measures
