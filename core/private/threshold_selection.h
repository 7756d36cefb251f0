// DP selection of the edge-addition threshold theta* (paper Algorithm 2 line
// 2): the basic exponential mechanism (Algorithm 3), the two-step
// hierarchical EM (Algorithm 4 lines 6-10) and the full optimized EM with
// the DC degree bound (Algorithm 4).
//
// Every function here is epsilon-DP for the epsilon it reports spending
// (sequential composition of its steps, paper Theorem 4), given that the
// candidate set and `epsilon_release` are public. The qualities are those of
// projection_quality.h; the EM samples with probability proportional to
// exp(eps * q / (2 * Delta_q)) (docs/privacy.md 4.3).
//
// Complexity: one edge-addition pass per candidate below the graph's maximum
// degree, O(|Theta| * (n + m)); candidates at or above it are free.
#ifndef DPQ_CORE_PRIVATE_THRESHOLD_SELECTION_H_
#define DPQ_CORE_PRIVATE_THRESHOLD_SELECTION_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"

namespace dpq::core::private_measures {

// Fraction of Algorithm 4's selection budget eps1 spent on the degree bound
// (Algorithm 4 line 2: eps0 = eps1 / 4).
inline constexpr double kDegreeBoundShare = 0.25;

struct ThresholdSelection {
  uint32_t theta = 0;  // theta*, the selected threshold
  // The first step's output theta1* (hierarchical and optimized).
  std::optional<uint32_t> first_step_theta;
  // The clamped noisy degree bound d~ (optimized, when the DCs qualify).
  std::optional<uint32_t> noisy_degree_bound;
  double epsilon_degree_bound = 0;  // eps0 (0 unless the bound was used)
  double epsilon_selection = 0;     // spent by the EM step(s)
  size_t num_candidates = 0;        // |Theta| as given
};

// Algorithm 3: one EM over `candidates` with epsilon `epsilon_selection`,
// theta_max = max(Theta), quality sensitivity QualitySensitivity(theta_max).
// `candidates` must satisfy CheckSortedCandidates; `measure` must be I_MI or
// I_P; `epsilon_release` (eps2) only shapes the quality. kInvalidArgument
// otherwise.
absl::StatusOr<ThresholdSelection> SelectThresholdBasic(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon_selection,
    double epsilon_release);

// Algorithm 4 without lines 1-5 (the paper's "hierarchical EM" variant):
// step 1 is an EM over Theta with theta_max = max(Theta) and
// epsilon_selection / 2; then Theta <- {theta <= theta1*} and theta_max <-
// theta1*, the qualities are recomputed (bias now relative to G_theta1*),
// and step 2 is an EM with epsilon_selection / 2 and sensitivity for
// theta1* (paper Lemma 4). Note: the paper's Table 4 drops theta1* itself
// in step 2; we follow Algorithm 4 line 9, which keeps it (otherwise step 2
// could have no candidate). Preconditions as for SelectThresholdBasic.
absl::StatusOr<ThresholdSelection> SelectThresholdHierarchical(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon_selection,
    double epsilon_release);

// Full Algorithm 4. If DegreeBoundApplies(degree_bounds):
//   eps0 = epsilon_selection / 4 buys d~ = NoisyDegreeBound(...) in
//   [1, max_rows]; Theta <- {theta <= d~} u {d~} u ({max_rows} if
//   HasUnkeyedDc, paper eq. 12); theta_max = d~ (line 5; the candidate N
//   has a data-independent quality, Lemma 4's proof); then the hierarchical
//   EM with (epsilon_selection - eps0) / 2 per step.
// Otherwise it is exactly SelectThresholdHierarchical (no bound, no eps0).
// Note (a property of Algorithm 4, kept as published): in step 1 the
// candidate N has no bias term but a larger noise term than d~, whose bias
// is 0 by definition, so N is always dominated by d~ and is chosen only by
// the EM's randomness, even when d~ underestimates the maximum degree.
// `degree_bounds` is ComputeDegreeBounds for the DCs the graph was built
// from (empty = unknown, no bound). `max_rows` is N >= g.num_nodes().
absl::StatusOr<ThresholdSelection> SelectThresholdOptimized(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> candidates, uint32_t max_rows,
    absl::Span<const DcDegreeBound> degree_bounds, double epsilon_selection,
    double epsilon_release);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_THRESHOLD_SELECTION_H_
