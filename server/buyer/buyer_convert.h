// Proto <-> core conversions of the BuyerService (done only at the server's
// edge, docs/architecture.md 2): measures, selection methods and released
// results.
#ifndef DPQ_SERVER_BUYER_BUYER_CONVERT_H_
#define DPQ_SERVER_BUYER_BUYER_CONVERT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/cuboid_request.h"
#include "core/measures/measure.h"
#include "core/private/measure_release.h"
#include "core/private/private_measures.h"
#include "core/private/row_count_release.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/selection/nodes/influential_nodes_request.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_request.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::server::buyer {

// MEASURE_MI/P/R -> the core measure. kInvalidArgument naming `measure` for
// MEASURE_UNSPECIFIED or an unknown value.
absl::StatusOr<core::measures::Measure> MeasureFromProto(v1::Measure measure);

// The proto value of a releasable measure (MI, P, R); MEASURE_UNSPECIFIED
// for the others (I_D, I_MC are never released).
v1::Measure MeasureToProto(core::measures::Measure measure);

// The report's row count as sent (its epsilon in units rounded up).
v1::RowCount ToRowCount(const core::private_measures::RowCountRelease& rows);

// SELECTION_METHOD_UNSPECIFIED -> kGroupBound (the documented default).
// kInvalidArgument naming `method` for an unknown value.
absl::StatusOr<core::private_measures::SelectionMethod> MethodFromProto(
    v1::SelectionMethod method);

// REPAIR_METHOD_UNSPECIFIED -> empty (the dataset's default, see
// core::private_measures::ResolveRepairMethod). kInvalidArgument naming
// `repair_method` for an unknown value.
absl::StatusOr<std::optional<core::private_measures::RepairMethod>>
RepairMethodFromProto(v1::RepairMethod method);

// The same, resolved for a dataset (ResolveRepairMethod):
// REPAIR_METHOD_UNSPECIFIED -> kExact if the owner registered the dataset
// with exact_repair, else kCoverBound. kInvalidArgument for an unknown
// value, or EXACT on a dataset without exact_repair (both public).
absl::StatusOr<core::private_measures::RepairMethod> RepairMethodFromProto(
    v1::RepairMethod method, bool exact_repair_registered);

// The measure release of `measures` (MeasureInconsistency: one;
// QualityReport: MI, P, R) with the methods of the request. Only the
// fields that apply are read (`method` if a measure is I_MI or I_P,
// `repair_method` if one is I_R), as the proto says. epsilon is left 0.
absl::StatusOr<core::private_measures::MeasureReleaseSpec>
MeasureReleaseSpecFromProto(v1::SelectionMethod method,
                            v1::RepairMethod repair_method,
                            std::vector<core::measures::Measure> measures);

// The released part of a core result: value, epsilon, theta (0 if none),
// bound95, method and what the value estimates. Nothing private: every field is
// DP output or public.
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

// The requested cuboids (epsilon is left 0).
core::cube::CuboidRequestSpec CuboidRequestSpecFromProto(
    const v1::ReleaseCuboidsRequest& request);

// The owner's public exact cuboids (dimension lists) of a manifest.
std::vector<std::vector<std::string>> PublicExactCuboids(
    const v1::DatasetManifest& manifest);

// The tree request: approach, then sensitivity converted (kInvalidArgument
// naming the field); the other fields copied, checked later in core
// (BuildDecisionTreeRequest). The epsilons are left 0.
absl::StatusOr<core::selection::DecisionTreeSpec> DecisionTreeSpecFromProto(
    const v1::TrainDecisionTreeRequest& request);

// The node request: objectives, approach, then sensitivity converted
// (kInvalidArgument naming the field); the other fields copied, checked
// later in core (BuildInfluentialNodesRequest). epsilon is left 0.
absl::StatusOr<core::selection::InfluentialNodesSpec>
InfluentialNodesSpecFromProto(const v1::SelectInfluentialNodesRequest& request);

// "per_cuboid" / "base_cuboid" (the proto's strategy texts).
const char* StrategyName(core::cube::ReleaseStrategy strategy);

// The tree's nodes (same indices), its text form and depth.
void TreeToProto(const core::selection::DecisionTree& tree,
                 v1::TrainDecisionTreeResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_CONVERT_H_
