#include "core/graph/stable_vertex_cover.h"

#include <vector>

namespace dpq::core::graph {
namespace {

template <typename F>
void ForEachMatchedEdge(const Graph& g, F&& on_match) {
  std::vector<uint8_t> covered(g.num_nodes(), 0);
  g.ForEachEdge([&](NodeId u, NodeId v) {
    if (covered[u] || covered[v]) return;  // edge already removed (line 6)
    covered[u] = covered[v] = 1;
    on_match(u, v);
  });
}

}  // namespace

std::vector<NodeId> StableGreedyVertexCover(const Graph& g) {
  std::vector<NodeId> cover;
  ForEachMatchedEdge(g, [&](NodeId u, NodeId v) {
    cover.push_back(u);
    cover.push_back(v);
  });
  return cover;
}

uint32_t StableGreedyVertexCoverSize(const Graph& g) {
  uint32_t size = 0;
  ForEachMatchedEdge(g, [&](NodeId, NodeId) { size += 2; });
  return size;
}

}  // namespace dpq::core::graph
