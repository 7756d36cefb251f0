#include "server/buyer/select_influential_nodes_impl.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/node_scores_cache.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {

namespace sel = core::selection;

absl::StatusOr<PreparedRelease<sel::InfluentialNodesRequest>>
PrepareSelectInfluentialNodes(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request) {
  const ReleaseBasics basics =
      BasicsOf(registry::kSelectInfluentialNodes, request);
  ASSIGN_OR_RETURN(ReleaseStart start, StartRelease(registry, caller, basics));
  ASSIGN_OR_RETURN(sel::InfluentialNodesSpec spec,
                   InfluentialNodesSpecFromProto(request));
  spec.epsilon = start.budget.epsilon;
  // The node count is the owner's declared universe (DescribeDataset shows
  // it), never read off the private edges.
  ASSIGN_OR_RETURN(sel::InfluentialNodesRequest nodes,
                   sel::BuildInfluentialNodesRequest(
                       spec, start.dataset->edge_graph.graph.num_nodes(),
                       request.dataset_id()));
  ReleaseIdentity identity = SelectInfluentialNodesIdentity(request, nodes);
  return Prepared(caller, basics, std::move(start), std::move(nodes),
                  std::move(identity));
}

ReleaseIdentity SelectInfluentialNodesIdentity(
    const v1::SelectInfluentialNodesRequest& request,
    const sel::InfluentialNodesRequest& nodes) {
  const std::string approach(sel::ApproachName(nodes.selection.approach));
  const std::string sensitivity(
      sel::SensitivityModeName(nodes.selection.sensitivity));
  const std::string objectives = sel::NodeObjectiveList(nodes.objectives);
  return {{{"k", absl::StrCat(request.k())},
           {"objectives", objectives},
           {"approach", approach},
           {"weights", WeightBits(nodes.selection.weights)},
           {"sensitivity", sensitivity},
           {"epsilon", DoubleBits(request.epsilon())}},
          absl::StrCat("SelectInfluentialNodes k=", request.k(), " ", approach,
                       " ", sensitivity, " ", objectives)};
}

absl::Status SelectInfluentialNodesImpl(
    const BuyerCore& service, const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request,
    v1::SelectInfluentialNodesResponse* response, const CallContext& call) {
  ASSIGN_OR_RETURN(
      PreparedRelease<sel::InfluentialNodesRequest> prepared,
      PrepareSelectInfluentialNodes(*service.registry, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  sel::InfluentialNodesRequest& nodes = prepared.spec;
  nodes.selection.stop = [&call] { return call.Over(); };

  // A slot before anything is reserved (UNAVAILABLE charges nothing; it
  // depends on the caller's own and the other calls running, not on the
  // data). Held through the computation, which polls call.Over() and so
  // gives it back soon after the call ends.
  ASSIGN_OR_RETURN(
      HeavyJobLimiter::Slot slot,
      service.heavy_jobs.TryAcquire("SelectInfluentialNodes", caller.id));
  // The key holds everything the scores depend on; epsilon and k are not
  // among them.
  const std::string cache_key = absl::StrJoin(
      {request.dataset_id(), absl::StrCat(d.version),
       sel::NodeObjectiveList(nodes.objectives),
       std::string(sel::ApproachName(nodes.selection.approach)),
       std::string(sel::SensitivityModeName(nodes.selection.sensitivity)),
       WeightBits(nodes.selection.weights)},
      "\x1f");
  return RunRelease<v1::SelectInfluentialNodesResponse>(
      *service.ledger, prepared.reserve, call,
      [&](v1::SelectInfluentialNodesResponse* answer) -> absl::Status {
        // After the charge: how long the scores take depends on the graph.
        ASSIGN_OR_RETURN(const NodeScoresCache::Scores scores,
                         service.node_scores.GetOrCompute(
                             cache_key, prepared.dataset, call.deadline,
                             [&]() -> absl::StatusOr<NodeScoresCache::Scores> {
                               return sel::PrepareInfluentialNodeScores(
                                   d.edge_graph, nodes);
                             },
                             nodes.selection.stop));
        const std::unique_ptr<core::dp::SecureUrbg> urbg = service.NewUrbg();
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
