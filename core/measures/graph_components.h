// Connected components and the complete-multipartite test shared by the
// exact I_R and I_MC computations. Implementation details of
// core/measures; not part of the public API.
#ifndef DPQ_CORE_MEASURES_GRAPH_COMPONENTS_H_
#define DPQ_CORE_MEASURES_GRAPH_COMPONENTS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::measures::internal {

// The connected components of a graph (optionally of the subgraph induced by
// the nodes with active[v] != 0), nodes grouped per component.
class Components {
 public:
  // Components of `g`, or of the subgraph induced by the active nodes when
  // `active` is non-empty (then it must have g.num_nodes() entries; inactive
  // nodes belong to no component). Components are numbered in the order of
  // their smallest node; nodes within one are in ascending order.
  // O(n + m) time, O(n) extra memory.
  static Components Find(const graph::Graph& g,
                         absl::Span<const uint8_t> active = {});

  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1); }
  absl::Span<const graph::NodeId> nodes(uint32_t c) const {
    return absl::MakeConstSpan(nodes_.data() + offsets_[c],
                               offsets_[c + 1] - offsets_[c]);
  }
  // Component of an active node; kNone for inactive nodes.
  uint32_t component_of(graph::NodeId v) const { return component_of_[v]; }

  static constexpr uint32_t kNone = UINT32_MAX;

 private:
  std::vector<uint32_t> component_of_;
  std::vector<uint32_t> offsets_{0};
  std::vector<graph::NodeId> nodes_;
};

// If component `c` of `components` (found on `g`) is a complete multipartite
// graph that no edge of `g` leaves, returns its part sizes in unspecified
// order; otherwise nullopt. A single node is one part of size 1.
// Why it matters: the conflict graph of one FD restricted to a block of
// equal left-hand sides is complete multipartite (parts = right-hand
// values), and there both I_R (size minus largest part) and I_MC (number of
// parts) are known in closed form at any size.
// Uses that non-adjacent twins (equal neighbour lists) are exactly the parts
// iff every node is adjacent to all nodes outside its twin class.
// O(sum of the component's degrees) expected time (hashes neighbour lists).
std::optional<std::vector<uint32_t>> CompleteMultipartiteParts(
    const graph::Graph& g, const Components& components, uint32_t c);

}  // namespace dpq::core::measures::internal

#endif  // DPQ_CORE_MEASURES_GRAPH_COMPONENTS_H_
