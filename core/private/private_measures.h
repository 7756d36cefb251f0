// DP inconsistency measures on a conflict graph: the entry point of
// core/private (paper Sections 3-5; design.md section 5).
//
//  - I_MI and I_P: Algorithm 2 (edge-addition projection with the stable
//    order, then discrete Laplace noise), with the threshold theta chosen by
//    one of the SelectionMethods, or baseline 1 (theta = N).
//  - I_R: Algorithm 5 (DP size of the stable-order greedy vertex cover).
//  - I_D and I_MC: refused (paper Section 3).
//
// Wherever the paper uses |V|, we use N = public_max_rows (design 5.2).
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

namespace dpq::core::private_measures {

// How Algorithm 2 picks theta (paper Section 6, "Algorithm variations").
enum class SelectionMethod {
  kOptimized,     // full Algorithm 4: degree bound + two-step EM (default)
  kHierarchical,  // Algorithm 4 without lines 1-5: two-step EM
  kBasic,         // Algorithm 3: one EM
  kBaseline,      // baseline 1: theta = N, all of epsilon on the release
};

// "optimized", "hierarchical", "basic", "baseline" (case-insensitive).
// kInvalidArgument listing them otherwise.
absl::StatusOr<SelectionMethod> ParseSelectionMethod(absl::string_view text);
absl::string_view SelectionMethodName(SelectionMethod method);

// Algorithm 2's budget split, as in the paper's experiments: eps1 = 0.4 eps
// for selecting theta (including Algorithm 4's eps0), eps2 = 0.6 eps for the
// release.
inline constexpr double kSelectionShare = 0.4;

// The method name reported for I_R.
inline constexpr absl::string_view kVertexCoverMethodName = "vertex_cover";

struct PrivateMeasureRequest {
  measures::Measure measure = measures::Measure::kMinimalInconsistency;
  // Ignored for I_R.
  SelectionMethod method = SelectionMethod::kOptimized;
  // Total budget of the request, validated by dp::ValidateEpsilon.
  double epsilon = 0;
  // N, the public upper bound on the row count (design 5.2); must be >= the
  // graph's node count. Used by I_MI and I_P; ignored for I_R.
  uint64_t public_max_rows = 0;
  // Theta; default DefaultThetaCandidates(N). Validated by
  // NormalizeThetaCandidates. Ignored by kBaseline and I_R.
  std::optional<std::vector<uint64_t>> candidates;
  // ComputeDegreeBounds for the dataset and the DCs the graph was built
  // from; used by kOptimized only. Empty = no bound (optimized then runs as
  // hierarchical).
  std::vector<DcDegreeBound> degree_bounds;
};

struct PrivateMeasureResult {
  int64_t value = 0;  // the noisy measure
  // Total epsilon of the request: epsilon_degree_bound + epsilon_selection
  // + epsilon_release (sequential composition). Reported as the requested
  // epsilon; the parts sum to it up to floating-point rounding.
  double epsilon_spent = 0;
  std::optional<uint32_t> theta;  // theta* used (I_MI, I_P)
  // 95% bound of the final discrete Laplace noise: P(|noise| > bound95) <=
  // 5%. It does not cover the projection bias f(G) - f(G_theta).
  int64_t bound95 = 0;
  double epsilon_degree_bound = 0;  // Algorithm 4's eps0 (0 if not used)
  double epsilon_selection = 0;     // the EM step(s)
  double epsilon_release = 0;       // the final noise
  // d~ in [1, N] when the optimized method used the degree bound.
  std::optional<uint32_t> noisy_degree_bound;
  // theta1* of the two-step EM (hierarchical, optimized).
  std::optional<uint32_t> first_step_theta;
  // "optimized", "hierarchical", "basic", "baseline" or "vertex_cover".
  std::string method;
  size_t num_candidates = 0;  // |Theta| after deduplication (0 for I_R)
};

// OK for I_MI, I_P and I_R. kInvalidArgument with the reason for I_D (a 0/1
// answer with sensitivity 1: noise that hides one tuple destroys it) and
// I_MC (#P-complete, sensitivity exponential in n): paper Section 3 and
// Proposition 2.
absl::Status CheckMeasureReleasable(measures::Measure measure);

// Releases `request.measure` for the conflict graph `g` (nodes = tuple ids,
// Graph's stable order), drawing all noise from `urbg`. epsilon-DP for the
// dataset under unbounded DP (node-DP on g, design 5.1) with epsilon =
// result.epsilon_spent = request.epsilon, provided n <= N and the DCs are
// public.
// Errors (all before any noise is drawn): kInvalidArgument for a refused
// measure, a bad epsilon, N outside [1, 2^32 - 1], bad candidates;
// kFailedPrecondition if g has more than N nodes.
// Cost: I_MI/I_P O(|Theta| (n + m)); I_R O(n + m).
absl::StatusOr<PrivateMeasureResult> ComputePrivateMeasure(
    dp::SecureUrbg& urbg, const graph::Graph& g,
    const PrivateMeasureRequest& request);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_PRIVATE_MEASURES_H_
