// RFC 4180 CSV reading with type inference (design.md section 3).
#ifndef DPQ_CORE_TABLE_CSV_READER_H_
#define DPQ_CORE_TABLE_CSV_READER_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::table {

struct CsvOptions {
  // Explicit types; columns not listed are inferred: int64 if every non-empty
  // cell is an integer, else double if every one is a finite number, else
  // string.
  SchemaOverrides schema;
  // Refuse inputs with more data rows than this (kResourceExhausted).
  size_t max_rows = 100'000'000;
  // Refuse a single field longer than this many bytes.
  size_t max_field_bytes = 1 << 20;
};

// Parses CSV text: a header row is required; fields may be quoted with '"'
// (doubled quotes inside), quoted fields may contain commas, CR and LF; rows
// end with LF or CRLF; a final newline is optional. An empty cell is NULL.
// Every row must have as many fields as the header. Errors are
// kInvalidArgument and name the 1-based line and the column.
absl::StatusOr<Table> ReadCsv(absl::string_view text,
                              const CsvOptions& options = {});

// Reads and parses a file. kNotFound if it cannot be opened.
absl::StatusOr<Table> ReadCsvFile(const std::string& path,
                                  const CsvOptions& options = {});

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_CSV_READER_H_
