#include "core/private/threshold_selection.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/dp/budget_split.h"
#include "core/dp/epsilon.h"
#include "core/dp/exponential_mechanism.h"
#include "core/graph/edge_addition.h"
#include "core/private/projection_quality.h"
#include "core/private/theta_candidates.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

// Candidates (ascending) with their statistics f(G_theta).
struct Profile {
  std::vector<uint32_t> thetas;
  std::vector<int64_t> statistics;
};

absl::StatusOr<Profile> ComputeProfile(const graph::Graph& g, Measure measure,
                                       std::vector<uint32_t> thetas) {
  Profile p;
  const std::vector<graph::ProjectionCounts> counts =
      graph::EdgeAdditionCountsForEach(g, thetas);
  p.statistics.reserve(counts.size());
  for (const graph::ProjectionCounts& c : counts) {
    ASSIGN_OR_RETURN(const int64_t f, ProjectedStatistic(measure, c));
    p.statistics.push_back(f);
  }
  p.thetas = std::move(thetas);
  return p;
}

// The candidates of `p` that are <= limit (Algorithm 4 line 9).
Profile Prefix(const Profile& p, uint32_t limit) {
  const size_t end = static_cast<size_t>(
      std::upper_bound(p.thetas.begin(), p.thetas.end(), limit) -
      p.thetas.begin());
  Profile out;
  out.thetas.assign(p.thetas.begin(), p.thetas.begin() + end);
  out.statistics.assign(p.statistics.begin(), p.statistics.begin() + end);
  return out;
}

// One exponential mechanism over all of `p` with reference theta_max:
// epsilon-DP since QualitySensitivity(theta_max) bounds every quality's
// change (paper Lemma 2 / Lemma 4; docs/privacy.md 6.1 for I_P).
absl::StatusOr<uint32_t> ExponentialMechanismStep(
    dp::SecureUrbg& urbg, Measure measure, const Profile& p, uint32_t theta_max,
    double epsilon, double epsilon_release) {
  ASSIGN_OR_RETURN(const std::vector<double> qualities,
                   ProjectionQualities(measure, p.thetas, p.statistics,
                                       theta_max, epsilon_release));
  ASSIGN_OR_RETURN(const double sensitivity,
                   QualitySensitivity(measure, theta_max));
  ASSIGN_OR_RETURN(
      const size_t index,
      dp::SampleExponentialMechanism(urbg, qualities, epsilon, sensitivity));
  return p.thetas[index];
}

// Algorithm 4 lines 6-10 with `epsilon_per_step` per step, starting from
// the reference theta_max. Fills theta and first_step_theta.
absl::Status TwoStepExponentialMechanism(dp::SecureUrbg& urbg, Measure measure,
                                         const Profile& p, uint32_t theta_max,
                                         double epsilon_per_step,
                                         double epsilon_release,
                                         ThresholdSelection& out) {
  ASSIGN_OR_RETURN(const uint32_t first,
                   ExponentialMechanismStep(urbg, measure, p, theta_max,
                                            epsilon_per_step, epsilon_release));
  // Step 2: prune to theta <= theta1* and use theta1* as theta_max. The
  // pruning depends only on the DP output theta1* (post-processing).
  ASSIGN_OR_RETURN(
      const uint32_t second,
      ExponentialMechanismStep(urbg, measure, Prefix(p, first), first,
                               epsilon_per_step, epsilon_release));
  out.first_step_theta = first;
  out.theta = second;
  return absl::OkStatus();
}

absl::Status ValidateSelectionInputs(Measure measure,
                                     absl::Span<const uint32_t> candidates,
                                     double epsilon_selection,
                                     double epsilon_release) {
  RETURN_IF_ERROR(CheckProjectionMeasure(measure));
  RETURN_IF_ERROR(CheckSortedCandidates(candidates));
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon_selection, "Selection epsilon"));
  return dp::ValidateEpsilon(epsilon_release, "Release epsilon");
}

// The common start of Algorithms 3 and 4 (without the degree bound): the
// inputs checked, then f(G_theta) for every candidate.
absl::StatusOr<Profile> StartSelection(const graph::Graph& g, Measure measure,
                                       absl::Span<const uint32_t> candidates,
                                       double epsilon_selection,
                                       double epsilon_release) {
  RETURN_IF_ERROR(ValidateSelectionInputs(measure, candidates,
                                          epsilon_selection, epsilon_release));
  return ComputeProfile(
      g, measure, std::vector<uint32_t>(candidates.begin(), candidates.end()));
}

}  // namespace

