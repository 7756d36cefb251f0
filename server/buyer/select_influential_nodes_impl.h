// BuyerService.SelectInfluentialNodes: DP top-k nodes (DP-MOTkIN) of a
// graph dataset under edge-DP.
#ifndef DPQ_SERVER_BUYER_SELECT_INFLUENTIAL_NODES_IMPL_H_
#define DPQ_SERVER_BUYER_SELECT_INFLUENTIAL_NODES_IMPL_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/selection/nodes/influential_nodes_request.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// The request check: core::selection::BuildInfluentialNodesRequest against
// the declared node count. Nothing reserved.
absl::StatusOr<PreparedRelease<core::selection::InfluentialNodesRequest>>
PrepareSelectInfluentialNodes(const registry::DatasetRegistry& registry,
                              const auth::Principal& caller,
                              const v1::SelectInfluentialNodesRequest& request);

// What the ledger records (frozen: release_fingerprint.h).
ReleaseIdentity SelectInfluentialNodesIdentity(
    const v1::SelectInfluentialNodesRequest& request,
    const core::selection::InfluentialNodesRequest& nodes);

// The k most influential nodes of a graph dataset
// (core::selection::SelectInfluentialNodes, edge-DP), its scores from the
// service's NodeScoresCache when the same dataset version and parameters
// were scored before. kInvalidArgument
// for k = 0 or k > min(kMaxNodesK, node count), an unknown or repeated
// objective, weights with PARETO or not one finite weight per objective
// with AGGREGATION, an invalid epsilon; kFailedPrecondition for a table
// dataset; kUnavailable when the caller already runs
// max_heavy_jobs_per_buyer heavy jobs or max_heavy_jobs are running in
// all (nothing reserved). The score computation stops soon after the
// call ends, which frees its slot.
absl::Status SelectInfluentialNodesImpl(
    const BuyerCore& service, const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request,
    v1::SelectInfluentialNodesResponse* response, const CallContext& call = {});

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_SELECT_INFLUENTIAL_NODES_IMPL_H_
