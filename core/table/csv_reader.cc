#include "core/table/csv_reader.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/table/cell_parser.h"
#include "core/table/csv_parallel_reader.h"
#include "core/table/csv_tokenizer.h"
#include "core/table/mapped_file.h"
#include "core/table/schema.h"
#include "core/table/string_interner.h"
#include "core/table/table.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::core::table {
namespace {

using internal::CsvField;
using internal::CsvTokenizer;

constexpr absl::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Smaller chunks are not worth a thread.
constexpr size_t kMinChunkBytes = size_t{1} << 20;

using internal::ColumnPlan;

// Reads the header row: unique, non-empty column names.
absl::StatusOr<std::vector<std::string>> ReadHeader(CsvTokenizer* tokenizer) {
  std::vector<CsvField> fields;
  ASSIGN_OR_RETURN(const bool found, tokenizer->NextRecord(&fields));
  if (!found) {
    return absl::InvalidArgumentError(
        "CSV input is empty: a header row is required");
  }
  const size_t line = tokenizer->record_line();
  std::vector<std::string> names;
  absl::flat_hash_map<std::string, size_t> first_position;
  std::string scratch;
  for (size_t i = 0; i < fields.size(); ++i) {
    const absl::string_view name = internal::Unescape(fields[i], &scratch);
    if (name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line, ": column ", i + 1,
                       " of the header has an empty name (the header row "
                       "must name every column)"));
    }
    const auto [it, inserted] = first_position.try_emplace(name, i);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", line, ": column name \"", absl::Utf8SafeCHexEscape(name),
          "\" occurs twice in the header, at columns ", it->second + 1, " and ",
          i + 1));
    }
    names.emplace_back(name);
  }
  return names;
}

absl::StatusOr<std::vector<ColumnPlan>> PlanColumns(
    const std::vector<std::string>& names, const SchemaOverrides& overrides,
    const SchemaOverrides& fallback, UntypedColumns untyped) {
  std::vector<ColumnPlan> plans(names.size());
  for (const ColumnSpec& spec : overrides.columns) {
    size_t index = 0;
    while (index < names.size() && names[index] != spec.name) ++index;
    if (index == names.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("The schema types column \"", spec.name,
                       "\", which is not in the CSV header"));
    }
    plans[index] = ColumnPlan{spec.type, /*declared=*/true};
  }
  for (const ColumnSpec& spec : fallback.columns) {
    for (size_t c = 0; c < names.size(); ++c) {
      if (names[c] == spec.name && !plans[c].declared) {
        plans[c] = ColumnPlan{spec.type, /*declared=*/true};
      }
    }
  }
  if (untyped == UntypedColumns::kString) {
    for (ColumnPlan& plan : plans) {
      if (!plan.declared) plan = ColumnPlan{ColumnType::kString, true};
    }
  }
  if (untyped == UntypedColumns::kRefuse) {
    std::vector<std::string> missing;
    for (size_t c = 0; c < names.size(); ++c) {
      if (!plans[c].declared) {
        missing.push_back(
            absl::StrCat("\"", absl::Utf8SafeCHexEscape(names[c]), "\""));
      }
    }
    if (!missing.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no type is declared for column", missing.size() > 1 ? "s " : " ",
          absl::StrJoin(missing, ", "),
          ": declare every column's type (int64, double or string), or ask "
          "explicitly for inference"));
    }
  }
  return plans;
}

absl::Status CheckFieldCount(size_t found, size_t expected, size_t line) {
  if (found == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ": expected ", expected,
                   " fields (as in the header), found ", found));
}

bool IsNullCell(const CsvField& field,
                const std::vector<std::string>& null_values) {
  return internal::IsNullText(field.raw, field.has_escaped_quotes, null_values);
}

using internal::IsNanSpelling;

// First pass over one cell: infers, or checks the declared type.
absl::Status ObserveCell(const CsvField& field, size_t index,
                         const CsvTokenizer& tokenizer,
                         const CsvOptions& options, ColumnPlan* plan) {
  if (IsNullCell(field, options.null_values)) return absl::OkStatus();
  // A cell with quotes in its value is never a number.
  const absl::string_view value =
      field.has_escaped_quotes ? absl::string_view("\"") : field.raw;
  // NaN narrows no type: in a column that stays numeric it is NULL, in a
  // string column (also one of NaNs only) it is the text "NaN".
  if (IsNanSpelling(value)) return absl::OkStatus();
  plan->seen_value = true;
  if (!plan->declared) {
    internal::InferType(value, plan);
    return absl::OkStatus();
  }
  if (plan->type == ColumnType::kString) return absl::OkStatus();
  int64_t ignored_int = 0;
  double ignored_double = 0;
  if (plan->type == ColumnType::kInt64
          ? internal::ParseInt64(value, &ignored_int)
          : internal::ParseFiniteDouble(value, &ignored_double)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "line ", field.line, ", ", tokenizer.ColumnLabel(index), ": ",
      internal::FieldForMessage(field), " is not ",
      plan->type == ColumnType::kInt64 ? "an " : "a ",
      ColumnTypeName(plan->type), " (the type declared in the schema)"));
}

// The first pass: validates every record and decides the column types.
// Returns the number of data rows.
absl::StatusOr<size_t> InferTypes(const CsvOptions& options,
                                  CsvTokenizer* tokenizer,
                                  std::vector<ColumnPlan>* plans) {
  std::vector<CsvField> fields;
  size_t rows = 0;
  while (true) {
    ASSIGN_OR_RETURN(const bool more, tokenizer->NextRecord(&fields));
    if (!more) break;
    if (++rows > options.max_rows) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The CSV input has more than max_rows = ", options.max_rows,
          " data rows"));
    }
    RETURN_IF_ERROR(CheckFieldCount(fields.size(), plans->size(),
                                    tokenizer->record_line()));
    for (size_t c = 0; c < plans->size(); ++c) {
      RETURN_IF_ERROR(
          ObserveCell(fields[c], c, *tokenizer, options, &(*plans)[c]));
    }
  }
  for (ColumnPlan& plan : *plans) {
    if (!plan.declared && !plan.seen_value) plan.type = ColumnType::kString;
  }
  return rows;
}