absl::StatusOr<ThresholdSelection> SelectThresholdBasic(
    dp::SecureUrbg& urbg, const graph::Graph& g, Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon_selection,
    double epsilon_release) {
  ASSIGN_OR_RETURN(const Profile p,
                   StartSelection(g, measure, candidates, epsilon_selection,
                                  epsilon_release));
  ThresholdSelection out;
  out.num_candidates = candidates.size();
  out.epsilon_selection = epsilon_selection;
  // Algorithm 3: theta_max = max(Theta).
  ASSIGN_OR_RETURN(
      out.theta, ExponentialMechanismStep(urbg, measure, p, p.thetas.back(),
                                          epsilon_selection, epsilon_release));
  return out;
}

absl::StatusOr<ThresholdSelection> SelectThresholdHierarchical(
    dp::SecureUrbg& urbg, const graph::Graph& g, Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon_selection,
    double epsilon_release) {
  ASSIGN_OR_RETURN(const Profile p,
                   StartSelection(g, measure, candidates, epsilon_selection,
                                  epsilon_release));
  ThresholdSelection out;
  out.num_candidates = candidates.size();
  out.epsilon_selection = epsilon_selection;
  // Two steps with half the budget each: eps1 by sequential composition.
  RETURN_IF_ERROR(TwoStepExponentialMechanism(
      urbg, measure, p, p.thetas.back(), dp::EqualPart(epsilon_selection, 2),
      epsilon_release, out));
  return out;
}

absl::StatusOr<ThresholdSelection> SelectThresholdOptimized(
    dp::SecureUrbg& urbg, const graph::Graph& g, Measure measure,
    absl::Span<const uint32_t> candidates, uint32_t max_rows,
    absl::Span<const DcDegreeBound> degree_bounds, double epsilon_selection,
    double epsilon_release) {
  if (!DegreeBoundApplies(degree_bounds)) {
    return SelectThresholdHierarchical(urbg, g, measure, candidates,
                                       epsilon_selection, epsilon_release);
  }
  RETURN_IF_ERROR(ValidateSelectionInputs(measure, candidates,
                                          epsilon_selection, epsilon_release));
  RETURN_IF_ERROR(CheckRowsWithinPublicMax(g.num_nodes(), max_rows));
  if (candidates.back() > max_rows) {
    return absl::InvalidArgumentError(
        "Every candidate theta must be at most public_max_rows.");
  }
  ThresholdSelection out;
  out.num_candidates = candidates.size();
  // Algorithm 4 line 2.
  const dp::TwoParts split =
      dp::SplitEpsilon(epsilon_selection, kDegreeBoundShare);
  out.epsilon_degree_bound = split.first;
  out.epsilon_selection = split.second;
  // Line 3 (one noise draw for the sum, see NoisyDegreeBound).
  ASSIGN_OR_RETURN(const uint32_t bound,
                   NoisyDegreeBound(urbg, degree_bounds,
                                    out.epsilon_degree_bound, max_rows));
  out.noisy_degree_bound = bound;
  // Line 4 and eq. (12): keep theta <= d~, add d~, and add N when some DC
  // is not covered by the bound.
  std::vector<uint32_t> pruned;
  for (uint32_t theta : candidates) {
    if (theta <= bound) pruned.push_back(theta);
  }
  pruned.push_back(bound);
  if (HasUnkeyedDc(degree_bounds)) pruned.push_back(max_rows);
  std::sort(pruned.begin(), pruned.end());
  pruned.erase(std::unique(pruned.begin(), pruned.end()), pruned.end());
  ASSIGN_OR_RETURN(const Profile p,
                   ComputeProfile(g, measure, std::move(pruned)));
  // Line 5: theta_max = min(d~, N) = d~ (already clamped). The candidate N
  // above it gets a data-independent quality (Lemma 4's proof).
  RETURN_IF_ERROR(TwoStepExponentialMechanism(
      urbg, measure, p, bound, dp::EqualPart(out.epsilon_selection, 2),
      epsilon_release, out));
  return out;
}

}  // namespace dpq::core::private_measures
