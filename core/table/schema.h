// Column types and schemas of dpq tables (docs/core.md "Data model").
#ifndef DPQ_CORE_TABLE_SCHEMA_H_
#define DPQ_CORE_TABLE_SCHEMA_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::table {

// The three cell types. NULL (an empty CSV cell) is allowed in every type.
enum class ColumnType { kInt64, kDouble, kString };

// "int64", "double" or "string".
absl::string_view ColumnTypeName(ColumnType type);

// Parses "int64"/"int"/"integer", "double"/"float"/"real", "string"/"text"
// (case-insensitive). kInvalidArgument otherwise, naming the accepted words.
absl::StatusOr<ColumnType> ParseColumnType(absl::string_view text);

struct ColumnSpec {
  std::string name;
  ColumnType type = ColumnType::kString;
};

// An ordered list of uniquely named, typed columns.
class Schema {
 public:
  Schema() = default;

  // kInvalidArgument on an empty or duplicate column name.
  static absl::StatusOr<Schema> Create(std::vector<ColumnSpec> columns);

  size_t num_columns() const { return columns_.size(); }
  const ColumnSpec& column(size_t index) const { return columns_[index]; }
  const std::vector<ColumnSpec>& columns() const { return columns_; }

  // Index of the column called `name` (exact, case-sensitive match).
  std::optional<size_t> FindColumn(absl::string_view name) const;

 private:
  std::vector<ColumnSpec> columns_;
  absl::flat_hash_map<std::string, size_t> index_;
};

// Explicit types for some or all columns, e.g. from a dataset manifest or a
// `--schema` file. Columns not mentioned are inferred from the data.
struct SchemaOverrides {
  std::vector<ColumnSpec> columns;
};

// Parses a schema file: one `name: type` per line (`name type` also works),
// `#` starts a comment, blank lines are ignored. Errors name the line.
absl::StatusOr<SchemaOverrides> ParseSchemaOverrides(absl::string_view text);

}  // namespace dpq::core::table

#endif  // DPQ_CORE_TABLE_SCHEMA_H_
