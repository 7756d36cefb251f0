// Admissible sensitivity of a rate objective such as TPR = TP / P or
// TNR = TN / N (paper: dp-multi-objective-selection, Lemma 6.1). The
// paper's printed delta^TPR is NOT admissible (TP = 9, FN = 1 gives 1/90
// while one record moves TPR by 1/10, and it decreases with t;
// docs/privacy.md 6.1, RateSensitivityTest.PaperFormulaIsNotAdmissible).
// We use the corrected function below instead (docs/selection.md,
// "Sensitivities").
#ifndef DPQ_CORE_SELECTION_RATE_SENSITIVITY_H_
#define DPQ_CORE_SELECTION_RATE_SENSITIVITY_H_

#include <cstddef>
#include <cstdint>

#include "core/selection/sensitivity_function.h"

namespace dpq::core::selection {

// delta(x, t) = 1 / max(C(x) - t, 1) for a rate count / C(x), where C(x) is
// the size of the class the rate is taken over (P for TPR, N for TNR).
// Why admissible, under replacement and add/remove neighbours alike:
//  (A1) one record moves the rate by at most 1 / C(x) when C(x) >= 1
//       (replacement: a TP becomes an FN; add/remove: max(TP, FN) /
//       (P (P - 1)) <= 1 / P), and by at most 1 = delta when C(x) = 0
//       (rate 0 by convention, a neighbour may have C = 1).
//  (A2) C moves by at most 1 per neighbour step, so within distance t the
//       class size is >= C(x) - t, and x -> 1 / max(C - t, 1) is
//       non-increasing in C, non-decreasing in t.
// Never exceeds the global sensitivity 1. Exhaustively checked for
// C <= 12, t <= 4 in tests/core/selection/rate_sensitivity_test.cc.
inline double RateSensitivityAt(uint64_t class_count, uint64_t t) {
  const uint64_t remaining = class_count > t ? class_count - t : 0;
  return 1.0 / static_cast<double>(remaining > 1 ? remaining : 1);
}

// The rate convention used with this sensitivity: count / class_count, and 0
// when class_count == 0, so that no error depends on the rows
// (docs/selection.md, "DP-MOET trees use public attribute domains only").
inline double Rate(uint64_t count, uint64_t class_count) {
  return class_count == 0
             ? 0.0
             : static_cast<double>(count) / static_cast<double>(class_count);
}

// delta^TPR (class_count = P) or delta^TNR (class_count = N) for every
// candidate: the function depends only on the class size of the private
// data, not on the candidate (tree). Global sensitivity 1.
class RateSensitivity final : public SensitivityFunction {
 public:
  explicit RateSensitivity(uint64_t class_count) : class_count_(class_count) {}
  double At(size_t, uint64_t t) const override {
    return RateSensitivityAt(class_count_, t);
  }
  double Global() const override { return 1.0; }

 private:
  uint64_t class_count_;
};

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_RATE_SENSITIVITY_H_
