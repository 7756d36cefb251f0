// The interval a release comes with: [lower, upper] holds the measure
// itself (not only the statistic the mechanism perturbs) with probability
// at least 95% over the mechanism's noise, bias included (docs/privacy.md
// 6.4, docs/core.md "Intervals").
//
// Misses are split by a union bound: the lower end may miss with
// probability 2.5% (the release noise), the upper end with 2.5% in all:
// 1% for the release noise and 0.75% for each DP bound it uses (a degree
// bound, an uncovered-row count). Both ends are post-processing of DP
// outputs and public facts, so they cost no budget.
//
// Why each end holds, per estimate (T the measure, S the statistic the
// noise was added to, Y = S + Z the released value, Z the noise):
//  - lower: S <= T for every lower-bound or exact estimate, so Y - z > T
//    needs Z > z: probability <= 2.5% with z = the noise's 95% two-sided
//    bound. For vertex_cover (S <= 2 T): lower = ceil((Y - z) / 2).
//  - upper, flow extensions (I_MI, I_P at degree bound theta): T <=
//    S * max(1, Delta / theta), Delta the largest degree (scale the flow
//    that carries everything at capacity Delta down to capacity theta: a
//    feasible fractional flow of value (theta / Delta) T, and the integral
//    maximum is at least it). With Delta <= degree_upper and Z >= -z':
//    T <= (Y + z') * max(1, degree_upper / theta).
//  - upper, I_P with an uncovered-row bound: T <= n = (n - F_2) + F_2 <=
//    uncovered_upper + S (F_2 <= F_theta = S for theta >= 2), so T <=
//    Y + z' + uncovered_upper.
//  - upper, cover_bound: the LP relaxation's integrality gap is 2 (round
//    every x_v >= 1/2 up), and S >= the plain LP, so T <= 2 S <= 2 (Y + z').
//  - upper, exact and vertex_cover (S >= T): Y + z.
//  - otherwise (the paper's projections, or no DP degree bound): only the
//    public maximum, and `upper_proved` says so.
// Every end is then clamped to the measure's public range [0, max]; the
// measure lies in it, so clamping never loses coverage.
#ifndef DPQ_CORE_PRIVATE_RELEASE_INTERVAL_H_
#define DPQ_CORE_PRIVATE_RELEASE_INTERVAL_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "core/dp/discrete_laplace.h"
#include "core/measures/measure.h"

namespace dpq::core::private_measures {

// Stated confidence of every interval.
inline constexpr double kIntervalConfidence = 0.95;
// The miss budgets above (they sum to 1 - kIntervalConfidence with two
// bounds on the upper end).
inline constexpr double kLowerMiss = 0.025;
inline constexpr double kUpperNoiseMiss = 0.01;
inline constexpr double kUpperBoundMiss = 0.0075;

// The smallest m >= 0 with P(Z < -m) <= miss (equivalently P(Z > m)) for
// Z ~ `noise`: the two-sided bound at 1 - 2 miss (the law is symmetric).
int64_t OneSidedMargin(const dp::DiscreteLaplace& noise, double miss);

// The largest value `measure` can take on a table of at most `max_rows`
// rows: I_MI N (N - 1) / 2, I_P N, I_R N - 1 (a vertex cover of n nodes
// has at most n - 1 of them); INT64_MAX when max_rows is 0 (unknown).
int64_t PublicMaximum(measures::Measure measure, uint64_t max_rows);

// What the upper end may use.
enum class GapBound {
  kNone,           // nothing proved: the upper end is the public maximum
  kNoneNeeded,     // S >= T (exact, vertex_cover, theta >= every degree)
  kFlowExtension,  // T <= S max(1, Delta / theta)
  kCoverLp,        // T <= 2 S
};

struct IntervalInputs {
  measures::Measure measure = measures::Measure::kMinimalInconsistency;
  // Y: the released value before clamping.
  int64_t value = 0;
  // The release noise's discrete Laplace scale (> 0).
  double noise_scale = 1;
  // True if S may exceed T up to a factor 2 (vertex_cover).
  bool statistic_at_most_twice = false;
  GapBound gap = GapBound::kNone;
  uint32_t theta = 0;  // kFlowExtension: the degree bound used
  // Delta <= degree_upper with probability >= 1 - kUpperBoundMiss.
  std::optional<uint64_t> degree_upper;
  // I_P: n - F_theta <= uncovered_upper with probability >= 1 -
  // kUpperBoundMiss.
  std::optional<int64_t> uncovered_upper;
  uint64_t max_rows = 0;  // N (0: unknown)
};

struct ReleaseInterval {
  int64_t value = 0;  // Y clamped to [0, PublicMaximum]
  int64_t lower = 0;
  int64_t upper = 0;
  // False when `upper` is only the public maximum.
  bool upper_proved = false;
};

// The interval of one release (see above). kInvalidArgument for a bad
// noise scale.
absl::StatusOr<ReleaseInterval> ComputeReleaseInterval(
    const IntervalInputs& in);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_RELEASE_INTERVAL_H_
