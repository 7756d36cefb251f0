// An immutable, column-oriented table of typed cells (docs/core.md "Data
// model").
//
// Rows are addressed by their 0-based row number, which is also the tuple
// identifier: removing a row never reorders the others, so every order
// derived from row numbers is stable in the sense of the papers.
//
// All string cells of a table share one dictionary whose ids are assigned in
// lexicographic (byte-wise) order of the strings, so equality AND order of
// string cells can be decided on their ids alone.
#ifndef DPQ_CORE_TABLE_TABLE_H_
#define DPQ_CORE_TABLE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"

namespace dpq::core::table {

// Sorted, deduplicated strings; an id is an index into it.
class StringDictionary {
 public:
  StringDictionary() = default;
  explicit StringDictionary(std::vector<std::string> sorted_unique)
      : strings_(std::move(sorted_unique)) {}

  size_t size() const { return strings_.size(); }
  absl::string_view at(uint32_t id) const { return strings_[id]; }
  // The id of `s` if it occurs in the table. O(log size()).
  std::optional<uint32_t> Find(absl::string_view s) const;

 private:
  std::vector<std::string> strings_;
};

// One typed column. Exactly one of the value vectors is filled (by type);
// `nulls[row]` is 1 for a NULL cell, whose stored value is unspecified.
struct Column {
  ColumnType type = ColumnType::kString;
  std::vector<int64_t> int64s;
  std::vector<double> doubles;
  std::vector<uint32_t> string_ids;
  std::vector<uint8_t> nulls;

  bool is_null(size_t row) const { return nulls[row] != 0; }
  bool is_numeric() const { return type != ColumnType::kString; }
  // Numeric value of an int64 or double cell.
  double numeric_at(size_t row) const {
    return type == ColumnType::kInt64 ? static_cast<double>(int64s[row])
                                      : doubles[row];
  }
};

class Table {
 public:
  Table() = default;
  Table(Schema schema, std::vector<Column> columns, size_t num_rows,
        std::shared_ptr<const StringDictionary> dictionary)
      : schema_(std::move(schema)),
        columns_(std::move(columns)),
        num_rows_(num_rows),
        dictionary_(std::move(dictionary)) {}

  // Builds a table from textual cells (std::nullopt or "" = NULL), parsing
  // each cell with the schema's type (the rules of a declared type in
  // csv_reader.h). kInvalidArgument naming the 0-based row and the column
  // for a row of the wrong length or a cell that does not parse. For tests
  // and generators; files go through ReadCsv (csv_reader.h).
  static absl::StatusOr<Table> FromCells(
      const Schema& schema,
      const std::vector<std::vector<std::optional<std::string>>>& rows);

  const Schema& schema() const { return schema_; }
  size_t num_rows() const { return num_rows_; }
  size_t num_columns() const { return columns_.size(); }
  const Column& column(size_t index) const { return columns_[index]; }
  const StringDictionary& dictionary() const { return *dictionary_; }

  // The cell as text (NULL -> ""), as it would be written back to CSV:
  // int64 exactly, double as the shortest text that parses back to the same
  // value ("0.1", "5" for 5.0), strings verbatim (not CSV-quoted).
  std::string CellText(size_t column, size_t row) const;

  // A new table without the row `row` (the others keep their order), sharing
  // this table's dictionary. Used by neighbouring-dataset tests;
  // O(rows * columns). If `row >= num_rows()` the result is a copy.
  Table WithoutRow(size_t row) const;

 private:
  Schema schema_;
  std::vector<Column> columns_;
  size_t num_rows_ = 0;
  std::shared_ptr<const StringDictionary> dictionary_ =
      std::make_shared<StringDictionary>();
};

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_TABLE_H_
