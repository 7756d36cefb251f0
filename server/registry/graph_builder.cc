#include "server/registry/graph_builder.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/selection/nodes/edge_list.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::server::registry::internal {
namespace {

// The edges over the declared node universe. A stored manifest from
// before declared universes takes the nodes of its edges.
absl::StatusOr<core::selection::LabeledGraph> ParseGraph(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    absl::string_view edge_list, const BuildContext& context, bool* migrated) {
  if (manifest.node_labels_size() > 0) {
    if (static_cast<uint64_t>(manifest.node_labels_size()) >
        options.max_graph_nodes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "node_labels declares ", manifest.node_labels_size(),
          " nodes; the server's limit is ", options.max_graph_nodes, "."));
    }
    return core::selection::ParseEdgeList(
        edge_list, std::vector<std::string>(manifest.node_labels().begin(),
                                            manifest.node_labels().end()));
  }
  if (manifest.node_count() > 0) {
    if (manifest.node_count() > options.max_graph_nodes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "node_count is ", manifest.node_count(), "; the server's limit is ",
          options.max_graph_nodes, " nodes."));
    }
    return core::selection::ParseEdgeList(
        edge_list, core::selection::CountedNodeLabels(manifest.node_count()));
  }
  if (!context.stored) {
    return absl::InvalidArgumentError(
        "A graph dataset needs its node universe: node_count n (nodes \"0\" "
        "to \"n-1\") or node_labels (every node, isolated ones included; "
        "dpq admin register --node-count N or --nodes FILE). Under edge-DP "
        "the nodes are public and must not be read off the private edges.");
  }
  if (migrated != nullptr) *migrated = true;
  return core::selection::ParseEdgeList(edge_list);
}

// A parse error prefixed with the field at fault (limits and a missing
// universe already say what to change).
absl::Status ParseError(const absl::Status& s) {
  if (s.code() == absl::StatusCode::kResourceExhausted ||
      absl::StartsWith(s.message(), "A graph dataset")) {
    return s;
  }
  return core::util::WithPrefix(absl::StartsWith(s.message(), "Node label")
                                    ? "node_labels: "
                                    : "csv (edge list source,target): ",
                                s);
}

// Refuses a graph without edges or above the server's limits.
absl::Status CheckGraphSize(const RegistryOptions& options,
                            const core::graph::Graph& graph) {
  const uint64_t nodes = graph.num_nodes();
  const uint64_t edges = graph.num_edges();
  if (edges == 0) {
    return absl::InvalidArgumentError(
        "csv (edge list source,target): the graph has no edges.");
  }
  if (nodes > options.max_graph_nodes || edges > options.max_graph_edges) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "csv (edge list): the graph has ", nodes, " nodes and ", edges,
        " edges; the server's limits are ", options.max_graph_nodes,
        " nodes and ", options.max_graph_edges, " edges."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status BuildGraph(const RegistryOptions& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view edge_list,
                        const BuildContext& context, LoadedDataset* d,
                        bool* migrated) {
  absl::StatusOr<core::selection::LabeledGraph> graph =
      ParseGraph(options, manifest, edge_list, context, migrated);
  if (!graph.ok()) return ParseError(graph.status());
  RETURN_IF_ERROR(CheckGraphSize(options, graph->graph));
  d->edge_graph = *std::move(graph);
  d->neighbouring = kEdgeNeighbouring;
  if (manifest.node_labels_size() == 0 && manifest.node_count() == 0) {
    // Migrated: freeze the universe read off the edges.
    for (const std::string& label : d->edge_graph.labels) {
      d->manifest.add_node_labels(label);
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::registry::internal
