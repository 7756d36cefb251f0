#include "core/selection/priv_pareto.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/selection/dominance.h"
#include "core/selection/pareto_sensitivity.h"
#include "core/selection/score_table.h"
#include "core/selection/selection_scores.h"
#include "core/selection/sensitivity_function.h"

namespace dpq::core::selection {
namespace {

// Dampening state of one candidate (dampening.h, with the odd extension).
struct DampeningState {
  double sign = 1;
  double magnitude = 0;    // |PS(x, r)|
  double level_start = 0;  // b_t
  bool resolved = false;
  double value = 0;  // D(x, r) once resolved
};

// Adds min(delta_i(c, t), Delta_i) to every cumulative sum S_i(c).
absl::Status AddLevel(absl::Span<const SensitivityFunction* const> sens,
                      size_t n, uint64_t t, std::vector<double>& cumulative) {
  for (size_t i = 0; i < sens.size(); ++i) {
    const double global = sens[i]->Global();
    for (size_t c = 0; c < n; ++c) {
      const double d = sens[i]->At(c, t);
      if (!std::isfinite(d) || d < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "The sensitivity function of objective ", i,
            " must return finite non-negative values, but returned ", d,
            " for candidate ", c, " at distance ", t, "."));
      }
      // The cap keeps delta^{u_i} admissible (dampening.h) and bounds S.
      cumulative[i * n + c] += d < global ? d : global;
    }
  }
  return absl::OkStatus();
}

}  // namespace

SelectionScores PrivParetoGlobalScores(const ScoreTable& table) {
  const std::vector<int64_t> ps = ParetoScores(table);
  SelectionScores out;
  out.scores.assign(ps.begin(), ps.end());
  const size_t n = table.num_candidates;
  out.sensitivity = n > 1 ? static_cast<double>(n - 1) : 1.0;
  return out;
}

absl::StatusOr<SelectionScores> PrivParetoLocalScores(
    const ScoreTable& table,
    absl::Span<const SensitivityFunction* const> sensitivities,
    uint64_t max_steps, const util::StopFn& stop) {
  const size_t n = table.num_candidates;
  const std::vector<int64_t> ps = ParetoScores(table);
  SelectionScores out;
  out.sensitivity = 1;  // local dampening: EM with sensitivity 1 on D
  out.scores.assign(n, 0);
  if (n == 1) return out;
  const double global = static_cast<double>(n - 1);  // Delta PS, the cap

  std::vector<DampeningState> state(n);
  std::vector<size_t> unresolved;
  for (size_t r = 0; r < n; ++r) {
    state[r].sign = ps[r] < 0 ? -1.0 : 1.0;
    state[r].magnitude = std::fabs(static_cast<double>(ps[r]));
    unresolved.push_back(r);
  }
  std::vector<double> cumulative(table.scores.size(), 0);
  // Level t of delta^PS for all unresolved candidates at once: a candidate
  // resolves at the first t with b_t <= |PS| < b_t + delta^PS(t).
  for (uint64_t t = 0; t < max_steps && !unresolved.empty(); ++t) {
    if (util::StopRequested(stop)) return util::StoppedError();
    absl::Status added = AddLevel(sensitivities, n, t, cumulative);
    if (!added.ok()) return added;
    const std::vector<int64_t> level =
        ParetoSensitivityLevel(table, cumulative, unresolved);
    std::vector<size_t> still;
    for (size_t q = 0; q < unresolved.size(); ++q) {
      DampeningState& s = state[unresolved[q]];
      const double raw = static_cast<double>(level[q]);
      const double delta = raw < global ? raw : global;
      if (s.magnitude < s.level_start + delta) {
        s.value = s.sign * (static_cast<double>(t) +
                            (s.magnitude - s.level_start) / delta);
        s.resolved = true;
      } else {
        s.level_start += delta;
        still.push_back(unresolved[q]);
      }
    }
    unresolved.swap(still);
  }
  for (size_t r = 0; r < n; ++r) {
    const DampeningState& s = state[r];
    // Tail with delta = Delta PS after T_max levels (dampening.h).
    out.scores[r] = s.resolved
                        ? s.value
                        : s.sign * (static_cast<double>(max_steps) +
                                    (s.magnitude - s.level_start) / global);
  }
  return out;
}

}  // namespace dpq::core::selection
