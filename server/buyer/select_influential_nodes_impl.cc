// BuyerService.SelectInfluentialNodes: DP top-k nodes (DP-MOTkIN) of a
// graph dataset under edge-DP.
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/selection/nodes/influential_nodes_request.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/node_scores_cache.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_identity.h"
#include "server/buyer/release_pipeline.h"
#include "server/buyer/release_validation.h"

namespace dpq::server::buyer {

namespace sel = core::selection;

absl::Status BuyerServiceImpl::SelectInfluentialNodesImpl(
    const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request,
    v1::SelectInfluentialNodesResponse* response,
    const CallContext& call) const {
  ASSIGN_OR_RETURN(PreparedRelease<sel::InfluentialNodesRequest> prepared,
                   PrepareSelectInfluentialNodes(*registry_, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  sel::InfluentialNodesRequest& nodes = prepared.spec;
  nodes.selection.stop = [&call] { return call.Over(); };

  // A slot before anything is reserved (UNAVAILABLE charges nothing; it
  // depends on the caller's own and the other calls running, not on the
  // data). Held through the computation, which polls call.Over() and so
  // gives it back soon after the call ends.
  ASSIGN_OR_RETURN(HeavyJobLimiter::Slot slot,
                   heavy_jobs_.TryAcquire("SelectInfluentialNodes", caller.id));
  // The key holds everything the scores depend on; epsilon and k are not
  // among them.
  const std::string cache_key = absl::StrJoin(
      {request.dataset_id(), absl::StrCat(d.version),
       sel::NodeObjectiveList(nodes.objectives),
       std::string(sel::ApproachName(nodes.selection.approach)),
       std::string(sel::SensitivityModeName(nodes.selection.sensitivity)),
       WeightBits(nodes.selection.weights)},
      "\x1f");
  return internal::RunRelease<v1::SelectInfluentialNodesResponse>(
      *ledger_, prepared.reserve, call,
      [&](v1::SelectInfluentialNodesResponse* answer) -> absl::Status {
        // After the charge: how long the scores take depends on the graph.
        ASSIGN_OR_RETURN(const NodeScoresCache::Scores scores,
                         node_scores_.GetOrCompute(
                             cache_key, prepared.dataset, call.deadline,
                             [&]() -> absl::StatusOr<NodeScoresCache::Scores> {
                               return sel::PrepareInfluentialNodeScores(
                                   d.edge_graph, nodes);
                             },
                             nodes.selection.stop));
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(
            sel::InfluentialNodesResult result,
            sel::DrawInfluentialNodes(d.edge_graph, *scores, nodes.k,
                                      nodes.selection.epsilon, *urbg));
        for (const std::string& node : result.nodes) answer->add_nodes(node);
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
