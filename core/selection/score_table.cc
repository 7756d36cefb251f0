#include "core/selection/score_table.h"

#include <cmath>
#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::selection {

absl::Status ValidateScoreTable(const ScoreTable& table) {
  if (table.num_candidates == 0) {
    return absl::InvalidArgumentError(
        "A selection needs at least one candidate, but the score table has "
        "none.");
  }
  if (table.num_objectives == 0) {
    return absl::InvalidArgumentError(
        "A selection needs at least one objective, but the score table has "
        "none.");
  }
  if (table.scores.size() / table.num_objectives != table.num_candidates ||
      table.scores.size() % table.num_objectives != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The score table must hold num_candidates * num_objectives = ",
        table.num_candidates, " * ", table.num_objectives, " scores, but has ",
        table.scores.size(), "."));
  }
  for (size_t i = 0; i < table.num_objectives; ++i) {
    for (size_t r = 0; r < table.num_candidates; ++r) {
      if (!std::isfinite(table.at(i, r))) {
        return absl::InvalidArgumentError(
            absl::StrCat("Score of candidate ", r, " for objective ", i,
                         " must be finite, but is ", table.at(i, r), "."));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::core::selection
