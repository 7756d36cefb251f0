// Fuzz target: a graph dataset's edge list (core/selection/nodes/
// edge_list.h). Byte 0 bit 0 picks the declared-universe reader with the
// nodes "0".."15" (what the service uses); otherwise nodes come from the
// edges. Invariants: an error is kInvalidArgument with a message; a graph
// has one distinct non-empty label per node (exactly 16 with the
// universe), an undirected simple adjacency (sorted, no self-loop, each
// edge seen from both ends), and at most one edge per input line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/selection/nodes/edge_list.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

using core::selection::LabeledGraph;

constexpr uint64_t kUniverse = 16;

void CheckGraph(const LabeledGraph& g, size_t lines) {
  const uint32_t n = g.graph.num_nodes();
  FUZZ_CHECK(g.labels.size() == n);
  absl::flat_hash_set<std::string> seen;
  for (const std::string& label : g.labels) {
    FUZZ_CHECK(!label.empty());
    FUZZ_CHECK_MSG(seen.insert(label).second, label);
  }
  FUZZ_CHECK(g.graph.num_edges() <= lines);
  uint64_t ends = 0;
  for (uint32_t v = 0; v < n; ++v) {
    const auto neighbors = g.graph.neighbors(v);
    ends += neighbors.size();
    for (size_t i = 0; i < neighbors.size(); ++i) {
      const uint32_t u = neighbors[i];
      FUZZ_CHECK(u < n && u != v);
      if (i > 0) FUZZ_CHECK(neighbors[i - 1] < u);
      // Symmetric: checked on small graphs, where it is cheap.
      if (n <= 256) {
        bool back = false;
        for (uint32_t w : g.graph.neighbors(u)) back = back || w == v;
        FUZZ_CHECK(back);
      }
    }
  }
  FUZZ_CHECK(ends == 2 * g.graph.num_edges());
}

}  // namespace

int FuzzEdgeList(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool universe = (data[0] & 1) != 0;
  const absl::string_view text(reinterpret_cast<const char*>(data) + 1,
                               size - 1);
  absl::StatusOr<LabeledGraph> graph =
      universe ? core::selection::ParseEdgeList(
                     text, core::selection::CountedNodeLabels(kUniverse))
               : core::selection::ParseEdgeList(text);
  if (!graph.ok()) {
    CheckError(graph.status());
    FUZZ_CHECK_MSG(graph.status().code() == absl::StatusCode::kInvalidArgument,
                   graph.status().ToString());
    return 0;
  }
  size_t lines = 1;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  CheckGraph(*graph, lines);
  if (universe) {
    FUZZ_CHECK(graph->graph.num_nodes() == kUniverse);
    for (uint64_t i = 0; i < kUniverse; ++i) {
      FUZZ_CHECK(graph->labels[i] == absl::StrCat(i));
    }
  }
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzEdgeList)
