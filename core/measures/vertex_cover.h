// The optimal repair measure I_R: the size of a minimum vertex cover of the
// conflict graph (paper Table 2; NP-hard in general). Computed exactly when
// the search stays within its limits, and otherwise reported as bounds
// (LP relaxation below, heuristics and the 2-approximation above).
// Exact values are for data owners and tests, never for buyers, who get
// only DP releases (docs/privacy.md 3).
#ifndef DPQ_CORE_MEASURES_VERTEX_COVER_H_
#define DPQ_CORE_MEASURES_VERTEX_COVER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::measures {

// Largest accepted VertexCoverLimits::max_component_nodes: the search keeps
// a k x k adjacency bit matrix (32 MiB at this size).
inline constexpr uint32_t kMaxVertexCoverComponentNodes = 16384;

// Work limits of the exact search. Exceeding one is not an error: the
// result then carries bounds only (VertexCoverResult::exact is empty).
struct VertexCoverLimits {
  // Branch-and-bound nodes allowed in total, over all components.
  uint64_t max_branch_nodes = 10'000'000;
  // Components with more nodes than this (after the degree-0/1 reductions)
  // get bounds only, unless their bounds already meet or they are complete
  // multipartite. At most kMaxVertexCoverComponentNodes. A search node in a
  // component of k nodes costs O(k^2 / 64 + m_k sqrt(k)), so keep this
  // moderate or set a deadline.
  uint32_t max_component_nodes = 2048;
  // The search stops (bounds only) once this time has passed; carry the
  // client's deadline here.
  absl::Time deadline = absl::InfiniteFuture();
};

// kInvalidArgument if max_component_nodes is outside
// [1, kMaxVertexCoverComponentNodes]. O(1).
absl::Status ValidateVertexCoverLimits(const VertexCoverLimits& limits);

// Bounds on, and when known the value of, the minimum vertex cover size.
// Always lower_bound <= I_R <= upper_bound, and when `exact` is set,
// lower_bound == *exact == upper_bound.
struct VertexCoverResult {
  // Twice the optimum of the LP relaxation (min sum x_v, x_u + x_v >= 1,
  // 0 <= x <= 1). The LP is half-integral, so this is an integer.
  uint64_t lp_doubled = 0;
  // The LP optimum itself (a multiple of 0.5).
  double lp_value() const { return static_cast<double>(lp_doubled) / 2.0; }

  uint64_t lower_bound = 0;
  uint64_t upper_bound = 0;
  std::optional<uint64_t> exact;
  // Why `exact` is empty (names the limit that was hit); empty otherwise.
  std::string not_exact_reason;

  // Size of the stable-order greedy cover of paper Algorithm 5 (the
  // 2-approximation that the DP mechanism perturbs); always >= upper_bound.
  uint64_t stable_greedy_size = 0;
  // Branch-and-bound nodes used (work done), for logs and tests.
  uint64_t branch_nodes = 0;
};

// Twice the LP relaxation optimum of minimum vertex cover. The LP optimum
// equals half the maximum matching of the bipartite double cover (left and
// right copy of every node, edges u_L v_R and v_L u_R per edge uv), found
// by core/measures/double_cover_matching.h. LP >= maximum matching of g,
// and LP <= I_R, with equality for bipartite graphs. O(m sqrt(n)) time at
// worst, O(n) extra memory.
uint64_t VertexCoverLpDoubled(const graph::Graph& g);

// Twice an optimal solution of the LP relaxation: x2[v] in {0, 1, 2} for
// x_v = 0, 1/2, 1 (the LP is half-integral), read off the maximum matching
// of the double cover by Koenig's theorem; sum x2 = VertexCoverLpDoubled.
// Being optimal, it has the Nemhauser-Trotter property: the nodes at 1 can
// be matched into the nodes at 0 (else lowering a violating set of them to
// 1/2 and raising their neighbours at 0 to 1/2 would be a cheaper
// solution). O(m sqrt(n)) at worst.
// With `active` non-empty (one entry per node), the same for the active
// nodes, which must be a union of connected components (their neighbours
// are not checked); inactive nodes get 0 and are not touched, so disjoint
// unions of components can be solved separately.
std::vector<uint8_t> HalfIntegralLpSolution(
    const graph::Graph& g, absl::Span<const uint8_t> active = {});

// Size of the cover built greedily by the degree-1 rule (a node of degree 1
// puts its neighbour into the cover, which is always optimal) and otherwise
// by taking a node of maximum remaining degree. A heuristic upper bound
// (no constant approximation factor, but usually far better than 2x on
// conflict graphs; exact on forests and complete multipartite graphs).
// O(n + m) time and memory.
uint64_t GreedyVertexCoverSize(const graph::Graph& g);

// I_R of paper Def. 1: the minimum vertex cover size, i.e. the fewest tuple
// deletions that make the database consistent.
//
// Method: the degree-0/1 reductions on the whole graph; then per connected
// component (the minimum cover of a graph is the sum over its components,
// smallest components first): done if ceil(LP) meets the greedy cover, in
// closed form (size minus largest part) if complete multipartite, else by
// branch and bound on a max-degree node v (take v, or take all of N(v))
// with degree-0/1/2 reductions, pruned by the clique-cover and LP lower
// bounds, within `limits`.
//
// Returns bounds only (not an error) when a limit is hit; kInvalidArgument
// for invalid limits. Time O(m sqrt(n)) plus the search, which is
// exponential in the worst case but capped by the limits; memory
// O(n + m + k^2 / 8) for the largest searched component of k nodes.
absl::StatusOr<VertexCoverResult> MinimumVertexCover(
    const graph::Graph& g, const VertexCoverLimits& limits = {});

// The I_R lower bound of the cover_bound method: ceil(LP relaxation),
// i.e. ceil(VertexCoverLpDoubled / 2). At most I_R (an integer >= LP), and
// 1-Lipschitz under adding or removing a node: the LP moves by at most 1
// (a new node gets x_v = 1; an optimum restricted to the other nodes is
// feasible without the node), so the doubled LP moves by at most 2 and its
// halved ceiling by at most 1. Checked on every graph up to 7 nodes
// (tests/core/private/flow_extensions_test.cc). O(m sqrt(n)).
uint64_t CoverLowerBound(const graph::Graph& g);

// The exact minimum vertex cover for an owner who asked for it (the
// `exact_repair` option): MinimumVertexCover within `limits`, or
// kFailedPrecondition saying which limit stopped the proof and what the
// bounds were (the owner's message; never shown to a buyer).
absl::StatusOr<uint64_t> ExactRepairOrExplain(
    const graph::Graph& g, const VertexCoverLimits& limits = {});

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_VERTEX_COVER_H_
