// All simple graphs on a few vertices, for exhaustive checks of edge-DP
// sensitivities: a graph is a bit mask over the vertex pairs, and its
// edge-neighbours are the masks that differ in one bit.
#ifndef DPQ_TESTS_CORE_SELECTION_SMALL_GRAPHS_H_
#define DPQ_TESTS_CORE_SELECTION_SMALL_GRAPHS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/selection/score_table.h"

namespace dpq::testing {

class SmallGraphs {
 public:
  explicit SmallGraphs(int vertices) : vertices_(vertices) {
    for (int a = 0; a < vertices; ++a) {
      for (int b = a + 1; b < vertices; ++b) pairs_.emplace_back(a, b);
    }
  }
  int vertices() const { return vertices_; }
  int pairs() const { return static_cast<int>(pairs_.size()); }
  uint32_t num_graphs() const { return 1u << pairs_.size(); }

  bool HasEdge(uint32_t g, int a, int b) const {
    for (size_t k = 0; k < pairs_.size(); ++k) {
      if ((pairs_[k].first == a && pairs_[k].second == b) ||
          (pairs_[k].first == b && pairs_[k].second == a)) {
        return (g >> k) & 1u;
      }
    }
    return false;
  }
  uint64_t Degree(uint32_t g, int v) const {
    uint64_t d = 0;
    for (int w = 0; w < vertices_; ++w) d += (w != v && HasEdge(g, v, w));
    return d;
  }
  // Eq. (2) of the paper with 0 for degree < 2, by brute force.
  double EgocentricDensity(uint32_t g, int v) const {
    std::vector<int> nbrs;
    for (int w = 0; w < vertices_; ++w) {
      if (w != v && HasEdge(g, v, w)) nbrs.push_back(w);
    }
    const double d = static_cast<double>(nbrs.size());
    if (nbrs.size() < 2) return 0;
    double edges = 0;
    for (size_t i = 0; i < nbrs.size(); ++i) {
      for (size_t j = i + 1; j < nbrs.size(); ++j) {
        edges += HasEdge(g, nbrs[i], nbrs[j]);
      }
    }
    return 2 * edges / (d * (d - 1));
  }
  // Candidates = vertices, objectives (degree, egocentric density).
  core::selection::ScoreTable DegreeAndDensity(uint32_t g) const {
    core::selection::ScoreTable t;
    t.num_candidates = static_cast<size_t>(vertices_);
    t.num_objectives = 2;
    t.scores.resize(2 * t.num_candidates);
    for (int v = 0; v < vertices_; ++v) {
      t.at(0, static_cast<size_t>(v)) = static_cast<double>(Degree(g, v));
      t.at(1, static_cast<size_t>(v)) = EgocentricDensity(g, v);
    }
    return t;
  }
  std::vector<uint64_t> Degrees(uint32_t g) const {
    std::vector<uint64_t> d;
    for (int v = 0; v < vertices_; ++v) d.push_back(Degree(g, v));
    return d;
  }

 private:
  int vertices_;
  std::vector<std::pair<int, int>> pairs_;
};

}  // namespace dpq::testing

#endif  // DPQ_TESTS_CORE_SELECTION_SMALL_GRAPHS_H_
