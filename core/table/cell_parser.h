// Parsing of numeric cells, shared by the CSV reader and Table::FromCells.
// Internal to core/table: other modules read typed columns instead.
#ifndef DPQ_CORE_TABLE_CELL_PARSER_H_
#define DPQ_CORE_TABLE_CELL_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::table::internal {

// `cell` without surrounding ASCII spaces (' ' only: a tab or newline is data).
absl::string_view StripSpaces(absl::string_view cell);

// Parses an optionally signed decimal integer that fits int64. Surrounding
// spaces are ignored and leading zeros are allowed ("01907" -> 1907): this is
// the rule for columns explicitly declared int64.
bool ParseInt64(absl::string_view cell, int64_t* out);

// ParseInt64 and ParseFiniteDouble, the same result for every input, with
// a fast path for the plain spellings of CSV files ("-123", "6.25": no
// spaces, at most 15 digits). The loaders parse every numeric cell, and
// the general parsers' checks cost more than the digits.
bool ParseInt64Fast(absl::string_view cell, int64_t* out);
bool ParseFiniteDoubleFast(absl::string_view cell, double* out);

// Parses a finite decimal number (absl::SimpleAtod syntax; "nan", "inf" and
// overflowing values are rejected). Surrounding spaces are ignored.
bool ParseFiniteDouble(absl::string_view cell, double* out);

// The inference rules: like ParseInt64/ParseFiniteDouble, except that a value
// whose integer part has a leading zero followed by another digit ("01907",
// "-007", "00.5") is not a number, so that zip codes and phone numbers keep
// their leading zeros as strings.
bool IsInferableInt64(absl::string_view cell);
bool IsInferableDouble(absl::string_view cell);

// "NaN" in a numeric column means a missing number. Reading it as NULL
// keeps DC semantics exactly: an IEEE NaN compares false with everything,
// like SQL NULL. (The tax benchmark's `rate` column has such cells.)
inline bool IsNanSpelling(absl::string_view value) {
  return value == "NaN" || value == "nan" || value == "NAN";
}

// True for an empty cell and for one spelled like CsvOptions::null_values
// (`raw` as the tokenizer returns it, quotes still doubled).
inline bool IsNullText(absl::string_view raw, bool has_escaped_quotes,
                       const std::vector<std::string>& null_values) {
  if (raw.empty()) return true;
  if (has_escaped_quotes) return false;
  for (const std::string& null_value : null_values) {
    if (raw == null_value) return true;
  }
  return false;
}

// A column of `type` sized for `num_rows` cells, none of them NULL yet.
Column MakeColumn(ColumnType type, size_t num_rows);

// Parses the non-NULL `value` into `row` of an int64 or double column (with
// the explicit-type rules above). False if it does not parse.
bool StoreNumber(absl::string_view value, size_t row, Column* column);

}  // namespace dpq::core::table::internal

#endif  // DPQ_CORE_TABLE_CELL_PARSER_H_
