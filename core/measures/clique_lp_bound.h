// The lower bound on the minimum vertex cover (I_R) that the cover_bound
// repair method releases: the LP relaxation strengthened with the clique
// constraints of the FD blocks (core/graph/fd_cliques.h), of the order
// DCs' chains (core/graph/order_chains.h) and of every triangle.
#ifndef DPQ_CORE_MEASURES_CLIQUE_LP_BOUND_H_
#define DPQ_CORE_MEASURES_CLIQUE_LP_BOUND_H_

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/graph/fd_cliques.h"
#include "core/graph/graph.h"
#include "core/graph/order_chains.h"

namespace dpq::core::measures {

struct CliqueLpBound {
  // The LP optimum (min sum x_v over the constraints below), rounded to
  // double for display only: nothing is decided by it.
  double lp_value = 0;
  // The ceiling of the exact LP optimum: the bound released by
  // cover_bound. Each component's optimum is certified as an exact
  // rational (certified_packing_lp.h) and the optima are summed in exact
  // rationals (GMP), so the ceiling is taken with no tolerance.
  uint64_t bound = 0;
  // Components whose LP had to be solved (the others were settled by the
  // plain LP meeting a greedy cover), and the largest of them.
  uint32_t components_solved = 0;
  uint32_t largest_component = 0;
};

// The cliques the LP below constrains beyond triangles: the FD blocks
// (graph/fd_cliques.h) and the chains of the order DCs
// (graph/order_chains.h), each family with one entry per node.
struct CliqueConstraints {
  std::vector<graph::CliqueFamily> blocks;
  std::vector<graph::ChainFamily> chains;

