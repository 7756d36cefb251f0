// A buyer's decision-tree request (TrainDecisionTree), checked in one
// place against the dataset's public schema and declared cube dimensions
// before any budget is reserved, and turned into the DecisionTreeRequest
// that TrainDpDecisionTree runs (the "validate everything when building"
// rule of docs/privacy.md: no error after the reservation may depend on
// the rows).
#ifndef DPQ_CORE_SELECTION_TREE_TREE_REQUEST_H_
#define DPQ_CORE_SELECTION_TREE_TREE_REQUEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/dp_moet.h"
#include "core/table/schema.h"

namespace dpq::core::selection {

// Defaults and limits of a request's genetic algorithm (0 asks for the
// default). The upper limits are GeneticParameters' own (dp_moet.h).
inline constexpr uint32_t kDefaultGenerations = 10;
inline constexpr uint32_t kDefaultPopulation = 30;
inline constexpr uint32_t kMinPopulation = 2;

// What a buyer asks for, before any check.
struct DecisionTreeSpec {
  std::string label_column;
  // The label value (text) of the positive class.
  std::string positive_class;
  // Empty: every declared cube dimension but the label.
  std::vector<std::string> features;
  Approach approach = Approach::kPareto;
  SensitivityMode sensitivity = SensitivityMode::kGlobal;
  // As given (CheckSelectionWeights): none with kPareto, with
  // kAggregation two (TPR, TNR) or none for (1, 1).
  std::vector<double> weights;
  uint32_t generations = 0;  // 0: kDefaultGenerations
  uint32_t population = 0;   // 0: kDefaultPopulation
  // Valid epsilons (dp::ValidateRequestEpsilon; the service checks them
  // with the release's other epsilons): the training's, and 0 or the
  // accuracy release's.
  double epsilon = 0;
  double accuracy_epsilon = 0;
  // N, the public upper bound on the row count.
  uint64_t public_max_rows = 0;
};

// Checks, in this order, the weights (CheckSelectionWeights), the genetic
// parameters (generations at most kMaxGenerations, population in
// [kMinPopulation, kMaxPopulation]), the columns (label_column and
// positive_class not empty, label and features columns of `schema`, the
// label not among the features, no feature twice), then derives the public
// domains and classes from `cube` (TreePublicInputsFromCube). Every
// refusal is kInvalidArgument naming the request's field, or
// kFailedPrecondition for a column without a public domain. Reads no row.
// The result has no stop function (the caller sets one).
absl::StatusOr<DecisionTreeRequest> BuildDecisionTreeRequest(
    const table::Schema& schema, const cube::CubeSchema& cube,
    const DecisionTreeSpec& spec);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_REQUEST_H_
