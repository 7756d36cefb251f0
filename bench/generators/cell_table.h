// A table as text cells with a fixed schema: the form the violation
// generators edit (bench/, paper "Inconsistency measures under DP",
// Section 6.1). Not part of dpq's core: benchmark and test tooling only.
#ifndef DPQ_TESTS_BENCH_GENERATORS_CELL_TABLE_H_
#define DPQ_TESTS_BENCH_GENERATORS_CELL_TABLE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::bench::generators {

// One cell: std::nullopt is NULL (an empty CSV cell).
using Cell = std::optional<std::string>;

struct CellTable {
  core::table::Schema schema;
  std::vector<std::vector<Cell>> rows;  // rows[r][c], each of schema width
};

// Text form of every cell of `table` (Table::CellText, NULL -> nullopt).
CellTable ToCellTable(const core::table::Table& table);

// Reads a CSV file with core's reader (types inferred as dpq would) and
// keeps its schema. Errors of ReadCsvFile.
absl::StatusOr<CellTable> ReadCellTable(const std::string& path);

// The typed table with `cells.schema` (no re-inference, so a generator's
// edits cannot change a column's type). Errors of Table::FromCells.
absl::StatusOr<core::table::Table> ToTable(const CellTable& cells);

// RFC 4180 CSV text: header, then rows; fields quoted when they contain a
// comma, quote, CR or LF; NULL is an empty field.
std::string ToCsv(const CellTable& cells);

// Writes ToCsv to `path`. kInternal naming the path if it cannot be written.
absl::Status WriteCsvFile(const CellTable& cells, const std::string& path);

// Writes `text` to `path`. kInternal naming the path on failure.
absl::Status WriteTextFile(const std::string& text, const std::string& path);

// Reads all of `path`. kNotFound naming the path.
absl::StatusOr<std::string> ReadTextFile(const std::string& path);

// The columns read by some DC (either side of any predicate, constants
// aside), ascending: the paper's "attributes that occur in at least one
// constraint", the only ones RNoise edits.
std::vector<size_t> ConstrainedColumns(
    absl::Span<const core::constraints::DenialConstraint> dcs);

// Number of cells whose text (or NULL-ness) differs between `a` and `b`,
// which must have the same shape.
size_t CountChangedCells(const CellTable& a, const CellTable& b);

// The first `rows` rows of a random subset of `cells` (seeded, order kept):
// the paper's "random subset of 10k rows". All rows if rows >= size.
CellTable SampleRows(const CellTable& cells, size_t rows, uint64_t seed);

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_CELL_TABLE_H_
