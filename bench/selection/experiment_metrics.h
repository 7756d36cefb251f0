// Error metrics of the multi-objective selection experiments
// (docs/selection-experiments.md): Zitzler's coverage C with strict dominance
// (as the paper's artifact) and recall.
#ifndef DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_METRICS_H_
#define DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_METRICS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace dpq::bench {

using Point = std::array<double, 2>;

// a strictly dominates b: better in every coordinate.
inline bool StrictlyDominates(const Point& a, const Point& b) {
  return a[0] > b[0] && a[1] > b[1];
}

// C(X', X'') = |{a'' in X'' : some a' in X' strictly dominates a''}| /
// |X''| (Def. 6.3 with the artifact's strict dominance, so C(X, X) = 0).
inline double CoverageC(const std::vector<Point>& reference,
                        const std::vector<Point>& candidate) {
  if (candidate.empty()) return 0;
  size_t covered = 0;
  for (const Point& b : candidate) {
    covered +=
        std::any_of(reference.begin(), reference.end(),
                    [&](const Point& a) { return StrictlyDominates(a, b); })
            ? 1
            : 0;
  }
  return static_cast<double>(covered) / static_cast<double>(candidate.size());
}

// |truth ∩ retrieved| / |truth|.
inline double Recall(const std::vector<size_t>& truth,
                     const std::vector<size_t>& retrieved) {
  if (truth.empty()) return 0;
  size_t hits = 0;
  for (size_t t : truth) {
    hits += std::count(retrieved.begin(), retrieved.end(), t) > 0 ? 1 : 0;
  }
  return static_cast<double>(hits) / static_cast<double>(truth.size());
}

}  // namespace dpq::bench

#endif  // DPQ_TESTS_BENCH_SELECTION_EXPERIMENT_METRICS_H_
