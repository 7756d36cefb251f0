// Sensitivity of one objective: its global sensitivity Delta u and an
// admissible local-sensitivity function delta^u(x, t, r) for local dampening
// (docs/selection.md, "Sensitivities").
#ifndef DPQ_CORE_SELECTION_SENSITIVITY_FUNCTION_H_
#define DPQ_CORE_SELECTION_SENSITIVITY_FUNCTION_H_

#include <cstddef>
#include <cstdint>

namespace dpq::core::selection {

// delta^u(x, t, r) for the private input x the object was built from.
// Admissible ((A1) and (A2) of docs/selection.md, "Sensitivities"): for every
// candidate r, delta(x, 0, r) bounds |u(x, r) - u(y, r)| on neighbours y
// (A1), and delta(x, t + 1, r) >= delta(y, t, r) for neighbours y (A2).
// Implementations must be non-decreasing in t and never exceed global().
class SensitivityFunction {
 public:
  virtual ~SensitivityFunction() = default;
  // delta^u(x, t, r), t >= 0.
  virtual double At(size_t candidate, uint64_t t) const = 0;
  // Delta u, the global sensitivity (an upper bound of At for every t).
  virtual double Global() const = 0;
};

// delta(t, r) = Delta for all t, r: what an objective with only a global
// bound contributes to a local mechanism.
class ConstantSensitivity final : public SensitivityFunction {
 public:
  explicit ConstantSensitivity(double global) : global_(global) {}
  double At(size_t, uint64_t) const override { return global_; }
  double Global() const override { return global_; }

 private:
  double global_;
};

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_SENSITIVITY_FUNCTION_H_
