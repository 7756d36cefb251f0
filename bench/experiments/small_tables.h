// The "small" figure: the accuracy of the I_MI and I_P methods on small
// sparse tables (1,000-3,000 rows, conflict graphs made of stars of
// degree 20-60, the commonest error pattern: one typo row per key group),
// with the coverage of the intervals next to the errors
// (docs/experiments.md "Small sparse tables").
//
// Tables: the shared Hospital clean and dirty files with their 15 FDs
// (constraints.dc), seeded samples of 1,000-3,000 rows of the Tax dirty
// file (8 FDs) and of Flights clean and dirty (6 DCs), and generated star
// tables (StarTableSpec).
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_SMALL_TABLES_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_SMALL_TABLES_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/experiments/measure_evaluation.h"
#include "bench/generators/cell_table.h"
#include "core/constraints/denial_constraint.h"

namespace dpq::bench::experiments {

// k key groups with sizes drawn uniformly from [min_size, max_size], each
// with exactly one typo row (its `value` differs from the group's), padded
// with singleton keys to `rows` rows: the conflict graph of the FD
// key -> value is k disjoint stars of degree size - 1. With
// `clean_region_size` > 0 every row also has a `region` column in groups
// of that size with a consistent `country` (FD region -> country, no
// conflict): the largest key group is then larger than any star.
struct StarTableSpec {
  size_t groups = 25;
  size_t min_size = 20, max_size = 60;
  size_t rows = 2000;
  size_t clean_region_size = 0;
  uint64_t seed = 1;
};

// The table and its DCs. kInvalidArgument if the groups do not fit in rows.
struct TableWithDcs {
  generators::CellTable cells;
  std::vector<core::constraints::DenialConstraint> dcs;
};
absl::StatusOr<TableWithDcs> GenerateStarTable(const StarTableSpec& spec);

struct SmallTablesOptions {
  std::string data_dir;  // shared/data
  size_t runs = 100;
  double epsilon = 1.0;
  double n_factor = 2.0;
  uint64_t seed = 1;
  std::ostream* progress = nullptr;
};

// One (table, measure, method) cell of the figure.
struct SmallTableRow {
  std::string table;
  uint64_t rows = 0, edges = 0, non_isolated = 0;
  uint32_t max_degree = 0;
  std::string method, measure;  // measure "MI" or "P"
  RunStats stats;
};

// Runs group_bound, gem and optimized for I_MI and I_P on every table.
absl::StatusOr<std::vector<SmallTableRow>> RunSmallTables(
    const SmallTablesOptions& options);

// CSV (one line per row) and the Markdown table of docs/experiments.md.
std::string SmallTablesCsv(const std::vector<SmallTableRow>& rows);
std::string SmallTablesMarkdown(const std::vector<SmallTableRow>& rows);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_SMALL_TABLES_H_
