// Brute-force generic sensitivity on tiny domains, for tests only.
//
// Tables are count vectors over the base cells of a product domain. Two
// tables Ta, Tb are feasible under the background knowledge Q (exact cells
// of some cuboids) with the same exact counts iff D = Tb - Ta aggregates to
// 0 on every exact cell; they are induced neighbours iff no third feasible
// table Tc lies cell-wise between them, i.e. no D' != 0, D with
// min(0, D_i) <= D'_i <= max(0, D_i) aggregates to 0 on the exact cells
// (Tc = Ta + D'). Every such D is realised by Ta = max(-D, 0),
// Tb = max(D, 0), and whether a pair are induced neighbours depends on D
// alone. So enumerating every D with |D_i| <= k enumerates every pair of
// feasible tables whose counts differ by at most k per cell, with their
// induced-neighbour relation; the result is the largest L1 distance of the
// target cuboid between such neighbours.
#ifndef DPQ_TESTS_CORE_CUBE_BRUTE_FORCE_SENSITIVITY_H_
#define DPQ_TESTS_CORE_CUBE_BRUTE_FORCE_SENSITIVITY_H_

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"

namespace dpq::core::cube::testing {

struct ExactCells {
  DimSet dims;
  std::vector<bool> exact;  // per cell of dims (row-major); empty = all
};

// A schema with dimensions "D0", "D1", ... of the given sizes.
inline CubeSchema TinySchema(const std::vector<size_t>& sizes) {
  CubeSchema s;
  for (size_t d = 0; d < sizes.size(); ++d) {
    CubeDimension dim;
    // StrCat, not "D" + std::to_string(d): GCC 12 at -O3 reports a false
    // -Wrestrict in the inlined operator+ (GCC bug 105329).
    dim.column = absl::StrCat("D", d);
    for (size_t v = 0; v < sizes[d]; ++v)
      dim.labels.push_back(std::to_string(v));
    s.dimensions.push_back(dim);
  }
  return s;
}

class BruteForce {
 public:
  BruteForce(std::vector<size_t> sizes, std::vector<ExactCells> q)
      : sizes_(std::move(sizes)), q_(std::move(q)) {
    m_ = 1;
    for (size_t s : sizes_) m_ *= s;
    for (ExactCells& c : q_) {
      maps_.push_back(CellMap(c.dims));
      size_t n = 1;
      for (size_t d : c.dims) n *= sizes_[d];
      if (c.exact.empty()) c.exact.assign(n, true);
    }
  }

  // max L1 distance of the cuboid over `target` between induced neighbours
  // whose counts differ by at most k per cell.
  int64_t Sensitivity(const DimSet& target, int k) const {
    const std::vector<size_t> tmap = CellMap(target);
    size_t tsize = 1;
    for (size_t d : target) tsize *= sizes_[d];
    std::vector<int> delta(m_, -k);
    int64_t best = 0;
    while (true) {
      if (!AllZero(delta) && Feasible(delta) && Minimal(delta)) {
        std::vector<int64_t> agg(tsize, 0);
        for (size_t i = 0; i < m_; ++i) agg[tmap[i]] += delta[i];
        int64_t l1 = 0;
        for (int64_t v : agg) l1 += std::llabs(v);
        best = std::max(best, l1);
      }
      size_t i = 0;
      while (i < m_ && delta[i] == k) delta[i++] = -k;
      if (i == m_) break;
      ++delta[i];
    }
    return best;
  }

 private:
  // Base cell -> cell of the cuboid over dims (row-major over sorted dims).
  std::vector<size_t> CellMap(const DimSet& dims) const {
    std::vector<size_t> map(m_);
    for (size_t i = 0; i < m_; ++i) {
      size_t rest = i, out = 0;
      std::vector<size_t> digit(sizes_.size());
      for (size_t d = sizes_.size(); d-- > 0;) {
        digit[d] = rest % sizes_[d];
        rest /= sizes_[d];
      }
      for (size_t d : dims) out = out * sizes_[d] + digit[d];
      map[i] = out;
    }
    return map;
  }

  static bool AllZero(const std::vector<int>& v) {
    for (int x : v) {
      if (x != 0) return false;
    }
    return true;
  }

  bool Feasible(const std::vector<int>& delta) const {
    for (size_t c = 0; c < q_.size(); ++c) {
      std::vector<int64_t>& agg = scratch_;  // no allocation per call
      agg.assign(q_[c].exact.size(), 0);
      const std::vector<size_t>& map = maps_[c];
      for (size_t i = 0; i < m_; ++i) agg[map[i]] += delta[i];
      for (size_t j = 0; j < agg.size(); ++j) {
        if (agg[j] != 0 && q_[c].exact[j]) return false;
      }
    }
    return true;
  }

  // No feasible D' strictly between 0 and D (conformally).
  bool Minimal(const std::vector<int>& delta) const {
    std::vector<int> sub(m_, 0);
    while (true) {
      size_t i = 0;
      while (i < m_ && sub[i] == delta[i]) sub[i++] = 0;
      if (i == m_) return true;  // wrapped around: none found
      sub[i] += delta[i] > 0 ? 1 : -1;
      if (sub != delta && Feasible(sub)) return false;
    }
  }

  std::vector<size_t> sizes_;
  std::vector<ExactCells> q_;
  std::vector<std::vector<size_t>> maps_;
  size_t m_ = 1;
  mutable std::vector<int64_t> scratch_;
};

}  // namespace dpq::core::cube::testing

#endif  // DPQ_TESTS_CORE_CUBE_BRUTE_FORCE_SENSITIVITY_H_
