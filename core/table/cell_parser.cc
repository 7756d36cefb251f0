#include "core/table/cell_parser.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::table::internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsDecimalChar(char c) {
  return IsDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

// True if the unsigned part of `number` (after an optional sign) starts with
// '0' followed by another digit.
bool HasRedundantLeadingZero(absl::string_view number) {
  if (!number.empty() && (number[0] == '-' || number[0] == '+')) {
    number.remove_prefix(1);
  }
  return number.size() >= 2 && number[0] == '0' && IsDigit(number[1]);
}

}  // namespace

absl::string_view StripSpaces(absl::string_view cell) {
  while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
  while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
  return cell;
}

bool ParseInt64(absl::string_view cell, int64_t* out) {
  cell = StripSpaces(cell);
  bool negative = false;
  if (!cell.empty() && (cell[0] == '-' || cell[0] == '+')) {
    negative = cell[0] == '-';
    cell.remove_prefix(1);
  }
  if (cell.empty()) return false;
  // Accumulate in uint64 so that INT64_MIN, whose magnitude exceeds
  // INT64_MAX, parses without signed overflow.
  const uint64_t limit =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) +
      (negative ? 1 : 0);
  uint64_t magnitude = 0;
  for (char c : cell) {
    if (!IsDigit(c)) return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  *out = negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
  return true;
}

bool ParseFiniteDouble(absl::string_view cell, double* out) {
  cell = StripSpaces(cell);
  // SimpleAtod also accepts tabs around the number, hexadecimal floats and
  // "nan"/"inf"; none of those is a decimal number in a CSV cell.
  if (cell.empty() || !std::all_of(cell.begin(), cell.end(), IsDecimalChar)) {
    return false;
  }
  double value = 0;
  if (!absl::SimpleAtod(cell, &value) || !std::isfinite(value)) return false;
  *out = value;
  return true;
}

bool IsInferableInt64(absl::string_view cell) {
  int64_t ignored = 0;
  return !HasRedundantLeadingZero(StripSpaces(cell)) &&
         ParseInt64(cell, &ignored);
}

bool IsInferableDouble(absl::string_view cell) {
  double ignored = 0;
  return !HasRedundantLeadingZero(StripSpaces(cell)) &&
         ParseFiniteDouble(cell, &ignored);
}

Column MakeColumn(ColumnType type, size_t num_rows) {
  Column column;
  column.type = type;
  column.nulls.assign(num_rows, 0);
  switch (type) {
    case ColumnType::kInt64:
      column.int64s.assign(num_rows, 0);
      break;
    case ColumnType::kDouble:
      column.doubles.assign(num_rows, 0.0);
      break;
    case ColumnType::kString:
      column.string_ids.assign(num_rows, 0);
      break;
  }
  return column;
}

bool StoreNumber(absl::string_view value, size_t row, Column* column) {
  if (column->type == ColumnType::kInt64) {
    return ParseInt64(value, &column->int64s[row]);
  }
  return column->type == ColumnType::kDouble &&
         ParseFiniteDouble(value, &column->doubles[row]);
}

}  // namespace dpq::core::table::internal
