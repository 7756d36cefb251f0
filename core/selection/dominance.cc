#include "core/selection/dominance.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/selection/score_table.h"

namespace dpq::core::selection {
namespace {

bool Dominates(double p, double q, DominanceKind kind) {
  return kind == DominanceKind::kWeak ? p >= q : p > q;
}

// Counts of inserted values by rank, with suffix queries.
class FenwickTree {
 public:
  explicit FenwickTree(size_t size) : tree_(size + 1, 0) {}
  void Add(size_t rank) {
    for (size_t i = rank + 1; i < tree_.size(); i += i & (~i + 1)) ++tree_[i];
  }
  // Number of inserted ranks < rank.
  int64_t Prefix(size_t rank) const {
    int64_t sum = 0;
    for (size_t i = rank; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  }

 private:
  std::vector<int64_t> tree_;
};

std::vector<size_t> OrderByFirstDescending(const ScoreTable& table) {
  std::vector<size_t> order(table.num_candidates);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return table.at(0, a) > table.at(0, b);
  });
  return order;
}

// First index in the sorted `values` a point must reach to dominate q.
size_t FirstDominatingRank(const std::vector<double>& values, double q,
                           DominanceKind kind) {
  const auto it = kind == DominanceKind::kWeak
                      ? std::lower_bound(values.begin(), values.end(), q)
                      : std::upper_bound(values.begin(), values.end(), q);
  return static_cast<size_t>(it - values.begin());
}

std::vector<int64_t> CountOneObjective(const ScoreTable& points,
                                       const ScoreTable& queries,
                                       DominanceKind kind) {
  std::vector<double> values(points.scores.begin(),
                             points.scores.begin() + points.num_candidates);
  std::sort(values.begin(), values.end());
  std::vector<int64_t> counts(queries.num_candidates);
  for (size_t q = 0; q < queries.num_candidates; ++q) {
    counts[q] = static_cast<int64_t>(
        values.size() - FirstDominatingRank(values, queries.at(0, q), kind));
  }
  return counts;
}

// Sweep over the first objective from the top: before answering a query,
// every point that dominates it in the first objective is inserted (for
// the weak kind this includes all ties, whatever their order), and the
// Fenwick tree counts those that also dominate it in the second.
std::vector<int64_t> CountTwoObjectives(const ScoreTable& points,
                                        const ScoreTable& queries,
                                        DominanceKind kind) {
  std::vector<double> second(points.scores.begin() + points.num_candidates,
                             points.scores.end());
  std::sort(second.begin(), second.end());
  second.erase(std::unique(second.begin(), second.end()), second.end());
  const std::vector<size_t> point_order = OrderByFirstDescending(points);
  const std::vector<size_t> query_order = OrderByFirstDescending(queries);
  FenwickTree tree(second.size());
  std::vector<int64_t> counts(queries.num_candidates);
  size_t next = 0;
  for (size_t q : query_order) {
    const double q0 = queries.at(0, q);
    while (next < point_order.size() &&
           Dominates(points.at(0, point_order[next]), q0, kind)) {
      const double p1 = points.at(1, point_order[next]);
      tree.Add(static_cast<size_t>(
          std::lower_bound(second.begin(), second.end(), p1) - second.begin()));
      ++next;
    }
    const size_t rank = FirstDominatingRank(second, queries.at(1, q), kind);
    counts[q] = static_cast<int64_t>(next) - tree.Prefix(rank);
  }
  return counts;
}

std::vector<int64_t> CountNaive(const ScoreTable& points,
                                const ScoreTable& queries, DominanceKind kind) {
  std::vector<int64_t> counts(queries.num_candidates, 0);
  for (size_t q = 0; q < queries.num_candidates; ++q) {
    for (size_t p = 0; p < points.num_candidates; ++p) {
      bool all = true;
      for (size_t i = 0; i < points.num_objectives && all; ++i) {
        all = Dominates(points.at(i, p), queries.at(i, q), kind);
      }
      counts[q] += all ? 1 : 0;
    }
  }
  return counts;
}

}  // namespace

bool WeaklyDominates(const ScoreTable& table, size_t a, size_t b) {
  for (size_t i = 0; i < table.num_objectives; ++i) {
    if (table.at(i, a) < table.at(i, b)) return false;
  }
  return true;
}

std::vector<int64_t> CountDominatingPoints(const ScoreTable& points,
                                           const ScoreTable& queries,
                                           DominanceKind kind) {
  if (points.num_candidates == 0 || queries.num_candidates == 0) {
    return std::vector<int64_t>(queries.num_candidates, 0);
  }
  switch (points.num_objectives) {
    case 1:
      return CountOneObjective(points, queries, kind);
    case 2:
      return CountTwoObjectives(points, queries, kind);
    default:
      return CountNaive(points, queries, kind);
  }
}

std::vector<int64_t> ParetoScores(const ScoreTable& table) {
  // Every candidate weakly dominates itself: subtract that one (PS counts
  // only the others, Def. 4.3).
  std::vector<int64_t> scores =
      CountDominatingPoints(table, table, DominanceKind::kWeak);
  for (int64_t& s : scores) s = 1 - s;
  return scores;
}

std::vector<int64_t> ParetoScoresNaive(const ScoreTable& table) {
  std::vector<int64_t> scores(table.num_candidates, 0);
  for (size_t r = 0; r < table.num_candidates; ++r) {
    for (size_t other = 0; other < table.num_candidates; ++other) {
      if (other != r && WeaklyDominates(table, other, r)) --scores[r];
    }
  }
  return scores;
}

}  // namespace dpq::core::selection
