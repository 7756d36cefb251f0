// Parsing of edge lists into a LabeledGraph (influential_nodes.h).
#ifndef DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_
#define DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/selection/nodes/influential_nodes.h"

namespace dpq::core::selection {

// Parses edge-list text: one edge per line, two fields separated by a
// comma, or (lines without a comma, as in SNAP's .txt files) by tabs or
// spaces. Fields are trimmed; a field in double quotes loses them. Blank
// lines and lines starting with '#' are skipped, and so is a first line
// "source,target" (any case; also SNAP's "id_1,id_2"). Undirected:
// self-loops and duplicates in either direction are dropped. Node ids are
// assigned in order of first appearance. kInvalidArgument naming the
// 1-based line for a line without exactly two non-empty fields, and for
// more than 2^32 - 1 nodes.
//
// The node set then comes from the edges: fine for experiments, NOT for an
// edge-DP release, where removing a degree-1 node's only edge would remove
// the node itself (an unbounded privacy loss). The service uses the
// overload below with the owner's declared universe.
absl::StatusOr<LabeledGraph> ParseEdgeList(absl::string_view text);

// The same with a declared node universe: node i is `labels[i]` (distinct,
// non-empty; isolated nodes included), and an edge naming a label outside
// it is kInvalidArgument naming the line and the label. The graph has
// exactly labels.size() nodes whatever the edges are, so under edge-DP the
// node set is public. kInvalidArgument for an empty or repeated label.
absl::StatusOr<LabeledGraph> ParseEdgeList(absl::string_view text,
                                           std::vector<std::string> labels);

// The labels "0", "1", ..., "n-1" (a node universe given by its size, as
// in SNAP edge lists with integer ids).
std::vector<std::string> CountedNodeLabels(uint64_t n);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_
