// The checks of each charged buyer release, as functions of the request
// alone: PrepareRelease (release_pipeline.h) with the kind's own `validate`
// and `describe`. Every refusal here comes before anything is reserved and
// needs public inputs only; the handlers (*Impl in buyer_service_impl.h)
// run these and then charge. tests/fuzz feeds them arbitrary requests.
#ifndef DPQ_SERVER_BUYER_RELEASE_VALIDATION_H_
#define DPQ_SERVER_BUYER_RELEASE_VALIDATION_H_

#include "absl/status/statusor.h"
#include "core/cube/cuboid_request.h"
#include "core/private/measure_release.h"
#include "core/selection/nodes/influential_nodes_request.h"
#include "core/selection/tree/tree_request.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/release_pipeline.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// MeasureInconsistency: the caller, the measure, then PrepareRelease with
// the method and repair method checked against the dataset.
absl::StatusOr<PreparedRelease<core::private_measures::MeasureRelease>>
PrepareMeasureInconsistency(const registry::DatasetRegistry& registry,
                            const auth::Principal& caller,
                            const v1::MeasureInconsistencyRequest& request);

// QualityReport: I_MI, I_P and I_R at a third of epsilon each.
absl::StatusOr<PreparedRelease<core::private_measures::MeasureRelease>>
PrepareQualityReport(const registry::DatasetRegistry& registry,
                     const auth::Principal& caller,
                     const v1::QualityReportRequest& request);

// ReleaseCuboids: core::cube::BuildCuboidRequest against the dataset's
// declared cube and public exact cuboids.
absl::StatusOr<PreparedRelease<core::cube::CuboidRequest>>
PrepareReleaseCuboids(const registry::DatasetRegistry& registry,
                      const auth::Principal& caller,
                      const v1::ReleaseCuboidsRequest& request);

// TrainDecisionTree: epsilon and accuracy_epsilon, then
// core::selection::BuildDecisionTreeRequest against the declared cube.
absl::StatusOr<PreparedRelease<core::selection::DecisionTreeRequest>>
PrepareTrainDecisionTree(const registry::DatasetRegistry& registry,
                         const auth::Principal& caller,
                         const v1::TrainDecisionTreeRequest& request);

// SelectInfluentialNodes: core::selection::BuildInfluentialNodesRequest
// against the declared node count.
absl::StatusOr<PreparedRelease<core::selection::InfluentialNodesRequest>>
PrepareSelectInfluentialNodes(const registry::DatasetRegistry& registry,
                              const auth::Principal& caller,
                              const v1::SelectInfluentialNodesRequest& request);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_VALIDATION_H_
