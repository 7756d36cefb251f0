// Fuzz target: ReadCsv (core/table/csv_reader.h), the reader of every table
// an owner uploads. Byte 0 picks the options (bit 0: untyped columns read
// as text instead of inferred; bit 1: "NA" and "?" are NULL; bit 2: at most
// 3 rows; bit 3: fields of at most 8 bytes); the rest is the CSV text.
// Invariants: errors are kInvalidArgument or kResourceExhausted with a
// message; a table has one cell per row and column in every column; and
// written back as CSV (every text cell quoted) with its own types it reads
// back to the same cells.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "core/table/csv_reader.h"
#include "core/table/table.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_targets.h"

namespace dpq::fuzz {
namespace {

using core::table::ColumnType;
using core::table::CsvOptions;
using core::table::Table;

// Above this many cells the round trip is skipped: it would cost more
// than the parse it checks.
constexpr size_t kMaxRoundTripCells = 4096;

std::string Quoted(absl::string_view text) {
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

void CheckShape(const Table& table) {
  FUZZ_CHECK(table.num_columns() == table.schema().num_columns());
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const core::table::Column& column = table.column(c);
    FUZZ_CHECK(column.type == table.schema().column(c).type);
    FUZZ_CHECK(column.nulls.size() == table.num_rows());
    switch (column.type) {
      case ColumnType::kInt64:
        FUZZ_CHECK(column.int64s.size() == table.num_rows());
        break;
      case ColumnType::kDouble:
        FUZZ_CHECK(column.doubles.size() == table.num_rows());
        break;
      case ColumnType::kString:
        FUZZ_CHECK(column.string_ids.size() == table.num_rows());
        for (size_t r = 0; r < table.num_rows(); ++r) {
          if (!column.is_null(r)) {
            FUZZ_CHECK(column.string_ids[r] < table.dictionary().size());
          }
        }
        break;
    }
  }
}

// The table as CSV: header and text cells quoted, numbers as CellText,
// NULL as an empty cell.
std::string WriteCsv(const Table& table) {
  std::string csv;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    absl::StrAppend(&csv, c == 0 ? "" : ",",
                    Quoted(table.schema().column(c).name));
  }
  csv += "\n";
  // Every record ends with a newline: a one-column row that is NULL is an
  // empty line, which must not read as the optional final newline.
  for (size_t r = 0; r < table.num_rows(); ++r) {
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (c > 0) csv += ",";
      if (table.column(c).is_null(r)) continue;
      const std::string cell = table.CellText(c, r);
      csv += table.column(c).type == ColumnType::kString ? Quoted(cell) : cell;
    }
    csv += "\n";
  }
  return csv;
}

void CheckRoundTrip(const Table& table, const CsvOptions& options) {
  if (table.num_rows() * table.num_columns() > kMaxRoundTripCells) return;
  CsvOptions again = options;
  again.schema.columns = table.schema().columns();
  again.fallback_types.columns.clear();
  again.untyped = core::table::UntypedColumns::kRefuse;
  // Quoting lengthens a field; the limit is checked on the first read.
  again.max_field_bytes = CsvOptions{}.max_field_bytes;
  const std::string csv = WriteCsv(table);
  absl::StatusOr<Table> reread = core::table::ReadCsv(csv, again);
  FUZZ_CHECK_MSG(reread.ok(), absl::StrCat(reread.status().ToString(),
                                           "\nwritten as:\n", csv));
  FUZZ_CHECK(reread->num_rows() == table.num_rows());
  FUZZ_CHECK(reread->num_columns() == table.num_columns());
  for (size_t c = 0; c < table.num_columns(); ++c) {
    for (size_t r = 0; r < table.num_rows(); ++r) {
      FUZZ_CHECK(reread->column(c).is_null(r) == table.column(c).is_null(r));
      FUZZ_CHECK_MSG(
          reread->CellText(c, r) == table.CellText(c, r),
          absl::StrCat("row ", r, " column ", c, ": '", table.CellText(c, r),
                       "' became '", reread->CellText(c, r), "'"));
    }
  }
}

}  // namespace

int FuzzCsvReader(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const absl::string_view text(reinterpret_cast<const char*>(data) + 1,
                               size - 1);
  CsvOptions options;
  if (flags & 1) options.untyped = core::table::UntypedColumns::kString;
  if (flags & 2) options.null_values = {"NA", "?"};
  if (flags & 4) options.max_rows = 3;
  if (flags & 8) options.max_field_bytes = 8;
  absl::StatusOr<Table> table = core::table::ReadCsv(text, options);
  if (!table.ok()) {
    CheckError(table.status());
    FUZZ_CHECK_MSG(
        table.status().code() == absl::StatusCode::kInvalidArgument ||
            table.status().code() == absl::StatusCode::kResourceExhausted,
        table.status().ToString());
    return 0;
  }
  FUZZ_CHECK(table->num_rows() <= options.max_rows);
  CheckShape(*table);
  CheckRoundTrip(*table, options);
  return 0;
}

}  // namespace dpq::fuzz

DPQ_FUZZ_ENTRY(dpq::fuzz::FuzzCsvReader)
