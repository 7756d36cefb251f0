// What a DP selection samples from: one quality per candidate and the
// sensitivity the sampling mechanism is calibrated to (docs/selection.md,
// "Entry point").
#ifndef DPQ_CORE_SELECTION_SELECTION_SCORES_H_
#define DPQ_CORE_SELECTION_SELECTION_SCORES_H_

#include <vector>

namespace dpq::core::selection {

// scores[r] moves by at most `sensitivity` between neighbouring inputs, for
// every r: PS with |R| - 1, u_agg with sum |w_i| Delta_i, or dampened scores
// with 1 (local dampening).
struct SelectionScores {
  std::vector<double> scores;
  double sensitivity = 1;
};

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_SELECTION_SCORES_H_
