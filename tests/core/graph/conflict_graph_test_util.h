// The reference the conflict-graph tests compare the builder with, shared
// by conflict_graph_builder_test.cc and conflict_graph_shared_data_test.cc.
#ifndef DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_
#define DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/graph/graph.h"
#include "core/table/table.h"
#include "gtest/gtest.h"

namespace dpq::core::graph::testing {

// The definition, pair by pair: {i, j}, i < j, for every pair that some DC
// flags (constraints::Conflicts, either orientation). O(n^2 |dcs|).
inline std::vector<Edge> BruteForceEdges(
    const table::Table& table,
    const std::vector<constraints::DenialConstraint>& dcs) {
  std::vector<Edge> edges;
  const uint32_t n = static_cast<uint32_t>(table.num_rows());
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1; j < n; ++j) {
      for (const constraints::DenialConstraint& dc : dcs) {
        if (constraints::Conflicts(dc, table, i, j)) {
          edges.emplace_back(i, j);
          break;
        }
      }
    }
  }
  return edges;
}

// BuildConflictGraph with `num_threads`; a failure is a test failure and
// gives an empty graph.
inline ConflictGraph BuildOrDie(
    const table::Table& table,
    const std::vector<constraints::DenialConstraint>& dcs,
    int num_threads = 1) {
  ConflictGraphOptions options;
  options.num_threads = num_threads;
  absl::StatusOr<ConflictGraph> g = BuildConflictGraph(table, dcs, options);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : ConflictGraph{};
}

}  // namespace dpq::core::graph::testing

#endif  // DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_
