// BuyerService.TrainDecisionTree: a DP cost-sensitive decision tree
// (DP-MOET) of a table dataset.
#ifndef DPQ_SERVER_BUYER_TRAIN_DECISION_TREE_IMPL_H_
#define DPQ_SERVER_BUYER_TRAIN_DECISION_TREE_IMPL_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/selection/tree/tree_request.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// The request check: epsilon and accuracy_epsilon, then
// core::selection::BuildDecisionTreeRequest against the declared cube.
// Nothing reserved.
absl::StatusOr<PreparedRelease<core::selection::DecisionTreeRequest>>
PrepareTrainDecisionTree(const registry::DatasetRegistry& registry,
                         const auth::Principal& caller,
                         const v1::TrainDecisionTreeRequest& request);

// What the ledger records (frozen: release_fingerprint.h). The features as
// requested (empty: the derived ones are not listed).
ReleaseIdentity TrainDecisionTreeIdentity(
    const v1::TrainDecisionTreeRequest& request,
    const core::selection::DecisionTreeRequest& tree);

// A DP decision tree (core::selection::TrainDpDecisionTree) of a table
// dataset; charges epsilon + accuracy_epsilon. kInvalidArgument naming
// the field for an unknown label or feature column, the label among the
// features, an empty positive_class, weights with PARETO or not two
// finite weights with AGGREGATION, generations > kMaxGenerations,
// population outside [kMinPopulation, kMaxPopulation], an invalid
// epsilon or accuracy_epsilon, a positive_class that is not a label of
// the label dimension; kFailedPrecondition for a graph dataset or a
// label/feature that is not a declared cube dimension (trees use only
// public domains); kUnavailable when the caller already runs
// max_heavy_jobs_per_buyer heavy jobs or max_heavy_jobs are running in
// all (nothing reserved). All checked before any budget is reserved.
// Same budget, deadline and retry rules otherwise; the training stops
// soon after the call ends (deadline or cancellation), which frees its
// slot.
absl::Status TrainDecisionTreeImpl(const BuyerCore& service,
                                   const auth::Principal& caller,
                                   const v1::TrainDecisionTreeRequest& request,
                                   v1::TrainDecisionTreeResponse* response,
                                   const CallContext& call = {});

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_TRAIN_DECISION_TREE_IMPL_H_
