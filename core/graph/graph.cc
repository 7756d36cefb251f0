#include "core/graph/graph.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::graph {

absl::StatusOr<Graph> Graph::FromEdges(uint32_t num_nodes,
                                       std::vector<Edge> edges) {
  for (Edge& e : edges) {
    if (e.first == e.second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Self-loop on node ", e.first, " is not allowed."));
    }
    if (e.first >= num_nodes || e.second >= num_nodes) {
      return absl::InvalidArgumentError(
          absl::StrCat("Edge {", e.first, ", ", e.second,
                       "} names a node >= num_nodes (", num_nodes, ")."));
    }
    if (e.first > e.second) std::swap(e.first, e.second);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return FromSortedUniqueEdges(num_nodes, edges);
}

namespace {

NodeId First(const Edge& e) { return e.first; }
NodeId Second(const Edge& e) { return e.second; }
NodeId First(uint64_t e) { return static_cast<NodeId>(e >> 32); }
NodeId Second(uint64_t e) { return static_cast<NodeId>(e); }

}  // namespace

template <typename E>
Graph Graph::FromSorted(uint32_t num_nodes, const std::vector<E>& edges) {
  Graph g;
  std::vector<uint64_t> degree(num_nodes, 0);
  for (const E& e : edges) {
    assert(First(e) < Second(e) && Second(e) < num_nodes);
    ++degree[First(e)];
    ++degree[Second(e)];
  }
  g.offsets_.assign(static_cast<size_t>(num_nodes) + 1, 0);
  for (uint32_t v = 0; v < num_nodes; ++v) {
    g.offsets_[v + 1] = g.offsets_[v] + degree[v];
    g.max_degree_ =
        std::max<uint32_t>(g.max_degree_, static_cast<uint32_t>(degree[v]));
    if (degree[v] > 0) ++g.num_non_isolated_;
  }
  g.adjacency_.resize(g.offsets_[num_nodes]);
  // Rows come out sorted without a sort: pass 1 writes every node's lower
  // neighbours (from edges (u, v), u < v, in ascending u), pass 2 its upper
  // neighbours (from edges (v, w) in ascending w), and lower < v < upper.
  std::vector<uint64_t>& cursor = degree;
  std::copy(g.offsets_.begin(), g.offsets_.end() - 1, cursor.begin());
  for (const E& e : edges) g.adjacency_[cursor[Second(e)]++] = First(e);
  for (const E& e : edges) g.adjacency_[cursor[First(e)]++] = Second(e);
  return g;
}

Graph Graph::FromSortedUniqueEdges(uint32_t num_nodes,
                                   const std::vector<Edge>& edges) {
  return FromSorted(num_nodes, edges);
}

Graph Graph::FromSortedUniquePacked(uint32_t num_nodes,
                                    const std::vector<uint64_t>& packed) {
  return FromSorted(num_nodes, packed);
}

std::vector<Edge> Graph::Edges() const {
  std::vector<Edge> out;
  out.reserve(num_edges());
  ForEachEdge([&out](NodeId u, NodeId v) { out.emplace_back(u, v); });
  return out;
}

Graph Graph::WithoutNode(NodeId removed) const {
  std::vector<Edge> kept;
  kept.reserve(num_edges());
  ForEachEdge([&](NodeId u, NodeId v) {
    if (u == removed || v == removed) return;
    kept.emplace_back(u > removed ? u - 1 : u, v > removed ? v - 1 : v);
  });
  // Renumbering is monotone, so `kept` is still sorted and unique.
  return FromSortedUniqueEdges(num_nodes() - 1, kept);
}

}  // namespace dpq::core::graph
