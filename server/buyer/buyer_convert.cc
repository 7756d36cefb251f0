#include "server/buyer/buyer_convert.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::server::buyer {

namespace pm = core::private_measures;
using core::measures::Measure;

absl::StatusOr<Measure> MeasureFromProto(v1::Measure measure) {
  switch (measure) {
    case v1::MEASURE_MI:
      return Measure::kMinimalInconsistency;
    case v1::MEASURE_P:
      return Measure::kProblematic;
    case v1::MEASURE_R:
      return Measure::kRepair;
    default:
      return core::util::InvalidFieldError(
          "measure",
          absl::StrCat(
              "measure must be MEASURE_MI, MEASURE_P or MEASURE_R, but is ",
              v1::Measure_IsValid(measure) ? v1::Measure_Name(measure)
                                           : std::to_string(measure),
              "."));
  }
}

v1::Measure MeasureToProto(Measure measure) {
  switch (measure) {
    case Measure::kMinimalInconsistency:
      return v1::MEASURE_MI;
    case Measure::kProblematic:
      return v1::MEASURE_P;
    case Measure::kRepair:
      return v1::MEASURE_R;
    default:
      return v1::MEASURE_UNSPECIFIED;
  }
}

absl::StatusOr<pm::SelectionMethod> MethodFromProto(
    v1::SelectionMethod method) {
  switch (method) {
    case v1::SELECTION_METHOD_UNSPECIFIED:
    case v1::SELECTION_METHOD_GROUP_BOUND:
      return pm::SelectionMethod::kGroupBound;
    case v1::SELECTION_METHOD_GEM:
      return pm::SelectionMethod::kGem;
    case v1::SELECTION_METHOD_OPTIMIZED:
      return pm::SelectionMethod::kOptimized;
    case v1::SELECTION_METHOD_HIERARCHICAL:
      return pm::SelectionMethod::kHierarchical;
    case v1::SELECTION_METHOD_BASIC:
      return pm::SelectionMethod::kBasic;
    case v1::SELECTION_METHOD_BASELINE:
      return pm::SelectionMethod::kBaseline;
    default:
      return core::util::InvalidFieldError(
          "method",
          absl::StrCat(
              "method must be a SelectionMethod (GROUP_BOUND, GEM, OPTIMIZED, "
              "HIERARCHICAL, BASIC or BASELINE), but is ",
              static_cast<int>(method), "."));
  }
}

absl::StatusOr<std::optional<pm::RepairMethod>> RepairMethodFromProto(
    v1::RepairMethod method) {
  switch (method) {
    case v1::REPAIR_METHOD_UNSPECIFIED:
      return std::nullopt;
    case v1::REPAIR_METHOD_COVER_BOUND:
      return pm::RepairMethod::kCoverBound;
    case v1::REPAIR_METHOD_EXACT:
      return pm::RepairMethod::kExact;
    case v1::REPAIR_METHOD_VERTEX_COVER:
      return pm::RepairMethod::kVertexCover;
    default:
      return core::util::InvalidFieldError(
          "repair_method",
          absl::StrCat(
              "repair_method must be a RepairMethod (COVER_BOUND, EXACT or "
              "VERTEX_COVER), but is ",
              static_cast<int>(method), "."));
  }
}

absl::StatusOr<pm::RepairMethod> RepairMethodFromProto(
    v1::RepairMethod method, bool exact_repair_registered) {
  ASSIGN_OR_RETURN(const std::optional<pm::RepairMethod> requested,
                   RepairMethodFromProto(method));
  return pm::ResolveRepairMethod(requested, exact_repair_registered);
}

absl::StatusOr<pm::MeasureReleaseSpec> MeasureReleaseSpecFromProto(
    v1::SelectionMethod method, v1::RepairMethod repair_method,
    std::vector<Measure> measures) {
  pm::MeasureReleaseSpec spec;
  bool selects = false;
  bool repairs = false;
  for (const Measure m : measures) {
    (m == Measure::kRepair ? repairs : selects) = true;
  }
  // An argument that no requested measure reads is refused, not ignored:
  // the caller meant it to change the release, and charging for a release
  // it does not shape would be a silent surprise.
  if (!selects && method != v1::SELECTION_METHOD_UNSPECIFIED) {
    return core::util::InvalidFieldError(
        "method",
        "method chooses how I_MI and I_P are released and does not apply to "
        "I_R; leave it unset and name I_R's method in repair_method "
        "(COVER_BOUND, EXACT or VERTEX_COVER).");
  }
  if (!repairs && repair_method != v1::REPAIR_METHOD_UNSPECIFIED) {
    return core::util::InvalidFieldError(
        "repair_method",
        "repair_method chooses how I_R is released and does not apply to "
        "I_MI or I_P; leave it unset and name their method in method.");
  }
  // Selection first, as the measures are listed (I_R comes last).
  if (selects) {
    ASSIGN_OR_RETURN(spec.method, MethodFromProto(method));
  }
  if (repairs) {
    ASSIGN_OR_RETURN(spec.repair_method, RepairMethodFromProto(repair_method));
  }
  spec.measures = std::move(measures);
  return spec;
}

