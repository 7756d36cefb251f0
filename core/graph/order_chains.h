// The cliques of a conflict graph that its order DCs imply: chains.
//
// An order DC compares each of its columns between t1 and t2 and nothing
// else, with equalities and at least two order comparisons, e.g. the Tax
// DC not(t1.state=t2.state & t1.salary>t2.salary & t1.rate<t2.rate) or
// Adult's not(t1.Gain<t2.Gain & t1.Loss<t2.Loss). Write R(u, v) when the
// ordered pair t1 = u, t2 = v satisfies every predicate: two rows conflict
// through the DC iff R(u, v) or R(v, u). Each predicate is transitive
// (=, <, <=, >, >= all are), so R is, and a set of rows is a clique of
// that DC's graph iff R orders it as a chain. Every chain is therefore a
// clique of the conflict graph, and the clique LP of the repair bound
// (core/measures/clique_lp_bound.h) may constrain sum y <= 1 over it. The
// largest weight of a chain is a longest path in an acyclic graph, so the
// most violated of these constraints is found exactly in one pass over the
// edges (no search), however long the chains are: triangles alone leave a
// clique of k rows at 2k/3 where its cover needs k - 1.
//
// Whether R(u, v) holds depends on the cells of u and v only, so adding or
// removing a row adds or removes exactly the chains through it: a family
// is hereditary, which the bound's sensitivity proof uses.
#ifndef DPQ_CORE_GRAPH_ORDER_CHAINS_H_
#define DPQ_CORE_GRAPH_ORDER_CHAINS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/table.h"

namespace dpq::core::graph {

// One order DC's relation R over some rows. Rows in one `group` agree on
// the DC's equality columns; rows with a NULL among the DC's columns are
// in no conflict through it and have group kNone. Each order predicate is
// one key: keys[row * arity + j] is row's key for predicate j, in an order
// that makes predicate j read "key(t1) < key(t2)" (strict[j]) or
// "key(t1) <= key(t2)" (a > or >= predicate reverses its column's order).
struct ChainFamily {
  static constexpr uint32_t kNone = UINT32_MAX;
  std::string description;  // the DC, as written
  std::vector<uint32_t> group;
  uint32_t arity = 0;
  std::vector<int64_t> keys;
  std::vector<uint8_t> strict;  // one per key

  // R(u, v): same group (not kNone) and every key in order. Rows u != v.
  bool Precedes(uint32_t u, uint32_t v) const {
    if (group[u] == kNone || group[u] != group[v]) return false;
    const int64_t* ku = &keys[static_cast<size_t>(u) * arity];
    const int64_t* kv = &keys[static_cast<size_t>(v) * arity];
    for (uint32_t j = 0; j < arity; ++j) {
      if (strict[j] ? !(ku[j] < kv[j]) : !(ku[j] <= kv[j])) return false;
    }
    return true;
  }
};

// True if `dc` is an order DC: every predicate t1.A op t2.A on one column
// (op one of = < <= > >=), at least two of them order comparisons. With
// one, its chains are the transversals of an FD block (t1.X = t2.X &
// t1.B < t2.B conflicts the pairs of X -> B), which graph/fd_cliques.h
// states compactly, or (<=) all rows of an X-group.
bool IsOrderDc(const constraints::DenialConstraint& dc);

// One family per order DC of `dcs`, in their order (a DC whose relation an
// earlier one already states, e.g. its mirror with t1 and t2 exchanged,
// adds none), over the listed rows
// (`rows` ascending, each below table.num_rows(), else kInvalidArgument),
// indexed by position in the list. O(rows * predicates) expected time.
absl::StatusOr<std::vector<ChainFamily>> OrderChainFamiliesOfRows(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    absl::Span<const uint32_t> rows);

// The same over every row of `table`.
absl::StatusOr<std::vector<ChainFamily>> OrderChainFamilies(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs);

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_ORDER_CHAINS_H_
