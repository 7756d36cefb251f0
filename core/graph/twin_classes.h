// Twins: nodes that the networks and programs over a graph cannot tell
// apart. Contracting each class to one weighted node shrinks the networks
// and programs whose optimum is the same for every member of a class
// (docs/core.md "Twin classes").
//  - False twins have equal neighbour lists (N(u) = N(v)); a class is an
//    independent set. Conflict graphs of FDs have many: rows that agree on
//    every attribute the DCs read, and rows of one FD block that agree on
//    its right-hand side.
//  - True twins have equal closed neighbourhoods (N(u) + u = N(v) + v); a
//    class is a clique. A key group whose right-hand sides all differ (a
//    constant key over a unique column: one clique of every row) is one
//    class of true twins.
// A node of degree >= 1 cannot have both a false and a true twin: if
// N(u) = N(v) with u, v not adjacent, and N[u] = N[w], then w is in
// N(u) = N(v) and v in N[w] = N[u], so v is adjacent to u, a contradiction.
// So with both kinds the classes still partition the nodes.
#ifndef DPQ_CORE_GRAPH_TWIN_CLASSES_H_
#define DPQ_CORE_GRAPH_TWIN_CLASSES_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"

namespace dpq::core::graph {

// Which twins share a class.
enum class Twins {
  kFalse,         // equal neighbour lists only
  kFalseAndTrue,  // also equal closed neighbourhoods
};

// The twin classes of a set of nodes. Two nodes of the set share a class iff
// their neighbour lists in the graph are equal (false twins) or, with
// Twins::kFalseAndTrue, their closed neighbourhoods are (true twins). A
// class is an independent set (false twins) or a clique (true twins,
// `clique(c)`), and if one member of class A is adjacent to one member of
// another class B, every member of A is adjacent to every member of B.
class TwinClasses {
 public:
  // Classes of `nodes` (distinct ids of g). Class ids are dense, numbered
  // by their first member in `nodes`. O(sum of degrees + k log k) for
  // k = nodes.size(): one hash per neighbour list (and one per closed
  // neighbourhood), exact comparison of the lists whose hashes are equal.
  static TwinClasses Find(const Graph& g, absl::Span<const NodeId> nodes,
                          Twins twins = Twins::kFalse);

  uint32_t size() const { return static_cast<uint32_t>(members_.size()); }
  // Class of nodes[i] (by position in the span given to Find).
  uint32_t class_of(uint32_t i) const { return class_of_[i]; }
  // Number of members of class c.
  uint32_t members(uint32_t c) const { return members_[c]; }
  // True if class c has two or more members that are adjacent (true twins,
  // a clique); false for false twins and for a class of one.
  bool clique(uint32_t c) const { return clique_[c]; }
  // A member of class c (the first in `nodes`), whose neighbour list
  // stands for the class's.
  NodeId representative(uint32_t c) const { return representative_[c]; }

 private:
  std::vector<uint32_t> class_of_;
  std::vector<uint32_t> members_;
  std::vector<bool> clique_;
  std::vector<NodeId> representative_;
};

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_TWIN_CLASSES_H_
