#include "server/buyer/release_validation.h"

#include <utility>
#include <vector>

#include "core/measures/measure.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_identity.h"

namespace dpq::server::buyer {
namespace {

namespace pm = core::private_measures;
namespace sel = core::selection;
using core::measures::Measure;

// The measure release of a MeasureInconsistency or QualityReport request,
// checked against the dataset (its registered exact repair is public).
absl::StatusOr<pm::MeasureRelease> CheckMeasures(
    v1::SelectionMethod method, v1::RepairMethod repair_method,
    std::vector<Measure> measures, const registry::LoadedDataset& d,
    const ReleaseBudget& budget, bool row_count = false) {
  ASSIGN_OR_RETURN(
      pm::MeasureReleaseSpec spec,
      MeasureReleaseSpecFromProto(method, repair_method, std::move(measures)));
  spec.epsilon = budget.epsilon;
  // Whether the row count is public is the owner's declaration (public).
  spec.row_count = row_count;
  spec.row_count_public = d.manifest.row_count_public();
  ASSIGN_OR_RETURN(pm::MeasureRelease release,
                   pm::BuildMeasureRelease(spec, d.manifest.exact_repair()));
  // Refusals that read public inputs only (a noise scale out of range at
  // theta = N) come here, before the reservation; its noise is discarded.
  pm::PublicDatasetShape shape;
  shape.public_max_rows = d.manifest.public_max_rows();
  shape.dc_shape = pm::DcBoundShape(d.dcs);
  shape.degree_keys = pm::CountDegreeKeys(d.dcs);
  shape.exact_repair = d.manifest.exact_repair();
  core::dp::OpenSslUrbg urbg;
  RETURN_IF_ERROR(pm::CheckMeasureReleaseRuns(release, shape, urbg));
  return release;
}

}  // namespace

absl::StatusOr<PreparedRelease<pm::MeasureRelease>> PrepareMeasureInconsistency(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::MeasureInconsistencyRequest& request) {
  RETURN_IF_ERROR(internal::RequireCaller(caller));
  // Before the dataset: the measure is the request's alone.
  ASSIGN_OR_RETURN(const Measure measure, MeasureFromProto(request.measure()));
  return PrepareRelease<pm::MeasureRelease>(
      registry, caller, BasicsOf(registry::kMeasureInconsistency, request),
      [&](const registry::LoadedDataset& d, const ReleaseBudget& budget) {
        return CheckMeasures(request.method(), request.repair_method(),
                             {measure}, d, budget);
      },
      [&](const pm::MeasureRelease& release) {
        return MeasureInconsistencyIdentity(release, request.epsilon());
      });
}

absl::StatusOr<PreparedRelease<pm::MeasureRelease>> PrepareQualityReport(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::QualityReportRequest& request) {
  return PrepareRelease<pm::MeasureRelease>(
      registry, caller, BasicsOf(registry::kQualityReport, request),
      [&](const registry::LoadedDataset& d, const ReleaseBudget& budget) {
        // Three parts that sum to at most epsilon exactly; each is at
        // least a third of the public floor 1e-6.
        return CheckMeasures(request.method(), request.repair_method(),
                             {Measure::kMinimalInconsistency,
                              Measure::kProblematic, Measure::kRepair},
                             d, budget, request.include_row_count());
      },
      [&](const pm::MeasureRelease& release) {
        return QualityReportIdentity(release, request.epsilon());
      });
}

absl::StatusOr<PreparedRelease<core::cube::CuboidRequest>>
PrepareReleaseCuboids(const registry::DatasetRegistry& registry,
                      const auth::Principal& caller,
                      const v1::ReleaseCuboidsRequest& request) {
  return PrepareRelease<core::cube::CuboidRequest>(
      registry, caller, BasicsOf(registry::kReleaseCuboids, request),
      [&](const registry::LoadedDataset& d, const ReleaseBudget& budget) {
        core::cube::CuboidRequestSpec spec =
            CuboidRequestSpecFromProto(request);
        spec.epsilon = budget.epsilon;
        return core::cube::BuildCuboidRequest(
            d.cube_schema, PublicExactCuboids(d.manifest), spec);
      },
      [&](const core::cube::CuboidRequest& cuboids) {
        return ReleaseCuboidsIdentity(request, cuboids);
      });
}

absl::StatusOr<PreparedRelease<sel::DecisionTreeRequest>>
PrepareTrainDecisionTree(const registry::DatasetRegistry& registry,
                         const auth::Principal& caller,
                         const v1::TrainDecisionTreeRequest& request) {
  ReleaseBasics basics = BasicsOf(registry::kTrainDecisionTree, request);
  basics.extra_epsilon = request.accuracy_epsilon();
  basics.extra_epsilon_field = "accuracy_epsilon";
  return PrepareRelease<sel::DecisionTreeRequest>(
      registry, caller, basics,
      [&](const registry::LoadedDataset& d, const ReleaseBudget& budget)
          -> absl::StatusOr<sel::DecisionTreeRequest> {
        ASSIGN_OR_RETURN(sel::DecisionTreeSpec spec,
                         DecisionTreeSpecFromProto(request));
        spec.epsilon = budget.epsilon;
        spec.accuracy_epsilon = budget.extra_epsilon;
        spec.public_max_rows = d.manifest.public_max_rows();
        return sel::BuildDecisionTreeRequest(d.table.schema(), d.cube_schema,
                                             spec);
      },
      [&](const sel::DecisionTreeRequest& tree) {
        return TrainDecisionTreeIdentity(request, tree);
      });
}

absl::StatusOr<PreparedRelease<sel::InfluentialNodesRequest>>
PrepareSelectInfluentialNodes(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request) {
  return PrepareRelease<sel::InfluentialNodesRequest>(
      registry, caller, BasicsOf(registry::kSelectInfluentialNodes, request),
      [&](const registry::LoadedDataset& d, const ReleaseBudget& budget)
          -> absl::StatusOr<sel::InfluentialNodesRequest> {
        ASSIGN_OR_RETURN(sel::InfluentialNodesSpec spec,
                         InfluentialNodesSpecFromProto(request));
        spec.epsilon = budget.epsilon;
        // The node count is the owner's declared universe
        // (DescribeDataset shows it), never read off the private edges.
        return sel::BuildInfluentialNodesRequest(
            spec, d.edge_graph.graph.num_nodes(), request.dataset_id());
      },
      [&](const sel::InfluentialNodesRequest& nodes) {
        return SelectInfluentialNodesIdentity(request, nodes);
      });
}

}  // namespace dpq::server::buyer
