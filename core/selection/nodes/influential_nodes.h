// DP top-k influential nodes by DP-MOTkIN (paper: dp-multi-objective-
// selection, Section 7, with the corrected egocentric density sensitivity
// of docs/privacy.md 6.1; docs/selection.md, "DP-MOTkIN in two phases")
// under edge-DP: neighbouring graphs
// differ in one edge. Entry point used by the service.
#ifndef DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_H_
#define DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/selection/multi_objective_selection.h"
#include "core/selection/selection_scores.h"

namespace dpq::core::selection {

// An undirected simple graph read from an edge list, with the original
// node labels: graph node i is labels[i].
struct LabeledGraph {
  graph::Graph graph;
  std::vector<std::string> labels;
};

// Reads an edge-list CSV with columns `source,target` (header optional:
// a first line "source,target" is skipped), undirected; self-loops and
// duplicate edges (either direction) are dropped. Labels are the cell
// texts. kInvalidArgument naming the line for a malformed line,
// kNotFound for a missing file.
absl::StatusOr<LabeledGraph> ReadEdgeListCsv(const std::string& path);

enum class NodeObjective { kDegree, kEgocentricDensity };
// "degree" / "egocentric_density" (also "egodensity").
absl::StatusOr<NodeObjective> ParseNodeObjective(absl::string_view text);
absl::string_view NodeObjectiveName(NodeObjective objective);

struct InfluentialNodesRequest {
  size_t k = 1;
  // Default (empty): degree and egocentric density.
  std::vector<NodeObjective> objectives;
  // approach, sensitivity, weights, epsilon; k is taken from above.
  SelectionOptions selection;
};

struct InfluentialNodesResult {
  std::vector<std::string> nodes;  // k labels in selection order
  double epsilon_spent = 0;
};

// The scores the k draws sample from (PS, u_agg or their dampened
// versions, with their sensitivity). A deterministic function of the graph
// and of (objectives, approach, sensitivity, weights, max_dampening_steps)
// only: neither epsilon nor k enters, so one computation may serve any
// number of draws (each draw is charged on its own; reusing the scores is
// post-processing of nothing private beyond what each draw reads).
struct NodeSelectionScores {
  SelectionScores selection;
  // Local variants are local dampening over the exponential mechanism.
  GlobalMechanism mechanism = GlobalMechanism::kExponential;
  size_t num_nodes = 0;
};

// Phase 1 of SelectInfluentialNodes: the expensive, data-dependent part
// (local PrivPareto on a 37k-node graph takes 20+ s). request.k and
// request.selection.epsilon are ignored. kInvalidArgument for an empty
// graph or weights that do not match the objectives; kCancelled once
// request.selection.stop says so (polled while the objectives and the
// dampened scores are computed).
absl::StatusOr<std::shared_ptr<const NodeSelectionScores>>
PrepareInfluentialNodeScores(const LabeledGraph& graph,
                             const InfluentialNodesRequest& request);

// Phase 2: k draws without replacement at epsilon / k each from `scores`
// (which must come from PrepareInfluentialNodeScores on `graph`); epsilon-
// DP in total. kInvalidArgument for k == 0 or k > node count, invalid
// epsilon, scores of another graph.
absl::StatusOr<InfluentialNodesResult> DrawInfluentialNodes(
    const LabeledGraph& graph, const NodeSelectionScores& scores, size_t k,
    double epsilon, dp::SecureUrbg& urbg);

// Prepare then draw. kInvalidArgument for k == 0 or k > node count,
// weights that do not match the objectives, invalid epsilon.
absl::StatusOr<InfluentialNodesResult> SelectInfluentialNodes(
    const LabeledGraph& graph, const InfluentialNodesRequest& request,
    dp::SecureUrbg& urbg);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_INFLUENTIAL_NODES_H_
