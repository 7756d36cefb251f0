// Sensitivity of one objective: its global sensitivity Delta u and an
// admissible local-sensitivity function delta^u(x, t, r) for local dampening
// (spec sections 1.3, 1.5 and 5; the corrected functions of section 10).
#ifndef DPQ_CORE_SELECTION_SENSITIVITY_FUNCTION_H_
#define DPQ_CORE_SELECTION_SENSITIVITY_FUNCTION_H_

#include <cstddef>
#include <cstdint>

namespace dpq::core::selection {

// delta^u(x, t, r) for the private input x the object was built from.
// Admissible (spec Def. of admissibility, (A1) and (A2)): for every
// candidate r, delta(0, r) bounds |u(x, r) - u(y, r)| on neighbours y, and
// delta(t, r) >= delta(t-1, r') style conditions of the spec hold.
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
