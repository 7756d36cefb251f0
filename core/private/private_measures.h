// DP inconsistency measures on a conflict graph: the entry point of
// core/private (paper Sections 3-5; docs/core.md "DP measures"; the rules
// they follow are docs/privacy.md 1-6).
//
//  - I_MI and I_P: by default the flow Lipschitz extension at theta = a
//    noisy size of the largest key group (group_bound_release.h) where some
//    DC is keyed, else with theta chosen by the generalized exponential
//    mechanism (gem_release.h); gem and the paper's Algorithm 2
//    (edge-addition projection, theta by one of its selection methods, or
//    baseline 1 with theta = N) stay selectable.
//  - I_R: by default the LP lower bound on the minimum vertex cover
//    (sensitivity 1), or the owner's exact minimum cover (sensitivity 1),
//    or the paper's Algorithm 5 (DP size of the stable-order greedy cover).
//  - I_D and I_MC: refused (paper Section 3).
//
// Wherever the paper uses |V|, we use N = public_max_rows (docs/privacy.md
// 2.1).
#ifndef DPQ_CORE_PRIVATE_PRIVATE_MEASURES_H_
#define DPQ_CORE_PRIVATE_PRIVATE_MEASURES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/util/stop.h"

namespace dpq::core::private_measures {

// How Algorithm 2 picks theta (paper Section 6, "Algorithm variations").
enum class SelectionMethod {
  // Flow extension at a noisy largest key group (the default); runs as kGem
  // where no DC is keyed (the result's method then says "gem").
  kGroupBound,
  kGem,           // flow extension + generalized EM (not the paper's)
  kOptimized,     // full Algorithm 4: degree bound + two-step EM
  kHierarchical,  // Algorithm 4 without lines 1-5: two-step EM
  kBasic,         // Algorithm 3: one EM
  kBaseline,      // baseline 1: theta = N, all of epsilon on the release
};

// "group_bound", "gem", "optimized", "hierarchical", "basic", "baseline"
// (case-insensitive). kInvalidArgument listing them otherwise.
absl::StatusOr<SelectionMethod> ParseSelectionMethod(absl::string_view text);
absl::string_view SelectionMethodName(SelectionMethod method);

// How I_R is released.
enum class RepairMethod {
  // A lower bound of I_R with sensitivity 1 + discrete Laplace(1/eps)
  // (default): ceil of the LP relaxation of minimum vertex cover
  // strengthened with the clique constraints of the FD blocks and of every
  // triangle (ComputeCoverBound, computed once per dataset and passed in
  // PrivateMeasureRequest::cover_bound).
  kCoverBound,
  // The exact minimum cover, computed by the owner at registration
  // (PrivateMeasureRequest::exact_repair) + discrete Laplace(1/eps).
  kExact,
  // The paper's Algorithm 5: the stable greedy 2-approximation, noise 2/eps.
  kVertexCover,
};

// "cover_bound", "exact", "vertex_cover" (case-insensitive).
absl::StatusOr<RepairMethod> ParseRepairMethod(absl::string_view text);
absl::string_view RepairMethodName(RepairMethod method);

// True for the methods that read PrivateMeasureRequest::degree_bounds (and
// degree_keys): group_bound, gem, optimized. Public.
bool UsesDegreeBounds(SelectionMethod method);

// What a released value estimates (before its noise).
enum class Estimate {
  kExact,       // the measure itself
  kLowerBound,  // a lower bound of it (never above the measure)
  kUpperBound,  // an upper bound of it (Algorithm 5's 2-approximation)
};
absl::string_view EstimateName(Estimate estimate);
// The estimate of each method (a public property, never of the data).
Estimate EstimateOf(SelectionMethod method);
Estimate EstimateOf(RepairMethod method);

// Algorithm 2's budget split, as in the paper's experiments: eps1 = 0.4 eps
// for selecting theta (including Algorithm 4's eps0), eps2 = 0.6 eps for the
// release.
inline constexpr double kSelectionShare = 0.4;

// The method name reported for I_R.
inline constexpr absl::string_view kVertexCoverMethodName = "vertex_cover";

struct PrivateMeasureRequest {
  measures::Measure measure = measures::Measure::kMinimalInconsistency;
  // For I_MI and I_P.
  SelectionMethod method = SelectionMethod::kGroupBound;
  // For I_R.
  RepairMethod repair_method = RepairMethod::kCoverBound;
  // The exact minimum vertex cover of the graph, computed at registration
  // when the owner asked for it (needed by RepairMethod::kExact only).
  std::optional<uint64_t> exact_repair;
  // ComputeCoverBound for the dataset's table, DCs and graph (needed by
  // RepairMethod::kCoverBound). When empty the bound is computed from the
  // graph alone: the same LP without the FD blocks (edges and triangles),
  // also of sensitivity 1, but weaker on FD tables.
  std::optional<uint64_t> cover_bound;
  // Total budget of the request, validated by dp::ValidateEpsilon.
  double epsilon = 0;
  // N, the public upper bound on the row count (docs/privacy.md 2.1); must be
  // >= the graph's node count. Used by I_MI and I_P; ignored for I_R.
  uint64_t public_max_rows = 0;
  // Theta; default DefaultThetaCandidates(N). Validated by
  // NormalizeThetaCandidates. Ignored by kBaseline and I_R.
  std::optional<std::vector<uint64_t>> candidates;
  // ComputeDegreeBounds for the dataset and the DCs the graph was built
  // from; used by kOptimized (empty: it runs as hierarchical) and kGem (to
  // prune its candidates when every DC is keyed; empty: no pruning).
  std::vector<DcDegreeBound> degree_bounds;
  // CountDegreeKeys of those DCs (group_bound's degree upper bound; 0:
  // unknown, the keyed DCs plus twice the cross-keyed ones are used, a
  // weaker but valid bound).
  uint32_t degree_keys = 0;
  // Polled where the time goes (gem's flow sweep): once it returns true the
  // release stops with util::StoppedError(), releasing nothing, so a call
  // whose client left does not go on computing (docs/security.md).
  util::StopFn stop;
};

struct PrivateMeasureResult {
  // The noisy measure, clamped to the measure's public range [0,
  // PublicMaximum] (release_interval.h; post-processing).
  int64_t value = 0;
  // The interval [lower95, upper95] holds the measure itself, bias
  // included, with probability >= 95% (release_interval.h). When
  // upper_proved is false, upper95 is only the public maximum: nothing
  // bounds the undercount (say so: a one-sided interval).
  int64_t lower95 = 0;
  int64_t upper95 = 0;
  bool upper_proved = false;
  // I_MI, I_P: a DP upper bound on the largest degree (holds with
  // probability >= 99.25%), when the method computed one.
  std::optional<uint64_t> degree_upper;
  // I_MI, I_P: true unless theta is known to reach every degree (so the
  // statistic may undercount the measure); false for I_R.
  bool truncated = false;
  // Total epsilon of the request: epsilon_degree_bound + epsilon_selection
  // + epsilon_release (sequential composition). Reported as the requested
  // epsilon; the parts sum to it up to floating-point rounding.
  double epsilon_spent = 0;
  std::optional<uint32_t> theta;  // theta* used (I_MI, I_P)
  // 95% bound of the final discrete Laplace noise: P(|noise| > bound95) <=
  // 5%. It does not cover the projection bias f(G) - f(G_theta); the
  // interval above does.
  int64_t bound95 = 0;
  double epsilon_degree_bound = 0;  // Algorithm 4's eps0 (0 if not used)
  double epsilon_selection = 0;     // the EM step(s)
  double epsilon_release = 0;       // the final noise
  // d~ in [1, N] when the optimized or gem method used the degree bound;
  // B~ for group_bound (its noisy largest key group minus one).
  std::optional<uint32_t> noisy_degree_bound;
  // theta1* of the two-step EM (hierarchical, optimized).
  std::optional<uint32_t> first_step_theta;
  // "group_bound", "gem", "optimized", "hierarchical", "basic",
  // "baseline", "cover_bound", "exact" or "vertex_cover": the method that
  // ran (group_bound runs as gem where no DC is keyed).
  std::string method;
  // What `value` estimates before its noise.
  Estimate estimate = Estimate::kLowerBound;
  size_t num_candidates = 0;  // |Theta| after deduplication (0 for I_R)
};

// OK for I_MI, I_P and I_R. kInvalidArgument with the reason for I_D (a 0/1
// answer with sensitivity 1: noise that hides one tuple destroys it) and
// I_MC (#P-complete, sensitivity exponential in n): paper Section 3 and
// Proposition 2.
absl::Status CheckMeasureReleasable(measures::Measure measure);

// Releases `request.measure` for the conflict graph `g` (nodes = tuple ids,
// Graph's stable order), drawing all noise from `urbg`. epsilon-DP for the
// dataset under unbounded DP (node-DP on g, docs/privacy.md 1) with epsilon =
// result.epsilon_spent = request.epsilon, provided n <= N and the DCs are
// public.
// Errors (all before any noise is drawn): kInvalidArgument for a refused
// measure, a bad epsilon, N outside [1, 2^32 - 1], bad candidates, or
// RepairMethod::kExact without exact_repair; kFailedPrecondition if g has
// more than N nodes.
// Cost: gem one max-flow sweep per component (flow_extensions.h); the
// paper's methods O(|Theta| (n + m)); I_R O(m sqrt(n)).
absl::StatusOr<PrivateMeasureResult> ComputePrivateMeasure(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_PRIVATE_MEASURES_H_
