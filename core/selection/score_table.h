// Candidates x objectives score table of a multi-objective selection
// (paper: dp-multi-objective-selection, Section 3; docs/selection.md,
// "Building blocks").
// Larger is better for every objective.
#ifndef DPQ_CORE_SELECTION_SCORE_TABLE_H_
#define DPQ_CORE_SELECTION_SCORE_TABLE_H_

#include <cstddef>
#include <vector>

#include "absl/status/status.h"

namespace dpq::core::selection {

// u_i(x, r) for objectives i < num_objectives and candidates r <
// num_candidates, stored objective-major: scores[i * num_candidates + r].
struct ScoreTable {
  size_t num_candidates = 0;
  size_t num_objectives = 0;
  std::vector<double> scores;

  double at(size_t objective, size_t candidate) const {
    return scores[objective * num_candidates + candidate];
  }
  double& at(size_t objective, size_t candidate) {
    return scores[objective * num_candidates + candidate];
  }
};

// OK iff the table has >= 1 candidate, >= 1 objective, exactly
// num_candidates * num_objectives scores, all finite. kInvalidArgument
// naming the first problem otherwise.
absl::Status ValidateScoreTable(const ScoreTable& table);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_SCORE_TABLE_H_