  CliqueConstraints() = default;
  // Blocks only (implicit: most callers and tests have no chains).
  CliqueConstraints(std::vector<graph::CliqueFamily> b)  // NOLINT
      : blocks(std::move(b)) {}
  CliqueConstraints(std::vector<graph::CliqueFamily> b,
                    std::vector<graph::ChainFamily> c)
      : blocks(std::move(b)), chains(std::move(c)) {}
};

// The optimum of: min sum_v x_v, 0 <= x <= 1, with y_v = 1 - x_v and
//   sum_{v in C} y_v <= 1 for every clique C that is a transversal of a
//     block of a family (one node from each of two or more of its parts),
//     written compactly as y_v <= z_p for v in part p and
//     sum_{p in block} z_p <= 1;
//   sum_{v in C} y_v <= 1 for every chain C of a chain family (two or more
//     nodes that its R orders);
//   y_u + y_v + y_w <= 1 for every triangle of `g`;
//   y_u + y_v <= 1 for every edge of `g`.
// Each constraint holds for the complement of a stable set, so the optimum
// is at most I_R; it is at least the plain LP relaxation (edges alone). On a
// graph that is one block it is exact (complete multipartite graphs are
// perfect, and clique constraints describe their stable sets).
//
// Sensitivity 1 under adding or removing a row, if the blocks come from
// graph::FdCliqueFamilies and the chains from graph::OrderChainFamilies on
// the table `g` was built from: write
// LP(D) = |D| - Y(D) with Y(D) = max sum_v y_v (a row in no conflict has
// y_v = 1). A row r's block and part in every family depend on r's cells
// only, as does whether R(r, v) or R(v, r) holds in a chain family, and
// triangles and edges of D are those of D + r without r, so the
// constraints of D + r are those of D plus constraints containing r.
//   Y(D) <= Y(D + r): extend an optimum of D by y_r = 0 (and z = 0 for a
//     part that is r alone); every constraint containing r then reads as
//     one of D (a chain without r is a chain of D: R is transitive) or as
//     y_v <= 1 or 0 <= 1, so the extension is feasible.
//   Y(D + r) <= Y(D) + 1: an optimum of D + r restricted to D is feasible
//     for D (its constraints are D + r's without r's term) and loses
//     y_r <= 1.
// Hence LP(D + r) - LP(D) = 1 - (Y(D + r) - Y(D)) lies in [0, 1]; so does
// the difference of ceil(LP), which is why ceil(LP) must be computed from
// the exact optimum: a rounded one can cross an integer on one neighbour
// and not on the other (two apart, tests/core/measures/
// clique_lp_bound_scale_test.cc). Canonical: the
// constraint set is fixed by the table and the DCs, and the optimum is
// unique whatever path computes it. Checked on every graph up to 7 nodes
// (CoverBoundTest in tests/core/private/flow_extensions_test.cc) and on
// random tables with every row removed
// (tests/core/measures/clique_lp_bound_test.cc).
//
// Computed per connected component: a component whose plain LP (a
// maximum matching of the double cover) is integral and met by
// GreedyVertexCoverSize has every bound equal to it (integers: exact); the
// others are solved by GLPK's simplex with the triangle and chain rows
// added as cuts, each solve's optimum certified exactly by a primal and a
// dual solution in integer arithmetic (certified_packing_lp.h). Cuts are
// the triangles whose exact y-sum is at least 1 in the last certified
// solution, and per node the heaviest chain ending there when it exceeds 1
// (a longest path in the acyclic graph of R over the component's edges,
// exact integer sums); the loop ends when no triangle and no chain exceeds
// 1, so that solution is feasible with every one of them and its value is
// the optimum over all, exactly. kInternal if GLPK
// fails or an optimum cannot be certified (then no bound at all);
// kInvalidArgument if a family does not have one entry per node. Frees the
// calling thread's GLPK environment before it returns: do not hold other
// GLPK objects on that thread across the call.
//
// When the nodes the plain LP leaves at 1/2 induce 200k edges or more, the
// component LPs run on `num_threads` threads (0: the hardware's count);
// the result does not depend on it,
// each component's optimum being unique and the optima summed in component
// order. The plain LP runs on the calling thread.
//
// A component whose every edge one chain family explains (R(u, v) or
// R(v, u): a single order DC's conflicts) is the comparability graph of a
// partial order, a perfect graph, and its optimum is found without the
// simplex as a maximum matching (Dilworth's theorem; the proof is at
// ComparabilityCover in the .cc): the same value. `comparability_shortcut`
// = false solves those components by the simplex too (tests compare the
// two).
absl::StatusOr<CliqueLpBound> CliqueLpCoverBound(
    const graph::Graph& g, const CliqueConstraints& families,
    int num_threads = 1, bool comparability_shortcut = true);

// The families over the listed rows (ascending), indexed by position in
// the list, as graph::FdCliqueFamiliesOfRows and
// graph::OrderChainFamiliesOfRows(table, dcs, rows) compute them.
using CliqueFamiliesOf = std::function<absl::StatusOr<CliqueConstraints>(
    absl::Span<const graph::NodeId> rows)>;

// The same bound with the families asked for only over the rows the
// Nemhauser-Trotter reduction leaves (H, the nodes at 1/2 in the plain LP:
// about 1% of the rows of the tax tables), which is all the component LPs
// read: they are solved on the subgraph H induces, its rows renumbered by
// position. With families_of = FdCliqueFamiliesOfRows (and
// OrderChainFamiliesOfRows), the LP has the same constraints there as with
// the families over all rows (up to single-part constraints its bounds
// imply; a chain's rows relate by their own cells), so the bound is the same
// (ExpectSameBoundOverHalfRows in tests/core/measures/clique_lp_bound_test.cc
// compares them on random tables and a 24,000-row one). Errors:
// families_of's, kInvalidArgument if a family it returns does not have one
// entry per listed row, and those above.
absl::StatusOr<CliqueLpBound> CliqueLpCoverBoundOverHalfRows(
    const graph::Graph& g, const CliqueFamiliesOf& families_of,
    int num_threads = 1, bool comparability_shortcut = true);

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_CLIQUE_LP_BOUND_H_