// Second pass over one cell of a validated record.
absl::Status StoreField(const CsvField& field, size_t row,
                        const CsvOptions& options,
                        internal::StringInterner* interner,
                        std::string* scratch, Column* column) {
  if (IsNullCell(field, options.null_values) ||
      (column->type != ColumnType::kString && !field.has_escaped_quotes &&
       IsNanSpelling(field.raw))) {
    column->nulls[row] = 1;
  } else if (column->type == ColumnType::kString) {
    column->string_ids[row] =
        field.has_escaped_quotes
            ? interner->InternCopy(internal::Unescape(field, scratch))
            : interner->InternView(field.raw);
  } else if (!internal::StoreNumber(field.raw, row, column)) {
    return absl::InternalError(
        absl::StrCat("line ", field.line,
                     ": a cell accepted by the first pass of the CSV "
                     "reader does not parse in the second"));
  }
  return absl::OkStatus();
}

// The second pass: fills the typed columns. `tokenizer` is past the header.
absl::StatusOr<Table> FillColumns(const CsvOptions& options, Schema schema,
                                  size_t num_rows, CsvTokenizer* tokenizer) {
  std::vector<Column> columns;
  for (const ColumnSpec& spec : schema.columns()) {
    columns.push_back(internal::MakeColumn(spec.type, num_rows));
  }
  internal::StringInterner interner;
  std::vector<CsvField> fields;
  std::string scratch;
  for (size_t row = 0; row < num_rows; ++row) {
    ASSIGN_OR_RETURN(const bool more, tokenizer->NextRecord(&fields));
    if (!more || fields.size() != columns.size()) {
      return absl::InternalError("The CSV input changed between two passes");
    }
    for (size_t c = 0; c < columns.size(); ++c) {
      RETURN_IF_ERROR(StoreField(fields[c], row, options, &interner, &scratch,
                                 &columns[c]));
    }
  }
  internal::StringInterner::Result strings = std::move(interner).Finish();
  for (Column& column : columns) {
    if (column.type != ColumnType::kString) continue;
    internal::RemapStringIds(strings.remap, column.nulls, &column.string_ids);
  }
  return Table(std::move(schema), std::move(columns), num_rows,
               std::move(strings.dictionary));
}

}  // namespace

namespace internal {

absl::StatusOr<Table> ReadCsvWithChunks(
    absl::string_view text, const CsvOptions& options, size_t min_chunk_bytes,
    const std::function<void(absl::string_view)>& release) {
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    text.remove_prefix(kUtf8Bom.size());
  }
  // Two passes over the text: the first validates it and decides the types,
  // the second fills columns of those types, so no cell is ever stored as
  // text unless it is a distinct string.
  CsvTokenizer tokenizer(text, options.max_field_bytes);
  ASSIGN_OR_RETURN(const std::vector<std::string> names,
                   ReadHeader(&tokenizer));
  tokenizer.set_column_names(&names);
  ASSIGN_OR_RETURN(std::vector<ColumnPlan> plans,
                   PlanColumns(names, options.schema, options.fallback_types,
                               options.untyped));
  internal::ParallelCsvInput input;
  input.text = text;
  input.data_begin = tokenizer.position();
  input.data_line = tokenizer.line();
  input.names = names;
  input.plans = plans;
  input.min_chunk_bytes = min_chunk_bytes;
  input.release = release;
  std::optional<Table> table;
  if (min_chunk_bytes > 0) table = internal::ReadCsvParallel(input, options);
  if (table.has_value()) return *std::move(table);
  // Not valid (or too long): the sequential passes below find the first
  // error in the text and name its line.
  ASSIGN_OR_RETURN(const size_t num_rows,
                   InferTypes(options, &tokenizer, &plans));

  std::vector<ColumnSpec> specs;
  for (size_t c = 0; c < names.size(); ++c) {
    specs.push_back(ColumnSpec{names[c], plans[c].type});
  }
  ASSIGN_OR_RETURN(Schema schema, Schema::Create(std::move(specs)));

  CsvTokenizer second_pass(text, options.max_field_bytes);
  std::vector<CsvField> header;
  RETURN_IF_ERROR(second_pass.NextRecord(&header).status());
  return FillColumns(options, std::move(schema), num_rows, &second_pass);
}

}  // namespace internal

absl::StatusOr<Table> ReadCsv(absl::string_view text,
                              const CsvOptions& options) {
  return internal::ReadCsvWithChunks(text, options, kMinChunkBytes);
}

absl::StatusOr<Table> ReadCsvFile(const std::string& path,
                                  const CsvOptions& options) {
  // Mapped, not copied: the two passes stream the file from the page cache
  // and the table keeps no view into it (strings are interned copies).
  ASSIGN_OR_RETURN(const MappedFile file, MappedFile::Open(path));
  // Parsed chunks' pages are dropped at once: a large file then costs
  // page cache, not resident memory of this process.
  absl::StatusOr<Table> table = internal::ReadCsvWithChunks(
      file.view(), options, kMinChunkBytes,
      [&file](absl::string_view part) { file.Release(part); });
  if (!table.ok()) {
    return util::WithPrefix(absl::StrCat(path, ": "), table.status());
  }
  return table;
}

}  // namespace dpq::core::table
