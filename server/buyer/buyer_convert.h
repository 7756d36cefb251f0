// Proto <-> core conversions of the BuyerService (style.md section 4):
// measures, selection methods and released results.
#ifndef DPQ_SERVER_BUYER_BUYER_CONVERT_H_
#define DPQ_SERVER_BUYER_BUYER_CONVERT_H_

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::server::buyer {

// MEASURE_MI/P/R -> the core measure. kInvalidArgument naming `measure` for
// MEASURE_UNSPECIFIED or an unknown value.
absl::StatusOr<core::measures::Measure> MeasureFromProto(v1::Measure measure);

// The proto value of a releasable measure (MI, P, R); MEASURE_UNSPECIFIED
// for the others (I_D, I_MC are never released).
v1::Measure MeasureToProto(core::measures::Measure measure);

// SELECTION_METHOD_UNSPECIFIED -> kGem (the documented default).
// kInvalidArgument naming `method` for an unknown value.
absl::StatusOr<core::private_measures::SelectionMethod> MethodFromProto(
    v1::SelectionMethod method);

// REPAIR_METHOD_UNSPECIFIED -> kExact if the owner registered the dataset
// with exact_repair, else kCoverBound. kInvalidArgument for an unknown
// value, or EXACT on a dataset without exact_repair (both public).
absl::StatusOr<core::private_measures::RepairMethod> RepairMethodFromProto(
    v1::RepairMethod method, bool exact_repair_registered);

// The released part of a core result: value, epsilon, theta (0 if none),
// bound95, method and what the value estimates. Nothing private: every field is DP output or public.
v1::MeasureResult ToMeasureResult(
    v1::Measure measure,
    const core::private_measures::PrivateMeasureResult& result);

// SELECTION_APPROACH_UNSPECIFIED -> kPareto (the documented default).
// kInvalidArgument naming `approach` for an unknown value.
absl::StatusOr<core::selection::Approach> ApproachFromProto(
    v1::SelectionApproach approach);

// SENSITIVITY_MODE_UNSPECIFIED -> kGlobal. kInvalidArgument naming
// `sensitivity` for an unknown value.
absl::StatusOr<core::selection::SensitivityMode> SensitivityFromProto(
    v1::SensitivityMode mode);

// DEGREE / EGOCENTRIC_DENSITY. kInvalidArgument naming `objectives` for
// NODE_OBJECTIVE_UNSPECIFIED or an unknown value.
absl::StatusOr<core::selection::NodeObjective> NodeObjectiveFromProto(
    v1::NodeObjective objective);

// "per_cuboid" / "base_cuboid" (the proto's strategy texts).
const char* StrategyName(core::cube::ReleaseStrategy strategy);

// The tree's nodes (same indices), its text form and depth.
void TreeToProto(const core::selection::DecisionTree& tree,
                 v1::TrainDecisionTreeResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_CONVERT_H_
