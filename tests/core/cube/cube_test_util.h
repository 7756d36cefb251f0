// Shared fixtures for the core/cube tests: the paper's Figure 1 fact table,
// dimension specs, and the consistency check of released cuboids.
#ifndef DPQ_TESTS_CORE_CUBE_CUBE_TEST_UTIL_H_
#define DPQ_TESTS_CORE_CUBE_CUBE_TEST_UTIL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"
#include "core/table/table.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube::testing {

// A table of string columns from rows of texts ("" = NULL).
inline table::Table StringTable(
    const std::vector<std::string>& columns,
    const std::vector<std::vector<std::string>>& rows) {
  std::vector<table::ColumnSpec> specs;
  for (const std::string& c : columns) {
    specs.push_back({c, table::ColumnType::kString});
  }
  std::vector<std::vector<std::optional<std::string>>> cells;
  for (const auto& row : rows) {
    cells.emplace_back(row.begin(), row.end());
  }
  return *table::Table::FromCells(*table::Schema::Create(specs), cells);
}

// A dimension spec without aggregate-initialisation warnings.
inline DimensionSpec Spec(std::string column,
                          std::vector<double> bin_edges = {},
                          std::vector<std::string> domain = {},
                          bool closed = false) {
  DimensionSpec s;
  s.column = std::move(column);
  s.bin_edges = std::move(bin_edges);
  s.domain = std::move(domain);
  s.closed = closed;
  return s;
}

// A nominal dimension whose domain is taken from the data (the owner's
// explicit choice).
inline DimensionSpec InferredSpec(std::string column) {
  DimensionSpec s = Spec(std::move(column));
  s.infer_domain = true;
  return s;
}

// Figure 1(a): the fact table T (Sex, Age, Salary).
inline table::Table Figure1Table() {
  return StringTable({"Sex", "Age", "Salary"}, {{"F", "21-30", "10-50k"},
                                                {"F", "21-30", "10-50k"},
                                                {"F", "31-40", "50-200k"},
                                                {"F", "41-50", "500k+"},
                                                {"M", "21-30", "10-50k"},
                                                {"M", "21-30", "50-200k"},
                                                {"M", "31-40", "50-200k"},
                                                {"M", "60+", "500k+"}});
}

// Example 2.1's domains, declared complete (no "other" cell), so that the
// sizes are the paper's: |Sex| = 2, |Age| = 7, |Salary| = 5.
inline std::vector<DimensionSpec> Example21Specs() {
  return {
      Spec("Sex", {}, {"M", "F"}, true),
      Spec("Age", {},
           {"0-10", "11-20", "21-30", "31-40", "41-50", "51-60", "60+"}, true),
      Spec("Salary", {}, {"0-10k", "10-50k", "50-200k", "200-500k", "500k+"},
           true)};
}

// Three dimensions D0, D1 (10 values each) and D2 (2 values).
inline CubeSchema TinySchemaForStrategy() {
  CubeSchema s;
  for (size_t n : {10, 10, 2}) {
    CubeDimension d;
    // StrCat, not "D" + std::to_string(...): GCC 12 at -O3 reports a false
    // -Wrestrict in the inlined operator+ (GCC bug 105329).
    d.column = absl::StrCat("D", s.dimensions.size());
    for (size_t v = 0; v < n; ++v) d.labels.push_back(std::to_string(v));
    s.dimensions.push_back(d);
  }
  return s;
}

// The cuboid `c` summed onto `dims` (names), compared with the exact one.
inline void ExpectConsistent(const table::Table& t, const CubeSchema& schema,
                             const Cuboid& c,
                             const std::vector<std::string>& dims) {
  ASSERT_OK_AND_ASSIGN(std::vector<size_t> cdims,
                       ResolveDimensions(schema, c.dimensions));
  ASSERT_OK_AND_ASSIGN(std::vector<size_t> target,
                       ResolveDimensions(schema, dims));
  DenseCuboid dense;
  dense.dims = cdims;
  for (size_t d : cdims) {
    dense.sizes.push_back(schema.dimensions[d].labels.size());
  }
  for (const CuboidCell& cell : c.cells) dense.counts.push_back(cell.count);
  ASSERT_OK_AND_ASSIGN(DenseCuboid exact,
                       ComputeDenseCuboid(t, schema, target, 1000000));
  const DenseCuboid agg = AggregateCuboid(dense, target);
  for (size_t i = 0; i < agg.counts.size(); ++i) {
    EXPECT_NEAR(agg.counts[i], exact.counts[i], 1e-9) << "cell " << i;
  }
}

}  // namespace dpq::core::cube::testing

#endif  // DPQ_TESTS_CORE_CUBE_CUBE_TEST_UTIL_H_
