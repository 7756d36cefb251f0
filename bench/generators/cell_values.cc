#include "bench/generators/cell_values.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace dpq::bench::generators {

using core::constraints::CompareOp;
using core::table::ColumnType;

size_t UniformIndex(GeneratorRng& rng, size_t n) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

namespace {

std::optional<double> ParseNumber(const std::string& text) {
  double value = 0;
  if (!absl::SimpleAtod(text, &value) || std::isnan(value)) return std::nullopt;
  return value;
}

}  // namespace

bool CompareCells(ColumnType type, const Cell& a, CompareOp op, const Cell& b) {
  if (!a.has_value() || !b.has_value()) return false;
  if (type == ColumnType::kString) return ApplyCompareOp(*a, op, *b);
  if (type == ColumnType::kInt64) {
    int64_t x = 0, y = 0;
    if (absl::SimpleAtoi(*a, &x) && absl::SimpleAtoi(*b, &y)) {
      return ApplyCompareOp(x, op, y);
    }
  }
  const std::optional<double> x = ParseNumber(*a), y = ParseNumber(*b);
  if (!x.has_value() || !y.has_value()) return false;
  return ApplyCompareOp(*x, op, *y);
}

Cell ConstantCell(const core::constraints::Constant& constant) {
  switch (constant.type) {
    case ColumnType::kString:
      return constant.string_value;
    case ColumnType::kInt64:
      return absl::StrCat(constant.int64_value);
    case ColumnType::kDouble:
      return absl::StrCat(constant.double_value);
  }
  return std::nullopt;
}

std::vector<std::string> ActiveDomain(const CellTable& cells, size_t column) {
  std::vector<std::string> values;
  for (const auto& row : cells.rows) {
    if (row[column].has_value()) values.push_back(*row[column]);
  }
  const ColumnType type = cells.schema.column(column).type;
  std::sort(values.begin(), values.end(),
            [type](const std::string& a, const std::string& b) {
              return CompareCells(type, a, CompareOp::kLt, b) ||
                     (type != ColumnType::kString &&
                      !CompareCells(type, b, CompareOp::kLt, a) && a < b);
            });
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

namespace {

char RandomLetter(GeneratorRng& rng) {
  return static_cast<char>('a' + UniformIndex(rng, 26));
}

char OtherDigit(char digit, bool allow_zero, GeneratorRng& rng) {
  char out = digit;
  while (out == digit || (!allow_zero && out == '0')) {
    out = static_cast<char>('0' + UniformIndex(rng, 10));
  }
  return out;
}

std::string StringTypo(const std::string& value, GeneratorRng& rng) {
  std::string out = value;
  while (out == value) {
    out = value;
    const size_t kind = UniformIndex(rng, value.size() > 1 ? 3 : 2);
    const size_t pos = UniformIndex(rng, value.size() + (kind == 1 ? 1 : 0));
    if (kind == 0) {
      out[pos] = RandomLetter(rng);  // substitution
    } else if (kind == 1) {
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(pos),
                 RandomLetter(rng));  // insertion
    } else {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(pos));  // deletion
    }
  }
  return out;
}

// Replaces one digit; the first digit of a multi-digit integer part never
// becomes 0, so the text stays a canonical number of the same type.
std::string NumberTypo(const std::string& value, GeneratorRng& rng) {
  std::vector<size_t> digits;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] >= '0' && value[i] <= '9') digits.push_back(i);
  }
  if (digits.empty()) return "1";
  const size_t pos = digits[UniformIndex(rng, digits.size())];
  const bool leading = pos == digits.front() && pos + 1 < value.size() &&
                       value[pos + 1] >= '0' && value[pos + 1] <= '9';
  std::string out = value;
  out[pos] = OtherDigit(value[pos], !leading, rng);
  return out;
}

}  // namespace

std::string MakeTypo(ColumnType type, const Cell& value, GeneratorRng& rng) {
  if (!value.has_value() || value->empty()) {
    return type == ColumnType::kString
               ? std::string(1, RandomLetter(rng))
               : std::string(1, static_cast<char>('1' + UniformIndex(rng, 9)));
  }
  return type == ColumnType::kString ? StringTypo(*value, rng)
                                     : NumberTypo(*value, rng);
}

}  // namespace dpq::bench::generators
