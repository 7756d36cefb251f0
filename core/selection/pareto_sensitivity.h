// Admissible sensitivity function delta^PS of the Pareto score (paper:
// dp-multi-objective-selection, Def. 4.5 and Thm 4.7) in the closed form of
// docs/selection.md, "Sensitivities".
#ifndef DPQ_CORE_SELECTION_PARETO_SENSITIVITY_H_
#define DPQ_CORE_SELECTION_PARETO_SENSITIVITY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/selection/score_table.h"
#include "core/selection/sensitivity_function.h"

namespace dpq::core::selection {

// With S_i^t(c) = sum_{j=0..t} delta^{u_i}(x, j, c) and
// u_i^{+-t}(c) = u_i(x, c) +- S_i^t(c) (t + 1 terms: how far u_i(., c) can
// move within distance t + 1 of x),
//   delta^PS(x,t,r) = #{r' != r : for all i u_i^{+t}(r') >= u_i^{-t}(r)}
//                   - #{r'      : for all i u_i^{-t}(r') >  u_i^{+t}(r)}
// ("could dominate r within distance t + 1" minus "surely dominates r").
// This equals the paper's |dom^-| + |ndom^+| (Def. 4.5; every member of dom is
// in the first set, every member of the second set is in dom), uses weak
// dominance like PS (the artifact's strict test misses the boundary case
// u_i^{-t}(r') = u_i^{+t}(r)), and is admissible when every delta^{u_i} is
// (Thm 4.7, whose statement holds although its proof has slips; checked on
// all 5-vertex graphs by tests/core/selection/).
// Floating point: comparisons get a relative slack of 1e-12 in the
// direction that only enlarges delta^PS, so rounding in the cumulative sums
// cannot hide a boundary case (a larger delta never breaks (A1), and the
// same slack on both sides keeps the (A2) argument).
// Values are in [0, n - 1]; Global() = n - 1 (PS itself ranges over
// [-(n - 1), 0]).
// Does not own the table or the component functions.
class ParetoSensitivity final : public SensitivityFunction {
 public:
  // kInvalidArgument if components.size() != table.num_objectives() or a
  // pointer is null.
  static absl::StatusOr<ParetoSensitivity> Create(
      const ScoreTable& table,
      std::vector<const SensitivityFunction*> components);

  // O(n m t) per call (recomputes the cumulative sums); use
  // ParetoSensitivityLevel for all candidates at once.
  double At(size_t candidate, uint64_t t) const override;
  double Global() const override;

 private:
  ParetoSensitivity(const ScoreTable* table,
                    std::vector<const SensitivityFunction*> components)
      : table_(table), components_(std::move(components)) {}

  const ScoreTable* table_;
  std::vector<const SensitivityFunction*> components_;
};

// delta^PS(x, t, r) for the candidates r in `queries` (all if empty), given
// the cumulative sums cumulative[i * n + c] = S_i^t(c) of one level t.
// O(n log n) for 2 objectives, O(n |queries| m) otherwise.
std::vector<int64_t> ParetoSensitivityLevel(const ScoreTable& table,
                                            absl::Span<const double> cumulative,
                                            absl::Span<const size_t> queries);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_PARETO_SENSITIVITY_H_
