#include "core/table/table.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/table/cell_parser.h"
#include "core/table/schema.h"
#include "core/table/string_interner.h"
#include "core/util/shortest_double.h"
#include "core/util/status_macros.h"

namespace dpq::core::table {
namespace {

// Stores one cell of FromCells; errors name the row and the column.
absl::Status StoreCell(const std::optional<std::string>& cell, size_t row,
                       const ColumnSpec& spec,
                       internal::StringInterner* interner, Column* column) {
  if (!cell.has_value() || cell->empty()) {
    column->nulls[row] = 1;
    return absl::OkStatus();
  }
  if (column->type == ColumnType::kString) {
    // `cell` outlives the interner, which lives only inside FromCells.
    column->string_ids[row] = interner->InternView(*cell);
    return absl::OkStatus();
  }
  if (!internal::StoreNumber(*cell, row, column)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "row ", row, " (0-based), column \"", spec.name, "\": \"", *cell,
        "\" is not ", column->type == ColumnType::kInt64 ? "an " : "a ",
        ColumnTypeName(column->type)));
  }
  return absl::OkStatus();
}

template <typename T>
void EraseAt(size_t index, std::vector<T>* values) {
  if (index < values->size()) values->erase(values->begin() + index);
}

}  // namespace

std::optional<uint32_t> StringDictionary::Find(absl::string_view s) const {
  auto it = std::lower_bound(
      strings_.begin(), strings_.end(), s,
      [](const std::string& a, absl::string_view b) { return a < b; });
  if (it == strings_.end() || *it != s) return std::nullopt;
  return static_cast<uint32_t>(it - strings_.begin());
}

absl::StatusOr<Table> Table::FromCells(
    const Schema& schema,
    const std::vector<std::vector<std::optional<std::string>>>& rows) {
  std::vector<Column> columns;
  columns.reserve(schema.num_columns());
  for (const ColumnSpec& spec : schema.columns()) {
    columns.push_back(internal::MakeColumn(spec.type, rows.size()));
  }
  internal::StringInterner interner;
  for (size_t row = 0; row < rows.size(); ++row) {
    if (rows[row].size() != schema.num_columns()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "row ", row, " (0-based): expected ", schema.num_columns(),
          " cells (one per schema column), found ", rows[row].size()));
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      RETURN_IF_ERROR(StoreCell(rows[row][c], row, schema.column(c), &interner,
                                &columns[c]));
    }
  }
  internal::StringInterner::Result strings = std::move(interner).Finish();
  for (Column& column : columns) {
    if (column.type != ColumnType::kString) continue;
    internal::RemapStringIds(strings.remap, column.nulls, &column.string_ids);
  }
  return Table(schema, std::move(columns), rows.size(),
               std::move(strings.dictionary));
}

std::string Table::CellText(size_t column, size_t row) const {
  const Column& c = columns_[column];
  if (c.is_null(row)) return "";
  switch (c.type) {
    case ColumnType::kInt64:
      return absl::StrCat(c.int64s[row]);
    case ColumnType::kDouble: {
      return util::ShortestDouble(c.doubles[row]);
    }
    case ColumnType::kString:
      return std::string(dictionary_->at(c.string_ids[row]));
  }
  return "";
}

Table Table::WithoutRow(size_t row) const {
  if (row >= num_rows_) return *this;
  std::vector<Column> columns = columns_;
  for (Column& column : columns) {
    EraseAt(row, &column.int64s);
    EraseAt(row, &column.doubles);
    EraseAt(row, &column.string_ids);
    EraseAt(row, &column.nulls);
  }
  return Table(schema_, std::move(columns), num_rows_ - 1, dictionary_);
}

}  // namespace dpq::core::table
