// An undirected simple graph in compressed sparse row (CSR) form, the
// representation of conflict graphs (docs/core.md "Conflict graph").
#ifndef DPQ_CORE_GRAPH_GRAPH_H_
#define DPQ_CORE_GRAPH_GRAPH_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"

namespace dpq::core::graph {

// Node ids are tuple ids (row numbers), 32 bits.
using NodeId = uint32_t;

// An edge {first, second} with first < second.
using Edge = std::pair<NodeId, NodeId>;

namespace internal {

// Results of pure functions of one graph, kept so that a cached graph
// answers repeated requests without recomputing them (a service releases
// many measures from one graph). Thread-safe.
struct GraphMemo {
  // The largest number of entries kept per map; later results are simply
  // not memoized, so memory stays bounded whatever thetas callers ask for.
  static constexpr size_t kMaxEntries = 4096;
  absl::Mutex mu;
  // Edge-addition counts (edges, positive-degree nodes) per theta.
  absl::flat_hash_map<uint32_t, std::pair<uint64_t, uint32_t>> edge_addition
      ABSL_GUARDED_BY(mu);
  // Flow Lipschitz extension values (core/private/flow_extensions.h) per
  // (measure tag, theta).
  absl::flat_hash_map<std::pair<int, uint32_t>, int64_t> flow_extension
      ABSL_GUARDED_BY(mu);
  // The (measure tag, theta) of the flow sweeps running now: a caller that
  // needs one of them waits for it (on flow_done) instead of running the
  // same sweep again, so concurrent identical releases cost one sweep.
  absl::flat_hash_set<std::pair<int, uint32_t>> flow_in_flight
      ABSL_GUARDED_BY(mu);
  absl::CondVar flow_done;
  // Flow sweeps run on this graph (each over the thetas it was missing).
  uint64_t flow_sweeps ABSL_GUARDED_BY(mu) = 0;
};

}  // namespace internal

class Graph {
 public:
  Graph() : offsets_(1, 0) {}

  // Builds the graph on nodes 0..num_nodes-1. Edges may come in any order
  // and orientation, duplicates are merged. kInvalidArgument on a self-loop
  // or an id >= num_nodes. O(m log m) time, 8 bytes per stored edge end.
  static absl::StatusOr<Graph> FromEdges(uint32_t num_nodes,
                                         std::vector<Edge> edges);

  // Same, for edges already sorted by (first, second), deduplicated, with
  // first < second < num_nodes (checked only in debug builds). O(n + m).
  static Graph FromSortedUniqueEdges(uint32_t num_nodes,
                                     const std::vector<Edge>& edges);

  // Same, for edges packed as first << 32 | second, sorted and unique
  // (the conflict-graph builder's form: no copy as pairs). O(n + m).
  static Graph FromSortedUniquePacked(uint32_t num_nodes,
                                      const std::vector<uint64_t>& packed);

  // Same, for packed pairs u << 32 | v with u < v < num_nodes, in any
  // order and with duplicates (checked only in debug builds), spread over
  // `parts` (consumed): the conflict-graph builder's per-worker buffers.
  // Buckets the pairs by u, sorts each node's short list and builds the
  // CSR on `num_threads` threads: O(n + m) plus the per-node sorts, no
  // global sort (graph_from_pairs.cc). The result does not depend on the
  // thread count or on how the pairs are split into parts.
  static Graph FromPackedPairs(uint32_t num_nodes,
                               std::vector<std::vector<uint64_t>> parts,
                               int num_threads);

  uint32_t num_nodes() const {
    return static_cast<uint32_t>(offsets_.size() - 1);
  }
  uint64_t num_edges() const { return adjacency_.size() / 2; }

  // Neighbours of v in ascending order.
  absl::Span<const NodeId> neighbors(NodeId v) const {
    return absl::MakeConstSpan(adjacency_.data() + offsets_[v],
                               offsets_[v + 1] - offsets_[v]);
  }
  uint32_t degree(NodeId v) const {
    return static_cast<uint32_t>(offsets_[v + 1] - offsets_[v]);
  }
  uint32_t max_degree() const { return max_degree_; }
  // Number of nodes of positive degree.
  uint32_t num_non_isolated() const { return num_non_isolated_; }

  // Calls f(u, v) for every edge with u < v in the stable order Lambda:
  // lexicographic by (u, v). Node ids are tuple ids, so for two neighbouring
  // datasets the common edges keep their relative order (paper, Def. 7).
  template <typename F>
  void ForEachEdge(F&& f) const {
    const uint32_t n = num_nodes();
    for (NodeId u = 0; u < n; ++u) {
      for (NodeId v : neighbors(u)) {
        if (v > u) f(u, v);
      }
    }
  }

  // All edges in the stable order.
  std::vector<Edge> Edges() const;

  // The graph without node `v` (its edges removed, ids above v shifted down
  // by one, exactly as removing the tuple renumbers the rows). For
  // neighbouring-graph tests. O(n + m).
  Graph WithoutNode(NodeId v) const;

  // The memo of this graph's derived results (edge_addition.h), shared by
  // its copies: a Graph never changes after construction. Null only in a
  // moved-from graph.
  internal::GraphMemo* memo() const { return memo_.get(); }

 private:
  template <typename E>
  static Graph FromSorted(uint32_t num_nodes, const std::vector<E>& edges);

  std::vector<uint64_t> offsets_;  // size n + 1
  std::vector<NodeId> adjacency_;  // both directions, sorted per node
  uint32_t max_degree_ = 0;
  uint32_t num_non_isolated_ = 0;
  std::shared_ptr<internal::GraphMemo> memo_ =
      std::make_shared<internal::GraphMemo>();
};

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_GRAPH_H_
