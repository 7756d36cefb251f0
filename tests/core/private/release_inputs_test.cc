#include "core/private/release_inputs.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/constraints/dc_parser.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/cover_bound.h"
#include "core/private/degree_bound.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using table::ColumnType;

// The graph, degree bounds and cover bound computed side by side equal
// the three functions called one after the other, and errors come first
// from the graph's options.
TEST(ReleaseInputsTest, SameAsTheThreeFunctionsInTurn) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<std::optional<std::string>>> rows;
  for (int i = 0; i < 1500; ++i) {
    rows.push_back({absl::StrCat(rng() % 40), absl::StrCat(rng() % 3),
                    absl::StrCat(rng() % 5), absl::StrCat(rng() % 100)});
  }
  ASSERT_OK_AND_ASSIGN(const table::Schema schema,
                       table::Schema::Create({{"zip", ColumnType::kString},
                                              {"city", ColumnType::kString},
                                              {"kids", ColumnType::kInt64},
                                              {"rate", ColumnType::kInt64}}));
  ASSERT_OK_AND_ASSIGN(const table::Table table,
                       table::Table::FromCells(schema, rows));
  ASSERT_OK_AND_ASSIGN(
      const std::vector<constraints::DenialConstraint> dcs,
      constraints::ParseDenialConstraints(
          "zip -> city\nzip, kids -> rate\nnot(t1.zip=t2.zip&t1.rate<t2.rate)",
          schema));
  graph::ConflictGraphOptions options;
  options.num_threads = 2;
  ASSERT_OK_AND_ASSIGN(const ReleaseInputs inputs,
                       ComputeReleaseInputs(table, dcs, options));
  ASSERT_OK_AND_ASSIGN(const graph::ConflictGraph g,
                       graph::BuildConflictGraph(table, dcs, options));
  EXPECT_EQ(inputs.graph.graph.Edges(), g.graph.Edges());
  EXPECT_GT(g.graph.num_edges(), 0u);
  ASSERT_OK_AND_ASSIGN(const std::vector<DcDegreeBound> bounds,
                       ComputeDegreeBounds(table, dcs));
  ASSERT_EQ(inputs.degree_bounds.size(), bounds.size());
  for (size_t i = 0; i < bounds.size(); ++i) {
    EXPECT_EQ(inputs.degree_bounds[i].keyed, bounds[i].keyed);
    EXPECT_EQ(inputs.degree_bounds[i].bound, bounds[i].bound);
  }
  ASSERT_OK_AND_ASSIGN(const uint64_t cover,
                       ComputeCoverBound(table, dcs, g.graph));
  EXPECT_EQ(inputs.cover_bound, cover);

  // Only what is wanted.
  ASSERT_OK_AND_ASSIGN(
      const ReleaseInputs graph_only,
      ComputeReleaseInputs(table, dcs, options,
                           {.degree_bounds = false, .cover_bound = false}));
  EXPECT_EQ(graph_only.graph.graph.Edges(), g.graph.Edges());
  EXPECT_TRUE(graph_only.degree_bounds.empty());
  EXPECT_FALSE(graph_only.cover_bound.has_value());
  ASSERT_OK_AND_ASSIGN(
      const ReleaseInputs cover_only,
      ComputeReleaseInputs(table, dcs, options, {.degree_bounds = false}));
  EXPECT_EQ(cover_only.cover_bound, cover);
  EXPECT_TRUE(cover_only.degree_bounds.empty());

  options.max_edges = 1;
  EXPECT_EQ(ComputeReleaseInputs(table, dcs, options).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace dpq::core::private_measures
