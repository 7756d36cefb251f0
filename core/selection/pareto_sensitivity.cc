#include "core/selection/pareto_sensitivity.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/selection/dominance.h"
#include "core/selection/score_table.h"

namespace dpq::core::selection {
namespace {

// Relative slack of the closed form's comparisons (see the header): far above
// the rounding error of a cumulative sum, far below any real score gap.
constexpr double kRelativeSlack = 1e-12;

double Slack(double value) { return kRelativeSlack * (1 + std::fabs(value)); }

// u + direction * S for every candidate (direction +1 or -1).
ScoreTable Shifted(const ScoreTable& table, absl::Span<const double> cumulative,
                   double direction) {
  ScoreTable shifted = table;
  for (size_t k = 0; k < shifted.scores.size(); ++k) {
    shifted.scores[k] += direction * cumulative[k];
  }
  return shifted;
}

// Rows `queries` of u + direction * S, each moved by the slack in
// `slack_direction`.
ScoreTable ShiftedQueries(const ScoreTable& table,
                          absl::Span<const double> cumulative, double direction,
                          double slack_direction,
                          absl::Span<const size_t> queries) {
  ScoreTable out;
  out.num_candidates = queries.size();
  out.num_objectives = table.num_objectives;
  out.scores.resize(out.num_candidates * out.num_objectives);
  for (size_t i = 0; i < table.num_objectives; ++i) {
    for (size_t q = 0; q < queries.size(); ++q) {
      const size_t k = i * table.num_candidates + queries[q];
      const double v = table.scores[k] + direction * cumulative[k];
      out.at(i, q) = v + slack_direction * Slack(v);
    }
  }
  return out;
}

}  // namespace

std::vector<int64_t> ParetoSensitivityLevel(const ScoreTable& table,
                                            absl::Span<const double> cumulative,
                                            absl::Span<const size_t> queries) {
  std::vector<size_t> all;
  if (queries.empty()) {
    all.resize(table.num_candidates);
    for (size_t r = 0; r < all.size(); ++r) all[r] = r;
    queries = all;
  }
  // "Could dominate r": u^{+t}(r') >= u^{-t}(r) - slack. r itself always
  // qualifies (S >= 0 and rounding is monotone), hence the - 1.
  const std::vector<int64_t> could = CountDominatingPoints(
      Shifted(table, cumulative, +1),
      ShiftedQueries(table, cumulative, -1, -1, queries), DominanceKind::kWeak);
  // "Surely dominates r": u^{-t}(r') > u^{+t}(r) + slack; never r itself.
  const std::vector<int64_t> surely =
      CountDominatingPoints(Shifted(table, cumulative, -1),
                            ShiftedQueries(table, cumulative, +1, +1, queries),
                            DominanceKind::kStrict);
  std::vector<int64_t> delta(queries.size());
  for (size_t q = 0; q < queries.size(); ++q) {
    delta[q] = could[q] - 1 - surely[q];
  }
  return delta;
}

absl::StatusOr<ParetoSensitivity> ParetoSensitivity::Create(
    const ScoreTable& table,
    std::vector<const SensitivityFunction*> components) {
  if (components.size() != table.num_objectives) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The Pareto score needs one sensitivity function per objective, but "
        "there are ",
        components.size(), " for ", table.num_objectives, " objectives."));
  }
  for (size_t i = 0; i < components.size(); ++i) {
    if (components[i] == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The sensitivity function of objective ", i, " is missing (null)."));
    }
  }
  return ParetoSensitivity(&table, std::move(components));
}

double ParetoSensitivity::At(size_t candidate, uint64_t t) const {
  const ScoreTable& table = *table_;
  const size_t n = table.num_candidates;
  std::vector<double> cumulative(table.scores.size(), 0);
  for (size_t i = 0; i < table.num_objectives; ++i) {
    for (size_t c = 0; c < n; ++c) {
      // Capped at the global sensitivity, as in PrivParetoLocalScores.
      const double global = components_[i]->Global();
      for (uint64_t j = 0; j <= t; ++j) {
        const double d = components_[i]->At(c, j);
        cumulative[i * n + c] += d < global ? d : global;
      }
    }
  }
  const size_t query[] = {candidate};
  return static_cast<double>(
      ParetoSensitivityLevel(table, cumulative, query)[0]);
}

double ParetoSensitivity::Global() const {
  const size_t n = table_->num_candidates;
  return n > 1 ? static_cast<double>(n - 1) : 0.0;
}

}  // namespace dpq::core::selection
