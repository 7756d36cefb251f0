#include "core/measures/graph_components.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::measures::internal {

using graph::Graph;
using graph::NodeId;

Components Components::Find(const Graph& g, absl::Span<const uint8_t> active) {
  const uint32_t n = g.num_nodes();
  const auto is_active = [&](NodeId v) {
    return active.empty() || active[v] != 0;
  };
  Components result;
  result.component_of_.assign(n, kNone);
  result.nodes_.reserve(n);
  // Breadth-first search writes each component's nodes contiguously into
  // nodes_, which then doubles as the queue (no recursion: components can
  // have millions of nodes).
  for (NodeId s = 0; s < n; ++s) {
    if (!is_active(s) || result.component_of_[s] != kNone) continue;
    const uint32_t c = result.size();
    const size_t begin = result.nodes_.size();
    result.component_of_[s] = c;
    result.nodes_.push_back(s);
    for (size_t head = begin; head < result.nodes_.size(); ++head) {
      for (NodeId w : g.neighbors(result.nodes_[head])) {
        if (is_active(w) && result.component_of_[w] == kNone) {
          result.component_of_[w] = c;
          result.nodes_.push_back(w);
        }
      }
    }
    std::sort(result.nodes_.begin() + begin, result.nodes_.end());
    result.offsets_.push_back(static_cast<uint32_t>(result.nodes_.size()));
  }
  return result;
}

std::optional<std::vector<uint32_t>> CompleteMultipartiteParts(
    const Graph& g, const Components& components, uint32_t c) {
  const absl::Span<const NodeId> nodes = components.nodes(c);
  const uint32_t k = static_cast<uint32_t>(nodes.size());
  // Twin classes: nodes with equal neighbour lists (spans hash and compare
  // by content).
  absl::flat_hash_map<absl::Span<const NodeId>, uint32_t> class_of;
  std::vector<uint32_t> class_size;
  for (NodeId v : nodes) {
    for (NodeId w : g.neighbors(v)) {
      if (components.component_of(w) != c) return std::nullopt;
    }
    auto [it, inserted] = class_of.try_emplace(
        g.neighbors(v), static_cast<uint32_t>(class_size.size()));
    if (inserted) class_size.push_back(0);
    ++class_size[it->second];
  }
  // Twins are never adjacent in a simple graph, so deg(v) = k - |class(v)|
  // means v is adjacent to every node outside its class.
  for (NodeId v : nodes) {
    if (g.degree(v) != k - class_size[class_of.find(g.neighbors(v))->second]) {
      return std::nullopt;
    }
  }
  return class_size;
}

}  // namespace dpq::core::measures::internal
