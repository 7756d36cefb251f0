// The weights a buyer gives a multi-objective selection (PrivAgg's
// weighted sum), checked once for every request that selects: the
// decision tree (objectives TPR, TNR) and the influential nodes (one per
// node objective).
#ifndef DPQ_CORE_SELECTION_SELECTION_WEIGHTS_H_
#define DPQ_CORE_SELECTION_SELECTION_WEIGHTS_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/selection/multi_objective_selection.h"

namespace dpq::core::selection {

// The weights to select with: none with kPareto (any given is
// kInvalidArgument); with kAggregation one finite weight per objective,
// not all zero (kInvalidArgument naming `weights` otherwise), all 1 when
// none is given. `what` names the objectives in the message (e.g.
// "TPR, TNR"). Depends on the request only, so a refusal is safe before
// any budget is reserved.
absl::StatusOr<std::vector<double>> CheckSelectionWeights(
    Approach approach, absl::Span<const double> weights, size_t objectives,
    absl::string_view what);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_SELECTION_WEIGHTS_H_
