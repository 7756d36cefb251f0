// One point of the paper's Section 6 experiments: a conflict graph with its
// exact measures, and the relative error |I - M| / I of a private method
// over repeated runs.
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_MEASURE_EVALUATION_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_MEASURE_EVALUATION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/table/table.h"

namespace dpq::bench::experiments {

// A conflict graph and everything the private methods and the error need.
struct GraphCase {
  core::graph::Graph graph;
  std::vector<core::private_measures::DcDegreeBound> degree_bounds;
  uint32_t degree_keys = 0;      // CountDegreeKeys of the DCs
  uint64_t cover_bound = 0;      // ComputeCoverBound: what cover_bound releases
  uint64_t public_max_rows = 0;  // N
  std::vector<uint64_t> candidates;  // Theta
  uint64_t i_mi = 0;
  uint64_t i_p = 0;
  // I_R's reference: the exact minimum vertex cover when the search
  // finished within its limits ("exact"), else the LP lower bound ("lp").
  double i_r = 0;
  std::string i_r_reference;
  // The proved minimum vertex cover (set iff i_r_reference is "exact"): the
  // owner's `exact_repair` that RepairMethod::kExact releases.
  std::optional<uint64_t> exact_repair;
  // The non-private stable-order greedy cover that Algorithm 5 perturbs (a
  // 2-approximation): the paper's own I_R reference is an approximation
  // too ("the linear approximation algorithm from Livshits et al.").
  double i_r_greedy = 0;
  double build_seconds = 0;
};

// The paper's Theta (Section 6.1): {1, 5, 10, 100, 500} and the multiples of
// 1000 up to N, plus N itself; values above N are dropped.
std::vector<uint64_t> PaperThetaCandidates(uint64_t public_max_rows);

// Builds the conflict graph of `table` (core/graph), its exact I_MI and I_P,
// I_R's reference (exact search limited to `vertex_cover_seconds`) and the
// degree bounds. N = max(1, ceil(n_factor * rows)).
absl::StatusOr<GraphCase> BuildGraphCase(
    const core::table::Table& table,
    absl::Span<const core::constraints::DenialConstraint> dcs, double n_factor,
    double vertex_cover_seconds);

// The methods of Section 6.1 "Algorithm variations" and Algorithm 5, and
// dpq's own defaults (core/private/private_measures.h).
enum class Method {
  kBaseline1,     // theta = N (SelectionMethod::kBaseline)
  kBaseline2,     // theta = true max degree, non-private (harness only)
  kBasic,         // basic EM (Algorithm 3)
  kHierarchical,  // two-step EM
  kOptimized,     // upper bound + two-step EM (Algorithm 4)
  // Flow Lipschitz extension + generalized EM (SelectionMethod::kGem) over
  // the service's default Theta, DefaultThetaCandidates(N) (the paper's
  // methods above use PaperThetaCandidates).
  kGem,
  // The service's default: flow extension at a noisy largest key group
  // (SelectionMethod::kGroupBound; runs as gem without a keyed DC).
  kGroupBound,
  kVertexCover,  // I_R: Algorithm 5 (RepairMethod::kVertexCover)
  kCoverBound,   // I_R: ceil(LP) + discrete Laplace(1/eps)
  kExact,        // I_R: proved minimum cover + discrete Laplace(1/eps)
};

// "baseline1", "baseline2", "basic", "hierarchical", "optimized", "gem",
// "group_bound", "vertex_cover", "cover_bound", "exact".
std::string MethodName(Method method);
// The inverse of MethodName; kInvalidArgument listing the names otherwise.
absl::StatusOr<Method> ParseMethod(const std::string& name);
// True for the I_R methods (vertex_cover, cover_bound, exact); the others
// release I_MI and I_P.
bool IsRepairMethod(Method method);

struct RunStats {
  size_t runs = 0;
  double true_value = 0;
  double private_mean = 0, private_std = 0;
  double error_mean = 0, error_std = 0;  // relative error; NaN if true = 0
  double error_median = 0;  // of the `runs` relative errors (NaN if true = 0)
  double error_p90 = 0;     // their 90th percentile (nearest rank)
  // Share of runs whose interval [lower95, upper95] held the true value
  // (stated: 95%), and share whose upper end was proved (not only the
  // public maximum).
  double coverage = 0;
  double upper_proved = 0;
  // I_R only (NaN otherwise): the relative error against i_r_greedy,
  // i.e. the DP noise alone without the approximation factor.
  double greedy_error_mean = 0, greedy_error_std = 0;
  double theta_mean = 0;  // 0 for I_R
  // The theta chosen most often (the smallest on ties); 0 for I_R.
  uint32_t theta_mode = 0;
  // What the released value estimates before its noise:
  // core EstimateName ("exact", "lower_bound", "upper_bound"); baseline 2
  // (theta = d_max keeps every edge) is "exact".
  std::string estimate;
  double seconds_mean = 0;  // per release
  // The first release alone: on a freshly built graph this includes the
  // projections that later releases find in the graph's memo.
  double first_seconds = 0;
};

// The median of `xs` (the mean of the two middle values for an even size);
// NaN if `xs` is empty or holds a NaN. O(n log n).
double Median(std::vector<double> xs);
// The q-quantile of `xs` by nearest rank (q = 0.9: the 90th percentile);
// NaN if `xs` is empty or holds a NaN.
double Percentile(std::vector<double> xs, double q);

// Releases `measure` with `method` `runs` times at `epsilon`, drawing noise
// from `urbg`, and summarises the relative errors (population std).
// Baseline 2 projects at theta = d_max (which keeps every edge) and spends
// all of epsilon on the release, with I_MI's sensitivity theta and I_P's
// theta + 1 (docs/privacy.md 6.1). kInvalidArgument for a method/measure pair
// that does not exist (the I_R methods release I_R only, and I_R has no
// other), kFailedPrecondition for `exact` on a graph without
// exact_repair.
absl::StatusOr<RunStats> EvaluateMethod(core::dp::SecureUrbg& urbg,
                                        const GraphCase& graph_case,
                                        core::measures::Measure measure,
                                        Method method, double epsilon,
                                        size_t runs);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_MEASURE_EVALUATION_H_
