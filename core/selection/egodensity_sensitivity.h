// Admissible sensitivity of the egocentric density of a vertex under edge-DP
// (paper: dp-multi-objective-selection, Eq. (2) and Lemma 7.2). The paper's
// delta^ed = 2 / (d - t - 2) violates (A2) at d - t = 3, where it is 2 > the
// global sensitivity 1 and drops to 1 at the next t (docs/privacy.md 6.1;
// EgodensitySensitivityTest.PaperFormulaViolatesA2). We use the tight corrected
// function below instead (docs/selection.md, "Sensitivities").
#ifndef DPQ_CORE_SELECTION_EGODENSITY_SENSITIVITY_H_
#define DPQ_CORE_SELECTION_EGODENSITY_SENSITIVITY_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/selection/sensitivity_function.h"

namespace dpq::core::selection {

// delta^ed(G, t, v) = min(1, 2 / (d - t)) if d - t >= 2, else 1, with
// d = deg_G(v) and egodensity(v) = 2 T / (d (d - 1)) (T = edges among the
// neighbours of v; 0 for d < 2).
// Why admissible:
//  (A1) the exact local sensitivity is 2 / d for d >= 2 (one edge between
//       two neighbours moves T by 1: 2 / (d (d - 1)); an edge to v moves d
//       by one and T by at most the degree of the new neighbour inside
//       N(v), which gives at most 2 / d), 1 for d = 1 (a second neighbour
//       can make the density 1) and 0 for d = 0 (enumerated in the tests).
//  (A2) one edge changes d by at most 1, so within distance t the degree is
//       >= d - t, and k -> (k >= 2 ? min(1, 2 / k) : 1) is non-increasing.
// Never exceeds the global sensitivity 1. Exhaustively checked on all
// graphs with 5 vertices in
// tests/core/selection/egodensity_sensitivity_test.cc.
inline double EgocentricDensitySensitivityAt(uint64_t degree, uint64_t t) {
  if (degree < t + 2) return 1.0;  // d - t < 2
  const double bound = 2.0 / static_cast<double>(degree - t);
  return bound < 1.0 ? bound : 1.0;
}

// delta^ed for every vertex of a graph, from its degree sequence
// (degrees[v] = deg_G(v)). Global sensitivity 1. The degree objective needs
// no class of its own: use ConstantSensitivity(1) (one edge changes the
// degree of each endpoint by 1).
class EgocentricDensitySensitivity final : public SensitivityFunction {
 public:
  explicit EgocentricDensitySensitivity(std::vector<uint64_t> degrees)
      : degrees_(std::move(degrees)) {}
  double At(size_t vertex, uint64_t t) const override {
    return EgocentricDensitySensitivityAt(degrees_[vertex], t);
  }
  double Global() const override { return 1.0; }

 private:
  std::vector<uint64_t> degrees_;
};

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_EGODENSITY_SENSITIVITY_H_
