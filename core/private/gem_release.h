// The `gem` method for I_MI and I_P (the default): the flow Lipschitz
// extension f_theta (flow_extensions.h) at a degree bound theta chosen by
// the generalized exponential mechanism
// (core/dp/generalized_exponential_mechanism.h), then discrete Laplace
// noise of scale Delta_theta / eps2.
//
// Privacy: sequential composition of GEM (eps1-DP: the candidate values
// f_theta have sensitivities Delta_theta = theta, resp. theta + 1, by
// flow_extensions.h (d)) and the release (eps2-DP for the chosen theta).
// eps1 + eps2 <= epsilon exactly (dp::SplitEpsilon).
//
// Pruning by the degree bound: when every DC is keyed (degree_bound.h), a
// part eps0 of eps1 buys the paper's noisy degree bound d~ (Algorithm 4
// line 3, eps0-DP), and GEM runs with eps1 - eps0 over the candidates
// <= d~ plus d~ itself (post-processing of d~). Why: GEM gives every
// candidate weight at least about beta / k, so without it a sparse graph
// gets a theta in the thousands (noise far above the measure) in a few
// percent of releases; d~ bounds the maximum degree (every conflict of a
// keyed DC is inside one key group), so the worst choice stays near it.
// Not done when some DC is unkeyed: d~ then bounds nothing.
//
// What it estimates: f_theta(G) <= f(G), with equality when theta is at
// least the largest degree; the released value is that lower bound plus
// unbiased noise.
#ifndef DPQ_CORE_PRIVATE_GEM_RELEASE_H_
#define DPQ_CORE_PRIVATE_GEM_RELEASE_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/util/stop.h"

namespace dpq::core::private_measures {

// The tuning of the method (public constants; the defaults are what the
// service uses, chosen by measurement: docs/experiments.md, "Tuning gem",
// 72 settings on eight real graphs at epsilon 1). With the degree-bound
// pruning the worst choice is bounded, so a large beta (a less
// conservative t) pays: worst median error 0.26 over the graphs and both
// measures, against 0.59 for the best setting without pruning and 0.82
// for the first guess. Without pruning (some DC unkeyed) a large beta
// gives far misses (thetas in the thousands on sparse graphs), so beta
// stays 0.1 there. beta only shapes utility: the privacy proof holds for
// any t >= 0, and which beta applies depends on the DCs only (public).
struct GemParameters {
  // Share of epsilon spent on choosing theta (the rest buys the release).
  double selection_share = 0.4;
  // GEM's failure probability beta (sets t = 2 ln(k / beta) / eps1), with
  // and without the degree-bound pruning.
  double beta = 0.6;
  double beta_unpruned = 0.1;
  // The public cost of candidate theta is noise_cost * Delta_theta / eps2
  // (1 = the expected absolute noise of its release), so GEM trades the
  // truncation loss f(G) - f_theta(G) against the noise.
  double noise_cost = 1.0;
  // Prune the candidates by the noisy degree bound when every DC is keyed
  // (see above), spending this share of eps1 on it.
  bool prune_by_degree_bound = true;
  double degree_bound_share = 0.25;
};

struct GemRelease {
  uint32_t theta = 0;               // the chosen degree bound
  int64_t value = 0;                // f_theta(G) + noise
  int64_t bound95 = 0;              // 95% bound of |noise|
  double noise_scale = 0;           // the release noise's scale
  double epsilon_degree_bound = 0;  // eps0 (0 when not pruned)
  double epsilon_selection = 0;     // GEM's
  double epsilon_release = 0;
  // d~ when the candidates were pruned by it.
  std::optional<uint32_t> noisy_degree_bound;
  // With d~ (every DC keyed): the largest degree is at most the sum of the
  // DCs' d_bound, so at most d~ + m (m the 0.75% margin of d~'s noise,
  // release_interval.h) with probability >= 99.25%. Not set when d~ was
  // clamped at the largest candidate.
  std::optional<uint64_t> degree_upper;
  size_t num_candidates = 0;  // after pruning
};

// Releases I_MI or I_P of `g` with the gem method over `candidates`
// (strictly ascending, >= 1; CheckSortedCandidates), pruned by the degree
// bound when `degree_bounds` (ComputeDegreeBounds for the graph's DCs;
// empty = unknown) are all keyed. epsilon-DP under node DP. kInvalidArgument
// for another measure, bad candidates or epsilon, or a noise scale the discrete
// Laplace cannot represent (checked for the largest candidate before any noise
// is drawn). util::StoppedError() once `stop` says so (polled during the flow
// sweep, FlowExtensionValues).
absl::StatusOr<GemRelease> ReleaseWithGem(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    absl::Span<const uint32_t> candidates, double epsilon,
    absl::Span<const DcDegreeBound> degree_bounds = {},
    const GemParameters& params = {}, const util::StopFn& stop = {});

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_GEM_RELEASE_H_
