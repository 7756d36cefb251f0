// RFC 4180 CSV reading with type inference (docs/core.md "Data model").
#ifndef DPQ_CORE_TABLE_CSV_READER_H_
#define DPQ_CORE_TABLE_CSV_READER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::table {

// What happens to a column the schema does not type.
enum class UntypedColumns {
  // Inferred from the data (below). The type then depends on every cell of
  // the column, so ONE added row can re-type it and change what every
  // comparison means (one "x" turns "1.0" = "1.00" into two different
  // texts). Never on a path that releases under DP unless the owner asked
  // for it and the result is frozen (the registry does that).
  kInfer,
  // Read as text: a data-independent default (dpq-measure without
  // --schema).
  kString,
  // An error naming the untyped columns (the service without explicit
  // inference).
  kRefuse,
};

// The meaning of a cell under a fixed type depends on that cell alone
// (docs/privacy.md 2.2; docs/core.md "Cells, types and NULL"):
//  - empty cell, or a spelling listed in null_values: NULL, in every type;
//  - int64: an optionally signed decimal integer that fits int64, spaces
//    around it ignored, leading zeros allowed ("01907" is 1907). "NaN",
//    "nan" and "NAN" are NULL. Anything else is refused (the whole CSV is
//    an error naming line and column: the owner sees it at registration);
//  - double: a finite decimal number (absl::SimpleAtod syntax), spaces
//    ignored; "1.0" and "1.00" are the same number. NaN spellings are NULL;
//    "inf", overflowing values and other text are refused;
//  - string: the cell's bytes verbatim (no trimming); "NaN" is the text
//    "NaN". Compared byte-wise.
// NULL (and NaN, which is NULL) compares false with everything, so a pair
// with NULL on a compared column never violates a DC through it.
struct CsvOptions {
  // Explicit types; columns not listed follow `untyped`. Inference: int64 if
  // every non-empty cell is an integer, else double if every one is a finite
  // number, else string. A column whose cells are all NULL is a string column.
  //
  // For inference, a number whose integer part has a leading zero followed
  // by another digit ("01907", "-007", "00.5") is not a number: zip codes and
  // phone numbers keep their leading zeros as strings. A column declared
  // int64 or double accepts such cells ("01907" -> 1907). "nan", "inf" and
  // numbers that overflow a double are never numbers, but a cell
  // spelled "NaN", "nan" or "NAN" does not stop a column from being numeric:
  // there it is NULL (IEEE NaN, like NULL, compares false with everything,
  // so DC semantics are unchanged); in a string column it stays text. Naming a
  // column that is not in the header is an error.
  SchemaOverrides schema;
  // Types for columns `schema` leaves untyped, used only for columns the
  // header has (others are ignored): a replaced dataset's frozen types.
  SchemaOverrides fallback_types;
  // Columns without an explicit or fallback type.
  UntypedColumns untyped = UntypedColumns::kInfer;
  // Cell texts that also mean NULL besides the empty cell, compared verbatim
  // (e.g. {"NA", "?"}). Empty by default: only empty cells (and NaN in
  // numeric columns, see above) are NULL.
  std::vector<std::string> null_values;
  // Refuse inputs with more data rows than this (kResourceExhausted).
  size_t max_rows = 100'000'000;
  // Refuse a single field longer than this many bytes.
  size_t max_field_bytes = 1 << 20;
  // Threads that parse the text (0: one per hardware thread). The table
  // does not depend on it.
  int num_threads = 0;
};

// Parses CSV text: a header row is required; fields may be quoted with '"'
// (doubled quotes inside), quoted fields may contain commas, CR and LF; rows
// end with LF or CRLF; a final newline is optional. A UTF-8 byte order mark
// at the start is skipped. Every row must have as many fields as the header
// (an empty line is a row with one empty field). A quote inside an unquoted
// field, text after a closing quote and a CR not followed by LF outside
// quotes are errors.
//
// Header names must be non-empty and unique. A header-only input is a table
// with 0 rows; an empty input is an error.
//
// Cells are taken verbatim, without trimming: an empty cell (no characters,
// or a quoted "") is NULL, but a cell of spaces is a string. Only when a cell
// is read as a number are surrounding ASCII spaces ignored (" 42 " is 42).
//
// Errors are kInvalidArgument and name the physical 1-based line (where the
// record starts for a wrong field count, where the field starts otherwise),
// the column and, for a value that does not fit a declared type, the value.
// kResourceExhausted when there are more than `max_rows` data rows.
//
// The text is cut into chunks of whole records that are parsed on
// `num_threads` threads (docs/performance.md, "Loading and blocking"):
// one scan finds the chunks, one more infers the types of undeclared
// columns, one fills the typed columns and per-chunk dictionaries, which
// are then merged. Malformed text is read again sequentially so that the
// error names its first offending line. Memory is the typed columns plus
// the distinct strings (per chunk while reading). O(size of text).
absl::StatusOr<Table> ReadCsv(absl::string_view text,
                              const CsvOptions& options = {});

// Reads and parses a file. kNotFound (naming the path) if it cannot be
// opened; errors from ReadCsv are prefixed with the path.
absl::StatusOr<Table> ReadCsvFile(const std::string& path,
                                  const CsvOptions& options = {});

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_CSV_READER_H_
