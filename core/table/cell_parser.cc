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

// Powers of ten that are exact doubles.
constexpr double kExactPowersOfTen[] = {1e0,  1e1,  1e2,  1e3, 1e4,  1e5,
                                        1e6,  1e7,  1e8,  1e9, 1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15};

// Numbers of at most this many digits always fit int64, and as a double
// mantissa (< 2^53) they are exact.
constexpr size_t kMaxFastDigits = 15;

// Reads the digits at the front of `*cell` into `*value`, removing them;
// how many there were (at most kMaxFastDigits + 1 are read).
inline size_t TakeDigits(absl::string_view* cell, uint64_t* value) {
  size_t n = 0;
  while (n < cell->size() && n <= kMaxFastDigits && IsDigit((*cell)[n])) {
    *value = *value * 10 + static_cast<uint64_t>((*cell)[n] - '0');
    ++n;
  }
  cell->remove_prefix(n);
  return n;
}

}  // namespace

bool ParseInt64Fast(absl::string_view cell, int64_t* out) {
  absl::string_view rest = cell;
  const bool negative = !rest.empty() && rest[0] == '-';
  if (negative) rest.remove_prefix(1);
  uint64_t magnitude = 0;
  const size_t digits = TakeDigits(&rest, &magnitude);
  if (digits == 0 || digits > kMaxFastDigits || !rest.empty()) {
    return ParseInt64(cell, out);
  }
  *out = negative ? -static_cast<int64_t>(magnitude)
                  : static_cast<int64_t>(magnitude);
  return true;
}

bool ParseFiniteDoubleFast(absl::string_view cell, double* out) {
  // -?d+(.d+)? with at most kMaxFastDigits digits: an exact mantissa
  // divided by an exact power of ten, which IEEE division rounds
  // correctly, as the general parser does.
  absl::string_view rest = cell;
  const bool negative = !rest.empty() && rest[0] == '-';
  if (negative) rest.remove_prefix(1);
  uint64_t mantissa = 0;
  const size_t int_digits = TakeDigits(&rest, &mantissa);
  size_t frac_digits = 0;
  if (!rest.empty() && rest[0] == '.') {
    rest.remove_prefix(1);
    frac_digits = TakeDigits(&rest, &mantissa);
    if (frac_digits == 0) return ParseFiniteDouble(cell, out);
  }
  if (int_digits == 0 || int_digits + frac_digits > kMaxFastDigits ||
      !rest.empty()) {
    return ParseFiniteDouble(cell, out);
  }
  const double value =
      static_cast<double>(mantissa) / kExactPowersOfTen[frac_digits];
  *out = negative ? -value : value;
  return true;
}

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
    return ParseInt64Fast(value, &column->int64s[row]);
  }
  return column->type == ColumnType::kDouble &&
         ParseFiniteDoubleFast(value, &column->doubles[row]);
}

}  // namespace dpq::core::table::internal
