#include "core/table/schema.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace dpq::core::table {

absl::string_view ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kInt64:
      return "int64";
    case ColumnType::kDouble:
      return "double";
    case ColumnType::kString:
      return "string";
  }
  return "unknown";
}

absl::StatusOr<ColumnType> ParseColumnType(absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (t == "int64" || t == "int" || t == "integer") return ColumnType::kInt64;
  if (t == "double" || t == "float" || t == "real") return ColumnType::kDouble;
  if (t == "string" || t == "text") return ColumnType::kString;
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown column type '", absl::StripAsciiWhitespace(text),
                   "'; expected int64, double or string."));
}

absl::StatusOr<Schema> Schema::Create(std::vector<ColumnSpec> columns) {
  Schema schema;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Column ", i + 1, " has an empty name."));
    }
    if (!schema.index_.emplace(columns[i].name, i).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Column name '", columns[i].name, "' occurs more than once."));
    }
  }
  schema.columns_ = std::move(columns);
  return schema;
}

std::optional<size_t> Schema::FindColumn(absl::string_view name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

absl::StatusOr<SchemaOverrides> ParseSchemaOverrides(absl::string_view text) {
  SchemaOverrides out;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    size_t split = line.find(':');
    if (split == absl::string_view::npos) split = line.find_last_of(" \t");
    if (split == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("Schema line ", line_number,
                       ": expected 'name: type', got '", line, "'."));
    }
    const absl::string_view name =
        absl::StripAsciiWhitespace(line.substr(0, split));
    auto type =
        ParseColumnType(absl::StripAsciiWhitespace(line.substr(split + 1)));
    if (!type.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Schema line ", line_number, ": ", type.status().message()));
    }
    for (const ColumnSpec& seen : out.columns) {
      if (seen.name == name) {
        return absl::InvalidArgumentError(
            absl::StrCat("Schema line ", line_number, ": column '", name,
                         "' is typed twice."));
      }
    }
    out.columns.push_back(ColumnSpec{std::string(name), *type});
  }
  return out;
}

}  // namespace dpq::core::table
