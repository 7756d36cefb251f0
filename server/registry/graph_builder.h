// A graph version from its edge list (dataset_builder.h calls it): the
// owner's declared node universe and the edges, parsed straight from the
// uploaded bytes (core/selection/nodes/edge_list.h); the registry writes
// them to disk once, afterwards (dataset_directory.h). No I/O, no locks.
#ifndef DPQ_SERVER_REGISTRY_GRAPH_BUILDER_H_
#define DPQ_SERVER_REGISTRY_GRAPH_BUILDER_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/build_context.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/registry_options.h"

namespace dpq::server::registry::internal {

// Fills d->edge_graph (the declared nodes, the edges of `edge_list`) and
// the edge-DP neighbour notion. A stored manifest from before declared
// universes takes the nodes of its edges (what buyers saw then), frozen
// into d->manifest, and sets *migrated (if not null). Errors name the
// field: kInvalidArgument "csv (edge list source,target): Edge list line
// N: ..." for a malformed line or an edge outside the universe, "node_labels:
// ..." for a bad label, and without a universe or without edges;
// kResourceExhausted above max_graph_nodes or max_graph_edges.
absl::Status BuildGraph(const RegistryOptions& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view edge_list,
                        const BuildContext& context, LoadedDataset* d,
                        bool* migrated);

}  // namespace dpq::server::registry::internal

#endif  // DPQ_SERVER_REGISTRY_GRAPH_BUILDER_H_
