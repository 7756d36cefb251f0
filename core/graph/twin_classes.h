// False twins: nodes with equal neighbour lists. Contracting each class to
// one weighted node shrinks the networks and programs whose optimum is the
// same for every member of a class (docs/core.md "Twin classes"). Conflict
// graphs of FDs have many: rows that agree on every attribute the DCs read
// have equal neighbourhoods, and so do rows of one FD block that agree on
// its right-hand side.
#ifndef DPQ_CORE_GRAPH_TWIN_CLASSES_H_
#define DPQ_CORE_GRAPH_TWIN_CLASSES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::graph {

// The twin classes of a set of nodes. Two nodes of the set share a class iff
// their neighbour lists in the graph are equal. A class is an independent
// set (a node is not its own neighbour), and if one member of class A is
// adjacent to one member of class B, every member of A is adjacent to every
// member of B.
class TwinClasses {
 public:
  // Classes of `nodes` (distinct ids of g). Class ids are dense, numbered
  // by their first member in `nodes`. O(sum of degrees + k log k) for
  // k = nodes.size(): one hash per neighbour list, exact comparison of the
  // lists whose hashes are equal.
  static TwinClasses Find(const Graph& g, absl::Span<const NodeId> nodes);

  uint32_t size() const { return static_cast<uint32_t>(members_.size()); }
  // Class of nodes[i] (by position in the span given to Find).
  uint32_t class_of(uint32_t i) const { return class_of_[i]; }
  // Number of members of class c.
  uint32_t members(uint32_t c) const { return members_[c]; }
  // A member of class c (the first in `nodes`), whose neighbour list
  // stands for the class's.
  NodeId representative(uint32_t c) const { return representative_[c]; }

 private:
  std::vector<uint32_t> class_of_;
  std::vector<uint32_t> members_;
  std::vector<NodeId> representative_;
};

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_TWIN_CLASSES_H_
