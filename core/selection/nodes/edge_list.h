// Parsing of edge lists into a LabeledGraph (influential_nodes.h).
#ifndef DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_
#define DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_

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
absl::StatusOr<LabeledGraph> ParseEdgeList(absl::string_view text);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_NODES_EDGE_LIST_H_
