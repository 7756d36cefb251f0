#include "server/registry/table_builder.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/constraints/dc_parser.h"
#include "core/table/csv_reader.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "server/registry/column_types.h"
#include "server/registry/conflict_graph_slot.h"
#include "server/registry/cube_builder.h"

namespace dpq::server::registry::internal {
namespace {

// The public form of the constraints: each source line that yielded a DC.
std::vector<std::string> ConstraintLines(
    const std::string& text,
    const std::vector<core::constraints::DenialConstraint>& dcs) {
  absl::flat_hash_set<int> used;
  for (const auto& dc : dcs) used.insert(dc.line);
  std::vector<std::string> lines;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    if (number == 1) absl::ConsumePrefix(&line, "\xEF\xBB\xBF");
    if (used.contains(number)) {
      lines.emplace_back(absl::StripAsciiWhitespace(line));
    }
  }
  return lines;
}

// The CSV reader's options: the declared types (plus, for a replacement,
// the replaced version's frozen ones); untyped columns are inferred only
// if the owner asked (or a stored manifest predates frozen types).
absl::StatusOr<core::table::CsvOptions> CsvOptionsFor(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    const BuildContext& context) {
  core::table::CsvOptions csv;
  csv.max_rows = options.max_rows;
  for (const v1::Column& column : manifest.column_types()) {
    if (column.type() == v1::COLUMN_TYPE_UNSPECIFIED) continue;
    ASSIGN_OR_RETURN(core::table::ColumnType type,
                     FromProtoType(column.type(), column.name()));
    csv.schema.columns.push_back({column.name(), type});
  }
  if (context.previous != nullptr && !manifest.infer_column_types()) {
    for (const core::table::ColumnSpec& spec :
         context.previous->table.schema().columns()) {
      csv.fallback_types.columns.push_back(spec);
    }
  }
  const bool infer = manifest.infer_column_types() || context.stored;
  csv.untyped = infer ? core::table::UntypedColumns::kInfer
                      : core::table::UntypedColumns::kRefuse;
  csv.null_values.assign(manifest.null_values().begin(),
                         manifest.null_values().end());
  return csv;
}

// A CSV reader error as the owner reads it: prefixed with the manifest
// field at fault, with the server's limit or the way to infer types.
absl::Status ReadError(const absl::Status& s, const RegistryOptions& options) {
  if (s.code() == absl::StatusCode::kResourceExhausted) {
    return absl::ResourceExhaustedError(
        absl::StrCat("csv: ", s.message(), " (the server's max_rows is ",
                     options.max_rows, ")."));
  }
  if (absl::StartsWith(s.message(), "no type is declared")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "column_types: ", s.message(),
        " (set infer_column_types, `dpq admin register --infer-types`, to "
        "infer them once, now; the types are then frozen and public)."));
  }
  // An override naming a column the header lacks is the manifest's fault.
  const char* field = absl::StrContains(s.message(), "not in the CSV header")
                          ? "column_types: "
                          : "csv: ";
  return core::util::WithPrefix(field, s);
}

// Freezes every column with its type, in header order, into d->manifest,
// and reports the inferred ones: a note for the owner who asked, or
// *migrated for a stored manifest.
void FreezeColumnTypes(const v1::DatasetManifest& manifest,
                       const core::table::CsvOptions& csv, LoadedDataset* d,
                       bool* migrated) {
  absl::flat_hash_set<std::string> declared;
  for (const auto& spec : csv.schema.columns) declared.insert(spec.name);
  for (const auto& spec : csv.fallback_types.columns)
    declared.insert(spec.name);
  std::vector<std::string> inferred;
  for (const core::table::ColumnSpec& spec : d->table.schema().columns()) {
    if (!declared.contains(spec.name)) {
      inferred.push_back(
          absl::StrCat(spec.name, " ", core::table::ColumnTypeName(spec.type)));
    }
  }
  d->manifest.clear_column_types();
  AppendColumns(d->table.schema(), d->manifest.mutable_column_types());
  d->manifest.set_infer_column_types(false);
  if (inferred.empty()) return;
  if (manifest.infer_column_types()) {
    d->notes.push_back(absl::StrCat(
        "Column types inferred from the data, now frozen and public: ",
        absl::StrJoin(inferred, ", "), "."));
  } else if (migrated != nullptr) {
    *migrated = true;
  }
}

// Parses the rows and freezes their types into d->manifest.
absl::Status ReadRows(const RegistryOptions& options,
                      const v1::DatasetManifest& manifest,
                      absl::string_view csv_text, const BuildContext& context,
                      LoadedDataset* d, bool* migrated) {
  ASSIGN_OR_RETURN(const core::table::CsvOptions csv,
                   CsvOptionsFor(options, manifest, context));
  absl::StatusOr<core::table::Table> table =
      core::table::ReadCsv(csv_text, csv);
  if (!table.ok()) return ReadError(table.status(), options);
  d->table = *std::move(table);
  FreezeColumnTypes(manifest, csv, d, migrated);
  return absl::OkStatus();
}

}  // namespace

absl::Status BuildTable(const RegistryOptions& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view csv_text, const BuildContext& context,
                        LoadedDataset* d, bool* migrated) {
  RETURN_IF_ERROR(ReadRows(options, manifest, csv_text, context, d, migrated));
  const uint64_t rows = d->table.num_rows();
  if (manifest.public_max_rows() < rows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public_max_rows (", manifest.public_max_rows(),
        ") must be at least the number of rows in the CSV (", rows, ")."));
  }
  absl::StatusOr<std::vector<core::constraints::DenialConstraint>> dcs =
      core::constraints::ParseDenialConstraints(manifest.constraints(),
                                                d->table.schema());
  if (!dcs.ok()) {
    return core::util::WithPrefix("constraints: ", dcs.status());
  }
  d->dcs = *std::move(dcs);
  d->constraint_lines = ConstraintLines(manifest.constraints(), d->dcs);
  d->neighbouring = kTupleNeighbouring;
  RETURN_IF_ERROR(BuildCube(manifest, context, d, migrated));
  if (context.previous != nullptr) {
    RETURN_IF_ERROR(CheckSameNeighbourUnit(*context.previous, *d));
  }
  d->conflict_graph = std::make_shared<ConflictGraphSlot>();
  return absl::OkStatus();
}

}  // namespace dpq::server::registry::internal
