// Weak dominance between candidates and the Pareto score (paper:
// dp-multi-objective-selection, Def. 4.3; docs/selection.md, "Pareto
// score": the candidate itself is not counted).
#ifndef DPQ_CORE_SELECTION_DOMINANCE_H_
#define DPQ_CORE_SELECTION_DOMINANCE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/selection/score_table.h"

namespace dpq::core::selection {

// a weakly dominates b: u_i(a) >= u_i(b) for every objective i.
bool WeaklyDominates(const ScoreTable& table, size_t a, size_t b);

// How a point p is compared with a query q in CountDominatingPoints.
enum class DominanceKind {
  kWeak,    // p_i >= q_i for every i
  kStrict,  // p_i >  q_i for every i
};

// For every query q (row j of `queries`), the number of points p (rows of
// `points`) that dominate q in the given kind. Both tables must have the
// same number of objectives (>= 1); "candidates" are the rows here. Values
// must not be NaN.
// Complexity: O((P + Q) log P) for 2 objectives (sweep over the first
// objective with a Fenwick tree over the ranks of the second; ties of the
// first objective are all inserted before any query at that value, weak
// kind), O(P + Q log P) for 1, and O(P Q m) otherwise.
std::vector<int64_t> CountDominatingPoints(const ScoreTable& points,
                                           const ScoreTable& queries,
                                           DominanceKind kind);

// PS(x, r) = -#{r' != r : r' weakly dominates r} for every candidate, in
// [-(n - 1), 0]. Candidates with identical utility vectors dominate each
// other (each costs the other one point). Same complexity as
// CountDominatingPoints with P = Q = n.
std::vector<int64_t> ParetoScores(const ScoreTable& table);

// The O(n^2 m) definition, for tests and as a reference.
std::vector<int64_t> ParetoScoresNaive(const ScoreTable& table);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_DOMINANCE_H_
