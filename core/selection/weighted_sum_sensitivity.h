// Sensitivity of the PrivAgg score u_agg = sum_i w_i u_i (paper:
// dp-multi-objective-selection, Thms 5.3 and 5.4; docs/selection.md,
// "Sensitivities").
#ifndef DPQ_CORE_SELECTION_WEIGHTED_SUM_SENSITIVITY_H_
#define DPQ_CORE_SELECTION_WEIGHTED_SUM_SENSITIVITY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/selection/sensitivity_function.h"

namespace dpq::core::selection {

// delta^agg(x, t, r) = sum_i |w_i| delta^{u_i}(x, t, r) and
// Delta u_agg = sum_i |w_i| Delta u_i.
// Why: |u_agg(x,r) - u_agg(y,r)| <= sum_i |w_i| |u_i(x,r) - u_i(y,r)| by the
// triangle inequality, which gives (A1) and the global bound; (A2) holds
// term by term because |w_i| >= 0. The absolute values matter for negative
// weights (the paper's application formulas omit them; its weights are
// positive). Unlike the artifact's DeltaWeighted (which used delta_1 twice
// and never delta_2) every
// component contributes with its own delta at the same t.
// Sums are rounded UP (a product or partial sum that rounded down is moved
// one ulp toward +infinity), so the floating-point value never understates
// the real one.
// Does not own the component functions; they must outlive this object.
class WeightedSumSensitivity final : public SensitivityFunction {
 public:
  // kInvalidArgument if the sizes differ, a pointer is null or a weight is
  // not finite.
  static absl::StatusOr<WeightedSumSensitivity> Create(
      std::vector<double> weights,
      std::vector<const SensitivityFunction*> components);

  double At(size_t candidate, uint64_t t) const override;
  double Global() const override;

 private:
  WeightedSumSensitivity(std::vector<double> abs_weights,
                         std::vector<const SensitivityFunction*> components);

  std::vector<double> abs_weights_;
  std::vector<const SensitivityFunction*> components_;
};

// The weights divided by their largest magnitude, so that max |w_i| = 1.
// PrivAgg is scale-invariant (the scores and their sensitivity scale
// together, and the mechanisms depend on their ratio only), so this changes
// no output distribution; it keeps every weighted sum of finite, public-
// bounded scores finite. Without it, weights near DBL_MAX overflow on
// exactly the candidates whose score exceeds a threshold, an error that
// would reveal the largest score (docs/privacy.md 7, finding 2).
// Precondition: finite weights, not all zero.
std::vector<double> NormalizeWeights(absl::Span<const double> weights);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_WEIGHTED_SUM_SENSITIVITY_H_
