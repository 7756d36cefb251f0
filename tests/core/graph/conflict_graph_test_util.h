// The reference the conflict-graph tests compare the builder with, shared
// by conflict_graph_builder_test.cc and conflict_graph_shared_data_test.cc,
// and the small tables, DCs and graphs the clique-family tests
// (fd_cliques_test.cc, order_chains_test.cc) and the cover bound's
// (tests/core/measures/clique_lp_bound_test.cc) build.
#ifndef DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_
#define DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/graph/fd_cliques.h"
#include "core/graph/graph.h"
#include "core/table/table.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

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

using Cells = std::vector<std::vector<std::optional<std::string>>>;

// A table of typed columns from text cells (nullopt: NULL); a failure is a
// test failure and gives an empty table.
inline table::Table TableOrDie(const std::vector<table::ColumnSpec>& specs,
                               const Cells& rows) {
  absl::StatusOr<table::Schema> schema = table::Schema::Create(specs);
  EXPECT_TRUE(schema.ok()) << schema.status();
  if (!schema.ok()) return table::Table();
  absl::StatusOr<table::Table> table = table::Table::FromCells(*schema, rows);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : table::Table();
}

// The same with every column text.
inline table::Table TextTableOrDie(const std::vector<std::string>& columns,
                                   const Cells& rows) {
  std::vector<table::ColumnSpec> specs;
  for (const std::string& c : columns) {
    specs.push_back({c, table::ColumnType::kString});
  }
  return TableOrDie(specs, rows);
}

// The DCs of `text` over t's schema; a failure is a test failure (none).
inline std::vector<constraints::DenialConstraint> ParseOrDie(
    const std::string& text, const table::Table& t) {
  absl::StatusOr<std::vector<constraints::DenialConstraint>> dcs =
      constraints::ParseDenialConstraints(text, t.schema());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  return dcs.ok() ? *std::move(dcs)
                  : std::vector<constraints::DenialConstraint>{};
}

// BuildOrDie's graph.
inline Graph ConflictGraphOrDie(
    const table::Table& table,
    const std::vector<constraints::DenialConstraint>& dcs) {
  return std::move(BuildOrDie(table, dcs).graph);
}

inline bool Adjacent(const Graph& g, NodeId u, NodeId v) {
  const auto n = g.neighbors(u);
  return std::binary_search(n.begin(), n.end(), v);
}

// Every pair of rows a family puts in one block and different parts is an
// edge of the conflict graph: the families only state true cliques.
inline void ExpectBlocksAreCliques(
    const table::Table& t,
    const std::vector<constraints::DenialConstraint>& dcs) {
  const Graph g = ConflictGraphOrDie(t, dcs);
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> families,
                       FdCliqueFamilies(t, dcs));
  for (const CliqueFamily& f : families) {
    for (NodeId u = 0; u < t.num_rows(); ++u) {
      for (NodeId v = u + 1; v < t.num_rows(); ++v) {
        if (f.block[u] != CliqueFamily::kNone && f.block[u] == f.block[v] &&
            f.part[u] != f.part[v]) {
          ASSERT_TRUE(Adjacent(g, u, v))
              << f.description << ": rows " << u << " and " << v;
        }
      }
    }
  }
}

}  // namespace dpq::core::graph::testing

#endif  // DPQ_TESTS_CORE_GRAPH_CONFLICT_GRAPH_TEST_UTIL_H_