v1::Estimate EstimateToProto(pm::Estimate estimate) {
  switch (estimate) {
    case pm::Estimate::kExact:
      return v1::ESTIMATE_EXACT;
    case pm::Estimate::kLowerBound:
      return v1::ESTIMATE_LOWER_BOUND;
    case pm::Estimate::kUpperBound:
      return v1::ESTIMATE_UPPER_BOUND;
  }
  return v1::ESTIMATE_UNSPECIFIED;
}

v1::MeasureResult ToMeasureResult(v1::Measure measure,
                                  const pm::PrivateMeasureResult& result) {
  v1::MeasureResult out;
  out.set_measure(measure);
  out.set_value(result.value);
  out.set_epsilon(result.epsilon_spent);
  // Rounded up to a whole unit: exact whenever the spend is (a
  // MeasureInconsistency's epsilon is quantised to whole units).
  if (const absl::StatusOr<int64_t> units =
          core::ledger::ChargeUnits(result.epsilon_spent);
      units.ok()) {
    out.set_epsilon_units(*units);
  }
  out.set_theta(result.theta.value_or(0));
  out.set_bound95(result.bound95);
  out.set_method(result.method);
  out.set_estimate(EstimateToProto(result.estimate));
  out.set_lower95(result.lower95);
  out.set_upper95(result.upper95);
  out.set_upper_proved(result.upper_proved);
  out.set_degree_upper(result.degree_upper.value_or(0));
  out.set_truncated(result.truncated);
  return out;
}

v1::RowCount ToRowCount(const pm::RowCountRelease& rows) {
  v1::RowCount out;
  out.set_value(rows.value);
  out.set_epsilon(rows.epsilon);
  if (const absl::StatusOr<int64_t> units =
          core::ledger::ChargeUnits(rows.epsilon);
      units.ok()) {
    out.set_epsilon_units(*units);
  }
  out.set_lower95(rows.lower95);
  out.set_upper95(rows.upper95);
  out.set_bound95(rows.bound95);
  out.set_exact(rows.exact);
  return out;
}

absl::StatusOr<core::selection::Approach> ApproachFromProto(
    v1::SelectionApproach approach) {
  switch (approach) {
    case v1::SELECTION_APPROACH_UNSPECIFIED:
    case v1::SELECTION_APPROACH_PARETO:
      return core::selection::Approach::kPareto;
    case v1::SELECTION_APPROACH_AGGREGATION:
      return core::selection::Approach::kAggregation;
    default:
      return core::util::InvalidFieldError(
          "approach",
          absl::StrCat("approach must be SELECTION_APPROACH_PARETO or "
                       "SELECTION_APPROACH_AGGREGATION, but is ",
                       static_cast<int>(approach), "."));
  }
}

absl::StatusOr<core::selection::SensitivityMode> SensitivityFromProto(
    v1::SensitivityMode mode) {
  switch (mode) {
    case v1::SENSITIVITY_MODE_UNSPECIFIED:
    case v1::SENSITIVITY_MODE_GLOBAL:
      return core::selection::SensitivityMode::kGlobal;
    case v1::SENSITIVITY_MODE_LOCAL:
      return core::selection::SensitivityMode::kLocal;
    default:
      return core::util::InvalidFieldError(
          "sensitivity",
          absl::StrCat("sensitivity must be SENSITIVITY_MODE_GLOBAL or "
                       "SENSITIVITY_MODE_LOCAL, but is ",
                       static_cast<int>(mode), "."));
  }
}

