// Race to the top (R2T; Dong et al., SIGMOD 2022, the R2T mechanism and its
// error theorem) over the truncated conflict-pair counts of
// truncated_count.h: the paper's SQL baseline for I_MI
// (the inconsistency-measures paper, Table 1; docs/r2t.md).
//
// With GS the global sensitivity bound (here N = public_max_rows: a tuple
// conflicts with at most N - 1 others, docs/privacy.md 2.1), thresholds
// tau_j = base^j for j = 1..L, L = the smallest integer with base^L >= GS
// (so that Q(I, tau_L) = Q(I)), and
//
//   Q~(I, tau_j) = Q(I, tau_j) + Lap(L tau_j / eps)
//                  - L ln(L / beta) tau_j / eps,
//   output       = max(0, max_j Q~(I, tau_j)).
//
// Privacy: Q(., tau_j) has node-DP sensitivity <= tau_j (truncated_count.h),
// so each Q~ is (eps / L)-DP; L of them compose to eps; the max and the
// clamp at 0 are post-processing. Utility: P(output > Q(I)) <= beta / 2
// (each Laplace draw exceeds its shift with probability beta / (2 L)), and
// for base 2, with probability >= 1 - beta the output is >= Q(I) -
// 4 L ln(L / beta) tau*(I) / eps (R2T's error theorem), where tau*(I), the
// smallest tau with Q(I, tau) = Q(I), is exactly the maximum degree here (a
// node of degree d > tau forces some x_e < 1).
//
// base = 2 is R2T's paper; the authors' code (and the DPMeasures artifact
// that produced Table 1) uses base 5.5 and L = floor(log_base(GS)) (at
// least 2), so its largest threshold can stay below GS: still DP, but then
// R2T may never reach Q(I). ThresholdRule::kAuthorsCode reproduces that.
#ifndef DPQ_TESTS_BENCH_R2T_R2T_H_
#define DPQ_TESTS_BENCH_R2T_R2T_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/r2t/truncated_count.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"

namespace dpq::bench::r2t {

enum class ThresholdRule {
  kCoverGs,      // L = min { L : base^L >= GS } (R2T's paper; default)
  kAuthorsCode,  // L = max(2, floor(log_base GS)) (R2T's and DPMeasures' code)
};

struct R2tOptions {
  double epsilon = 1;  // total budget, validated by ValidateEpsilon
  uint64_t global_sensitivity = 0;  // GS = N >= 1 (and >= the node count)
  double beta = 0.1;  // in (0, 1); R2T's and the artifact's default
  double base = 2;    // > 1
  LpSolver solver = LpSolver::kMaxFlow;
  ThresholdRule rule = ThresholdRule::kCoverGs;
};

// The thresholds base^1..base^L described above. kInvalidArgument for
// base <= 1, GS = 0, or more than 1000 thresholds.
absl::StatusOr<std::vector<double>> R2tThresholds(
    uint64_t global_sensitivity, double base,
    ThresholdRule rule = ThresholdRule::kCoverGs);

// The noise-free part: Q(G, tau_j) for every threshold, with LP statistics.
// Deterministic, so repeated runs on one graph compute it once.
struct TruncatedCurve {
  std::vector<double> taus;
  std::vector<TruncatedCount> counts;
  double seconds = 0;
};

// kFailedPrecondition if g has more nodes than GS (then tau_L might not
// reach the max degree); errors of R2tThresholds / TruncatedEdgeCount.
absl::StatusOr<TruncatedCurve> ComputeTruncatedCurve(
    const core::graph::Graph& g, const R2tOptions& options);

struct R2tResult {
  double estimate = 0;        // max(0, max_j Q~_j)
  std::vector<double> noisy;  // Q~_j per threshold
  int chosen = -1;            // argmax j (0-based), -1 if the 0 won
};

// The race to the top on a precomputed curve, drawing L Laplace samples
// from `urbg`. kInvalidArgument for bad epsilon/beta or an empty curve.
absl::StatusOr<R2tResult> RaceToTheTop(core::dp::SecureUrbg& urbg,
                                       const TruncatedCurve& curve,
                                       const R2tOptions& options);

}  // namespace dpq::bench::r2t

#endif  // DPQ_TESTS_BENCH_R2T_R2T_H_
