// BuyerService.SelectInfluentialNodes: DP top-k nodes (DP-MOTkIN) of a
// graph dataset under edge-DP (issue 6, design.md section 8).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/node_scores_cache.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_pipeline.h"

namespace dpq::server::buyer {
namespace {

namespace sel = core::selection;

// The objectives, defaulting to degree and egocentric density (the
// paper's pair). kInvalidArgument naming `objectives`.
absl::StatusOr<std::vector<sel::NodeObjective>> ObjectivesFromRequest(
    const v1::SelectInfluentialNodesRequest& request) {
  if (request.objectives().empty()) {
    return std::vector<sel::NodeObjective>{
        sel::NodeObjective::kDegree, sel::NodeObjective::kEgocentricDensity};
  }
  std::vector<sel::NodeObjective> objectives;
  for (const int value : request.objectives()) {
    ASSIGN_OR_RETURN(
        const sel::NodeObjective objective,
        NodeObjectiveFromProto(static_cast<v1::NodeObjective>(value)));
    if (std::find(objectives.begin(), objectives.end(), objective) !=
        objectives.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("objectives lists ", sel::NodeObjectiveName(objective),
                       " twice."));
    }
    objectives.push_back(objective);
  }
  return objectives;
}

}  // namespace

absl::Status BuyerServiceImpl::SelectInfluentialNodesImpl(
    const auth::Principal& caller,
    const v1::SelectInfluentialNodesRequest& request,
    v1::SelectInfluentialNodesResponse* response,
    const CallContext& call) const {
  ASSIGN_OR_RETURN(const ReleaseStart start,
                   StartRelease(*registry_, caller, request.dataset_id(),
                                request.request_id(), request.epsilon(),
                                registry::kSelectInfluentialNodes));
  const registry::LoadedDataset& d = *start.dataset;
  if (request.k() == 0 || request.k() > kMaxNodesK) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k must be in [1, ", kMaxNodesK, "], but is ", request.k(), "."));
  }
  // The node count is the owner's declared universe (DescribeDataset shows
  // it), never read off the private edges.
  const uint32_t nodes = d.edge_graph.graph.num_nodes();
  if (request.k() > nodes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "k must be at most the declared node count of dataset '",
        request.dataset_id(), "' (", nodes, "), but is ", request.k(), "."));
  }
  ASSIGN_OR_RETURN(const std::vector<sel::NodeObjective> objectives,
                   ObjectivesFromRequest(request));
  std::vector<std::string> objective_names;
  for (const sel::NodeObjective o : objectives) {
    objective_names.emplace_back(sel::NodeObjectiveName(o));
  }
  const std::string objective_list = absl::StrJoin(objective_names, ",");
  ASSIGN_OR_RETURN(const sel::Approach approach,
                   ApproachFromProto(request.approach()));
  ASSIGN_OR_RETURN(const sel::SensitivityMode sensitivity,
                   SensitivityFromProto(request.sensitivity()));
  ASSIGN_OR_RETURN(
      std::vector<double> weights,
      internal::CheckSelectionWeights(approach, request.weights(),
                                      objectives.size(),
                                      objective_list.c_str()));

  const std::string approach_name(sel::ApproachName(approach));
  const std::string sensitivity_name(sel::SensitivityModeName(sensitivity));
  std::vector<std::string> weight_bits;
  for (const double w : weights) weight_bits.push_back(internal::DoubleBits(w));
  const core::ledger::ReserveRequest reserve = ReserveFor(
      caller, start, registry::kSelectInfluentialNodes,
      {{"dataset", request.dataset_id()},
       {"version", absl::StrCat(d.version)},
       {"k", absl::StrCat(request.k())},
       {"objectives", objective_list},
       {"approach", approach_name},
       {"weights", absl::StrJoin(weight_bits, ",")},
       {"sensitivity", sensitivity_name},
       {"epsilon", internal::DoubleBits(request.epsilon())}},
      absl::StrCat("SelectInfluentialNodes k=", request.k(), " ",
                   approach_name, " ", sensitivity_name, " ", objective_list),
      start.epsilon);

  sel::InfluentialNodesRequest nodes_request;
  nodes_request.k = request.k();
  nodes_request.objectives = objectives;
  nodes_request.selection.approach = approach;
  nodes_request.selection.sensitivity = sensitivity;
  nodes_request.selection.weights = std::move(weights);
  nodes_request.selection.epsilon = start.epsilon;
  nodes_request.selection.k = request.k();
  nodes_request.selection.stop = [&call] { return call.Over(); };

  // A slot before anything is reserved (UNAVAILABLE charges nothing; it
  // depends on the caller's own and the other calls running, not on the
  // data). Held through the computation, which polls call.Over() and so
  // gives it back soon after the call ends.
  ASSIGN_OR_RETURN(
      HeavyJobLimiter::Slot slot,
      heavy_jobs_.TryAcquire("SelectInfluentialNodes", caller.id));
  // The key holds everything the scores depend on; epsilon and k are not
  // among them.
  const std::string cache_key = absl::StrJoin(
      {request.dataset_id(), absl::StrCat(d.version), objective_list,
       approach_name, sensitivity_name, absl::StrJoin(weight_bits, ",")},
      "\x1f");
  return internal::RunRelease<v1::SelectInfluentialNodesResponse>(
      *ledger_, reserve, call,
      [&](v1::SelectInfluentialNodesResponse* answer) -> absl::Status {
        // After the charge: how long the scores take depends on the graph.
        ASSIGN_OR_RETURN(
            const NodeScoresCache::Scores scores,
            SharedNodeScoresCache().GetOrCompute(
                cache_key, start.dataset, call.deadline,
                [&]() -> absl::StatusOr<NodeScoresCache::Scores> {
                  return sel::PrepareInfluentialNodeScores(d.edge_graph,
                                                           nodes_request);
                },
                nodes_request.selection.stop));
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(
            sel::InfluentialNodesResult result,
            sel::DrawInfluentialNodes(d.edge_graph, *scores, request.k(),
                                      start.epsilon, *urbg));
        for (const std::string& node : result.nodes) answer->add_nodes(node);
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