absl::StatusOr<core::selection::NodeObjective> NodeObjectiveFromProto(
    v1::NodeObjective objective) {
  switch (objective) {
    case v1::NODE_OBJECTIVE_DEGREE:
      return core::selection::NodeObjective::kDegree;
    case v1::NODE_OBJECTIVE_EGOCENTRIC_DENSITY:
      return core::selection::NodeObjective::kEgocentricDensity;
    default:
      return core::util::InvalidFieldError(
          "objectives",
          absl::StrCat("objectives must hold NODE_OBJECTIVE_DEGREE or "
                       "NODE_OBJECTIVE_EGOCENTRIC_DENSITY, but holds ",
                       static_cast<int>(objective), "."));
  }
}

core::cube::CuboidRequestSpec CuboidRequestSpecFromProto(
    const v1::ReleaseCuboidsRequest& request) {
  core::cube::CuboidRequestSpec spec;
  for (const v1::CuboidSpec& cuboid : request.cuboids()) {
    spec.cuboids.emplace_back(cuboid.dimensions().begin(),
                              cuboid.dimensions().end());
  }
  spec.non_negative_integral = request.non_negative_integral();
  return spec;
}

std::vector<std::vector<std::string>> PublicExactCuboids(
    const v1::DatasetManifest& manifest) {
  std::vector<std::vector<std::string>> cuboids;
  for (const v1::CuboidSpec& spec : manifest.public_cuboids()) {
    cuboids.emplace_back(spec.dimensions().begin(), spec.dimensions().end());
  }
  return cuboids;
}

absl::StatusOr<core::selection::DecisionTreeSpec> DecisionTreeSpecFromProto(
    const v1::TrainDecisionTreeRequest& request) {
  // UNSPECIFIED keeps the core's defaults for trees (DecisionTreeSpec:
  // aggregation with local sensitivity), not the Pareto/global of the
  // other selections.
  core::selection::DecisionTreeSpec spec;
  if (request.approach() != v1::SELECTION_APPROACH_UNSPECIFIED) {
    ASSIGN_OR_RETURN(spec.approach, ApproachFromProto(request.approach()));
  }
  if (request.sensitivity() != v1::SENSITIVITY_MODE_UNSPECIFIED) {
    ASSIGN_OR_RETURN(spec.sensitivity,
                     SensitivityFromProto(request.sensitivity()));
  }
  spec.label_column = request.label_column();
  spec.positive_class = request.positive_class();
  spec.features.assign(request.features().begin(), request.features().end());
  spec.weights.assign(request.weights().begin(), request.weights().end());
  spec.generations = request.generations();
  spec.population = request.population();
  return spec;
}

absl::StatusOr<core::selection::InfluentialNodesSpec>
InfluentialNodesSpecFromProto(
    const v1::SelectInfluentialNodesRequest& request) {
  core::selection::InfluentialNodesSpec spec;
  for (const int value : request.objectives()) {
    ASSIGN_OR_RETURN(
        const core::selection::NodeObjective objective,
        NodeObjectiveFromProto(static_cast<v1::NodeObjective>(value)));
    spec.objectives.push_back(objective);
  }
  ASSIGN_OR_RETURN(spec.approach, ApproachFromProto(request.approach()));
  ASSIGN_OR_RETURN(spec.sensitivity,
                   SensitivityFromProto(request.sensitivity()));
  spec.k = request.k();
  spec.weights.assign(request.weights().begin(), request.weights().end());
  return spec;
}

const char* StrategyName(core::cube::ReleaseStrategy strategy) {
  return strategy == core::cube::ReleaseStrategy::kBaseCuboid ? "base_cuboid"
                                                              : "per_cuboid";
}

void TreeToProto(const core::selection::DecisionTree& tree,
                 v1::TrainDecisionTreeResponse* response) {
  for (const core::selection::TreeNode& node : tree.nodes) {
    v1::DecisionTreeNode* out = response->add_nodes();
    out->set_leaf(node.is_leaf);
    out->set_left(node.left);
    out->set_right(node.right);
    if (node.is_leaf) {
      out->set_positive(node.positive);
      continue;
    }
    out->set_feature(node.feature);
    out->set_numeric_test(node.numeric_test);
    if (node.numeric_test) {
      out->set_threshold(node.threshold);
    } else {
      out->set_category(node.category);
    }
  }
  response->set_tree_text(tree.ToText());
  response->set_depth(static_cast<uint32_t>(tree.depth()));
}

}  // namespace dpq::server::buyer
