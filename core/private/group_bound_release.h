// The `group_bound` method for I_MI and I_P, the default wherever every DC
// is keyed (has a same-column equality t1.X = t2.X) or, for I_MI,
// cross-keyed (a cross-column equality t1.A = t2.B, degree_bound.h; see
// GroupBoundApplies): the flow Lipschitz
// extension f_theta (flow_extensions.h) at theta = a noisy size of the
// largest key group, with no selection among candidates; for I_P theta = 2
// instead when a noisy count shows that f_2 already covers nearly every row.
//
// Why not a selection (docs/experiments.md "Small sparse tables"): the
// commonest error pattern, one typo row in a key group of size s, makes a
// star of degree s - 1, and a star is counted in full only at theta >= s -
// 1. Comparing f_theta across candidates costs noise of the scale of theta
// per unit of epsilon (GEM's normalised scores, the plain EM's theta_max),
// while on a table of 1,000-3,000 rows the whole measure is only 10-40
// times the largest degree: GEM then picks theta = 1-5 about half the time
// and undercounts 2-35x. The largest key group instead has sensitivity 1,
// so its noisy size costs noise of about 1 / eps_b, and it bounds the
// degree through any one key: on FD tables the largest degree and the
// largest group are within a factor 2 of each other (measured), and a
// theta a little below a star's degree loses only the difference.
//
// Steps, with epsilon split into eps_b + eps_u + eps_s + eps_r (eps_u = 0
// for I_MI, eps_s = 0 for I_P; GroupBoundParameters):
//  1. B~ = clamp(B + Z_b, 1, N), B = LargestDegreeBound (the largest key
//     group minus one, or a cross-keyed DC's largest value count c;
//     sensitivity 1), Z_b ~ DiscreteLaplace(1 / eps_b): eps_b-DP.
//  2. I_P only: U~ = (n - F_2(G)) + Z_u, Z_u ~ DiscreteLaplace(2 / eps_u):
//     eps_u-DP. Sensitivity 2: adding a node raises n by 1 and F_2 by 0 to
//     3 (F_2 is monotone with Lipschitz constant theta + 1 = 3,
//     flow_extensions.h (d)), so n - F_2 moves by 1 - {0, ..., 3}, within
//     [-2, 1]; removing one is the reverse. Brute-forced in
//     group_bound_release_test.cc on every graph up to 7 nodes. theta = 2
//     when U~ <= (B~ - 2) / eps_r: the undercount of f_2 is at most
//     n - F_2, so theta = 2 is taken when (an estimate of) its bias bound
//     is below the noise it saves against theta = B~ (scales 3 / eps_r
//     and (B~ + 1) / eps_r). It pays on tables where
//     nearly every row conflicts (Hospital dirty: F_2 = I_P = n).
//     Otherwise theta = B~.
//  3. I_MI only, when theta2 = degree_upper (below) exceeds B~: S~ =
//     f_B~(G) + DiscreteLaplace(B~ / eps_s), eps_s-DP (the flow extension
//     at the released B~ has sensitivity B~). If S~ minus its 5% margin is
//     at least escalation_factor times theta2's extra noise (theta2 - B~) /
//     eps_r, theta = theta2: the graph is large enough that the bias of B~
//     matters more than theta2's noise (Tax 10k), and theta2 cuts nothing
//     with probability >= 99.25%.
//  4. value = f_theta(G) + DiscreteLaplace(Delta_theta / eps_r), Delta_theta
//     = theta (I_MI) or theta + 1 (I_P): eps_r-DP for the theta of steps 1-3
//     (post-processing of their outputs).
// Sequential composition: eps_b + eps_u + eps_s + eps_r <= epsilon exactly
// (dp::SplitEpsilon).
//
// What the interval may use (release_interval.h), both post-processing:
//  - degree_upper: the largest degree is at most the sum over the minimal
//    keys of their largest group minus one, plus 2 c per cross-column pair
//    (degree_bound.h CountDegreeKeys: W groups), so at most W (B~ + m_b) with
//    probability >= 1 - kUpperBoundMiss, m_b the 0.75% margin of Z_b.
//  - uncovered_upper (I_P, theta >= 2): n - F_2 <= U~ + m_u with the same
//    probability, and I_P <= n <= (n - F_2) + F_theta.
#ifndef DPQ_CORE_PRIVATE_GROUP_BOUND_RELEASE_H_
#define DPQ_CORE_PRIVATE_GROUP_BOUND_RELEASE_H_

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

// The tuning (public constants; docs/experiments.md "Tuning group_bound").
struct GroupBoundParameters {
  // Share of epsilon for the noisy largest group.
  double bound_share = 0.15;
  // I_P: share of epsilon for the uncovered-row count.
  double uncovered_share = 0.075;
  // I_MI: share of epsilon for the scale test of step 3.
  double scale_share = 0.05;
  // Step 3 escalates when a lower confidence bound of f_theta (miss
  // probability scale_miss) is at least escalation_factor times the extra
  // noise of theta2.
  double escalation_factor = 20;
  double scale_miss = 0.05;
};

struct GroupBoundRelease {
  uint32_t theta = 0;
  int64_t value = 0;    // f_theta(G) + noise, unclamped
  int64_t bound95 = 0;  // 95% bound of |noise|
  double noise_scale = 0;
  uint32_t noisy_group_bound = 0;  // B~
  double epsilon_group_bound = 0;
  double epsilon_uncovered = 0;  // 0 for I_MI
  double epsilon_scale = 0;
  double epsilon_release = 0;
  std::optional<int64_t> uncovered_upper;  // I_P: U~ + m_u
  std::optional<uint64_t> degree_upper;    // W (B~ + m_b), capped at N - 1
};

// The part of `epsilon` that step 4's count runs at: what is left after
// eps_b and eps_u (I_P) or eps_s (I_MI), exactly as the release splits it.
// Public (the cost preview, noise_plan.h).
double GroupBoundReleaseEpsilon(measures::Measure measure, double epsilon,
                                const GroupBoundParameters& params = {});

// True when group_bound applies to `measure`: there is a DC and every DC
// is keyed or, for I_MI, cross-keyed (so the largest degree has a DP upper
// bound). I_P keeps gem where a DC is only cross-keyed: measured on the
// Flights samples (docs/experiments.md "Small sparse tables"), most rows
// there are clean, so the uncovered-row test of step 2 cannot see that f_2
// is nearly exact, and theta = B~ would cost 4-9x gem's error. Public: a
// function of the measure and the DCs only.
bool GroupBoundApplies(measures::Measure measure,
                       absl::Span<const DcDegreeBound> degree_bounds);

// Releases I_MI or I_P of `g` (n <= max_rows = N nodes) as above.
// `degree_bounds` is ComputeDegreeBounds for the graph's DCs, `degree_keys`
// their CountDegreeKeys (0: unknown, the keyed DCs plus twice the
// cross-keyed ones are used, which can only be larger). epsilon-DP under node
// DP. kInvalidArgument for another measure, a bad epsilon, no keyed DC, or a
// noise scale the discrete Laplace cannot represent at theta = N (checked
// before any noise is drawn). util::StoppedError() once `stop` says so.
absl::StatusOr<GroupBoundRelease> ReleaseWithGroupBound(
    dp::SecureUrbg& urbg, const graph::Graph& g, measures::Measure measure,
    double epsilon, uint32_t max_rows,
    absl::Span<const DcDegreeBound> degree_bounds, uint32_t degree_keys,
    const GroupBoundParameters& params = {}, const util::StopFn& stop = {});

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_GROUP_BOUND_RELEASE_H_
