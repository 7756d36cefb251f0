#include "core/selection/nodes/node_centrality.h"

#include <cstdint>
#include <vector>

#include "core/util/status_macros.h"

namespace dpq::core::selection {

std::vector<uint64_t> Degrees(const graph::Graph& graph) {
  std::vector<uint64_t> degrees(graph.num_nodes());
  for (graph::NodeId v = 0; v < graph.num_nodes(); ++v) {
    degrees[v] = graph.degree(v);
  }
  return degrees;
}

std::vector<uint64_t> EdgesAmongNeighbours(const graph::Graph& graph) {
  // Without a stop function nothing can fail.
  return *EdgesAmongNeighbours(graph, nullptr);
}

absl::StatusOr<std::vector<uint64_t>> EdgesAmongNeighbours(
    const graph::Graph& graph, const util::StopFn& stop) {
  const uint32_t n = graph.num_nodes();
  util::StridedStop stopped(stop, kStopPollWork);
  // Orient every edge towards the endpoint later in (degree, id) order;
  // each triangle is then found exactly once, from its first vertex, and
  // every out-degree is O(sqrt(m)).
  auto before = [&](graph::NodeId a, graph::NodeId b) {
    const uint32_t da = graph.degree(a), db = graph.degree(b);
    return da < db || (da == db && a < b);
  };
  std::vector<uint64_t> triangles(n, 0);
  std::vector<uint32_t> mark(n, UINT32_MAX);
  for (graph::NodeId u = 0; u < n; ++u) {
    if (stopped.Requested(1 + graph.degree(u))) return util::StoppedError();
    for (graph::NodeId v : graph.neighbors(u)) {
      if (before(u, v)) mark[v] = u;
    }
    for (graph::NodeId v : graph.neighbors(u)) {
      if (!before(u, v)) continue;
      // The inner loop is the O(m sqrt(m)) part: one poll per block of
      // visits, however the degrees are spread.
      if (stopped.Requested(graph.degree(v))) return util::StoppedError();
      for (graph::NodeId w : graph.neighbors(v)) {
        if (before(v, w) && mark[w] == u) {
          ++triangles[u];
          ++triangles[v];
          ++triangles[w];
        }
      }
    }
  }
  return triangles;
}

std::vector<double> EgocentricDensities(const graph::Graph& graph) {
  return *EgocentricDensities(graph, nullptr);
}

absl::StatusOr<std::vector<double>> EgocentricDensities(
    const graph::Graph& graph, const util::StopFn& stop) {
  ASSIGN_OR_RETURN(const std::vector<uint64_t> triangles,
                   EdgesAmongNeighbours(graph, stop));
  std::vector<double> density(graph.num_nodes(), 0.0);
  for (graph::NodeId v = 0; v < graph.num_nodes(); ++v) {
    const double d = graph.degree(v);
    if (d >= 2)
      density[v] = 2.0 * static_cast<double>(triangles[v]) / (d * (d - 1.0));
  }
  return density;
}

}  // namespace dpq::core::selection
