// The truncated self-join count of R2T (Dong, Fang, Yi, Tao,
// Machanavajjhala, "R2T: Instance-optimal Truncation for Differentially
// Private Query Evaluation with Foreign Keys", SIGMOD 2022: the LP-based
// truncation for self-joins) for the paper's SQL baseline of I_MI
// (the inconsistency-measures paper, Table 1; docs/r2t.md): the number of
// conflicting tuple pairs, where every tuple is an individual and a pair
// references both of its tuples.
//
// For a conflict graph G = (V, E) and a threshold tau > 0, R2T's LP is
//
//   Q(G, tau) = max sum_{e in E} x_e
//               s.t. sum_{e incident to v} x_e <= tau   for every v in V,
//                    0 <= x_e <= 1                      for every e in E.
//
// Properties R2T needs (tested in r2t_test.cc):
//  - Q(G, tau) <= |E|, non-decreasing in tau, = |E| once tau >= max degree;
//  - node-DP sensitivity <= tau: removing v drops at most the x_e on v's
//    edges (their sum is <= tau) from an optimum, and an optimum of G - v is
//    feasible for G.
//
// How it is solved exactly, and fast:
//  - the row of a node of degree <= tau is implied by x_e <= 1, so only
//    "heavy" nodes (degree > tau) keep a constraint, and an edge between two
//    light nodes is set to 1 without entering any LP;
//  - the remaining LP (edges with a heavy endpoint, rows of heavy nodes)
//    splits into independent connected components, each solved separately;
//  - each component is solved by GLPK's simplex (with presolve), or, as an
//    exact and much faster alternative, as a maximum flow: Q equals half the
//    maximum s-t flow in the bipartite double cover (s -> v_L and v_R -> t
//    with capacity tau, u_L -> v_R and v_L -> u_R with capacity 1 per edge
//    {u, v}): any fractional solution x gives the flow x_e on both arcs of e,
//    and any flow f gives the feasible x_e = (f(u_L v_R) + f(v_L u_R)) / 2.
//    Both solvers agree to 1e-6 in the tests.
#ifndef DPQ_TESTS_BENCH_R2T_TRUNCATED_COUNT_H_
#define DPQ_TESTS_BENCH_R2T_TRUNCATED_COUNT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/graph/graph.h"

namespace dpq::bench::r2t {

enum class LpSolver {
  kGlpk,     // GLPK primal simplex with presolve, per component
  kMaxFlow,  // Dinic's maximum flow on the double cover, per component
};

// "glpk" or "flow"; kInvalidArgument otherwise.
absl::StatusOr<LpSolver> ParseLpSolver(absl::string_view text);
absl::string_view LpSolverName(LpSolver solver);

// Statistics of one evaluation of Q(G, tau).
struct TruncatedCountStats {
  uint32_t heavy_nodes = 0;    // nodes with degree > tau (rows of the LP)
  uint64_t free_edges = 0;     // edges between two light nodes (x_e = 1)
  uint64_t lp_edges = 0;       // LP variables over all components
  uint32_t lp_components = 0;  // LPs actually solved
  uint64_t largest_lp_edges = 0;
  double seconds = 0;
};

struct TruncatedCount {
  double value = 0;  // Q(G, tau)
  TruncatedCountStats stats;
};

// Q(G, tau) for tau > 0 (finite). kInvalidArgument for a bad tau; kInternal
// if GLPK does not report an optimum (it always should: x = 0 is feasible
// and the LP is bounded). Cost: O(n + m) plus the LPs on the heavy part.
absl::StatusOr<TruncatedCount> TruncatedEdgeCount(const core::graph::Graph& g,
                                                  double tau, LpSolver solver);

namespace internal {

// One component of the reduced LP: local node ids 0..num_nodes-1, edges
// between them, capacity[v] = tau for heavy nodes and the node's degree in G
// (a non-binding cap) for light ones.
struct ComponentLp {
  uint32_t num_nodes = 0;
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<double> capacity;
};

// The optimum of `lp`. Exposed for the solver cross-check tests.
absl::StatusOr<double> SolveWithGlpk(const ComponentLp& lp);
double SolveWithMaxFlow(const ComponentLp& lp);

}  // namespace internal
}  // namespace dpq::bench::r2t

#endif  // DPQ_TESTS_BENCH_R2T_TRUNCATED_COUNT_H_
