#include "core/graph/edge_addition.h"

#include <vector>

#include "absl/synchronization/mutex.h"

namespace dpq::core::graph {
namespace {

// Visits the kept edges of pi_theta(G) in stable order.
template <typename F>
void ForEachKeptEdge(const Graph& g, uint32_t theta, F&& keep) {
  std::vector<uint32_t> degree(g.num_nodes(), 0);
  g.ForEachEdge([&](NodeId u, NodeId v) {
    if (degree[u] < theta && degree[v] < theta) {
      ++degree[u];
      ++degree[v];
      keep(u, v);
    }
  });
}

ProjectionCounts CountsWithoutTruncation(const Graph& g) {
  return ProjectionCounts{g.num_edges(), g.num_non_isolated()};
}

}  // namespace

ProjectionCounts EdgeAdditionCounts(const Graph& g, uint32_t theta) {
  // With theta >= max degree no endpoint can be full, so nothing is cut.
  if (theta >= g.max_degree()) return CountsWithoutTruncation(g);
  internal::GraphMemo* memo = g.memo();
  if (memo != nullptr) {
    absl::MutexLock lock(&memo->mu);
    if (auto it = memo->edge_addition.find(theta);
        it != memo->edge_addition.end()) {
      return ProjectionCounts{it->second.first, it->second.second};
    }
  }
  // Computed outside the lock: two threads may both compute one theta, and
  // both get the same (deterministic) answer.
  std::vector<uint8_t> touched(g.num_nodes(), 0);
  ProjectionCounts counts;
  ForEachKeptEdge(g, theta, [&](NodeId u, NodeId v) {
    ++counts.edges;
    counts.positive_degree_nodes += (touched[u] == 0) + (touched[v] == 0);
    touched[u] = touched[v] = 1;
  });
  if (memo != nullptr) {
    absl::MutexLock lock(&memo->mu);
    if (memo->edge_addition.size() < internal::GraphMemo::kMaxEntries) {
      memo->edge_addition.try_emplace(theta, counts.edges,
                                      counts.positive_degree_nodes);
    }
  }
  return counts;
}

std::vector<ProjectionCounts> EdgeAdditionCountsForEach(
    const Graph& g, absl::Span<const uint32_t> thetas) {
  std::vector<ProjectionCounts> out;
  out.reserve(thetas.size());
  for (uint32_t theta : thetas) out.push_back(EdgeAdditionCounts(g, theta));
  return out;
}

Graph EdgeAdditionProjection(const Graph& g, uint32_t theta) {
  if (theta >= g.max_degree()) return g;
  std::vector<Edge> kept;
  ForEachKeptEdge(g, theta,
                  [&](NodeId u, NodeId v) { kept.emplace_back(u, v); });
  // Kept edges come in stable (sorted) order, unique.
  return Graph::FromSortedUniqueEdges(g.num_nodes(), kept);
}

}  // namespace dpq::core::graph
