#include "client/commands/upload.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "client/flag_values.h"
#include "client/format.h"
#include "client/terminal_text.h"
#include "client/utf8.h"
#include "core/table/schema.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::client {
namespace {

namespace v1 = ::dpq::v1;

absl::Status Usage(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// The wire enum of a core column type, by name ("int64" ->
// COLUMN_TYPE_INT64) through protobuf's generated parser, so the client
// keeps no switch of its own beside the server's (server/registry/
// column_types.h): a type added to core and the proto maps without an edit.
v1::ColumnType ToProtoType(core::table::ColumnType type) {
  v1::ColumnType out = v1::COLUMN_TYPE_UNSPECIFIED;
  v1::ColumnType_Parse(
      absl::StrCat("COLUMN_TYPE_",
                   absl::AsciiStrToUpper(core::table::ColumnTypeName(type))),
      &out);
  return out;
}

// A local text file whose contents go into a proto `string` field: it must
// be UTF-8 (see client/utf8.h).
absl::StatusOr<std::string> ReadTextFile(const std::string& path,
                                         const std::string& flag,
                                         size_t max_bytes = size_t{16} << 20) {
  ASSIGN_OR_RETURN(std::string text, ReadSmallFile(path, flag, max_bytes));
  RETURN_IF_ERROR(CheckUtf8File(flag, path, text));
  return text;
}

// The flags a graph (an edge list) has no use for.
constexpr const char* kTableOnlyFlags[] = {
    "--constraints",   "--public-max-rows", "--row-count-public",
    "--schema",        "--null-value",      "--cube-dimension",
    "--public-cuboid", "--infer-types",     "--exact-repair"};

}  // namespace

void UploadFlags::Define(CommandFlags& flags) {
  v1::DatasetManifest* m = header_.mutable_manifest();
  flags.Argument("ID", m->mutable_dataset_id());
  flags.Value("--data", &data_path_, FlagText::kLocal);
  flags.Value("--server-path", header_.mutable_server_path(), FlagText::kSent);
  flags.Value("--constraints", &constraints_path_, FlagText::kLocal);
  flags.Value("--schema", &schema_path_, FlagText::kLocal);
  flags.Value("--public-max-rows", &public_max_rows_, FlagText::kLocal);
  flags.Value("--description", m->mutable_description(), FlagText::kSent);
  flags.Switch("--row-count-public", &row_count_public_);
  flags.Repeated("--null-value", &null_values_, FlagText::kSent);
  flags.Value("--kind", &kind_, FlagText::kLocal);
  flags.Repeated("--cube-dimension", &cube_dimensions_, FlagText::kSent);
  flags.Repeated("--public-cuboid", &public_cuboids_, FlagText::kSent);
  flags.Switch("--infer-types", &infer_types_);
  flags.Switch("--exact-repair", &exact_repair_);
  flags.Value("--node-count", &node_count_, FlagText::kLocal);
  flags.Value("--nodes", &nodes_path_, FlagText::kLocal);
}

absl::Status UploadFlags::Validate(const CommandFlags& flags,
                                   const std::string& command_name) {
  v1::DatasetManifest* m = header_.mutable_manifest();
  if (flags.Given("--kind")) {
    ASSIGN_OR_RETURN(const v1::DatasetKind kind, ParseKindName(kind_));
    m->set_kind(kind);
  }
  const bool graph = m->kind() == v1::DATASET_KIND_GRAPH;
  for (const char* table_only : kTableOnlyFlags) {
    if (graph && flags.Given(table_only)) {
      return Usage(absl::StrCat(
          table_only, " applies to tables only, not to --kind graph."));
    }
  }
  for (const char* graph_only : {"--node-count", "--nodes"}) {
    if (!graph && flags.Given(graph_only)) {
      return Usage(absl::StrCat(graph_only,
                                " applies to --kind graph only (the node "
                                "universe of an edge list)."));
    }
  }
  if (graph) {
    if (flags.Given("--node-count") == flags.Given("--nodes")) {
      return Usage(
          "--kind graph needs the node universe: --node-count N (nodes 0 to "
          "N-1) or --nodes F (one node label per line, isolated nodes "
          "included), one of the two.");
    }
    if (flags.Given("--node-count")) {
      ASSIGN_OR_RETURN(const uint64_t count,
                       ParseUint64("--node-count", node_count_));
      if (count == 0) return Usage("--node-count must be at least 1.");
      m->set_node_count(count);
    }
    if (flags.Given("--nodes") && nodes_path_.empty()) {
      return Usage("--nodes must not be empty.");
    }
  }
  m->set_infer_column_types(infer_types_);
  m->set_exact_repair(exact_repair_);
  for (const std::string& text : cube_dimensions_) {
    ASSIGN_OR_RETURN(*m->add_cube_dimensions(), ParseCubeDimension(text));
  }
  for (const std::string& text : public_cuboids_) {
    ASSIGN_OR_RETURN(const std::vector<std::string> dims,
                     ParseNameList("--public-cuboid", text,
                                   /*allow_empty=*/true));
    v1::CuboidSpec* spec = m->add_public_cuboids();
    for (const std::string& dim : dims) spec->add_dimensions(dim);
  }
  // A graph (edge list) has no denial constraints and no row bound.
  if (!graph) {
    for (const char* required : {"--constraints", "--public-max-rows"}) {
      if (!flags.Given(required)) {
        return Usage(absl::StrCat("dpq ", command_name, ": ", required,
                                  " is required."));
      }
    }
  }
  const bool data = flags.Given("--data");
  const bool server_path = flags.Given("--server-path");
  if (data && server_path) {
    return Usage(
        "Give either --data (upload) or --server-path (the server "
        "reads the file), not both.");
  }
  if (!data && !server_path) {
    return Usage(absl::StrCat("dpq ", command_name,
                              ": --data is required (or --server-path)."));
  }
  if (data && data_path_.empty()) return Usage("--data must not be empty.");
  if (server_path && header_.server_path().empty()) {
    return Usage("--server-path must not be empty.");
  }
  if (flags.Given("--constraints") && constraints_path_.empty()) {
    return Usage("--constraints must not be empty.");
  }
  if (flags.Given("--public-max-rows")) {
    ASSIGN_OR_RETURN(const uint64_t max_rows,
                     ParseUint64("--public-max-rows", public_max_rows_));
    m->set_public_max_rows(max_rows);
  }
  m->set_row_count_public(row_count_public_);
  for (const std::string& v : null_values_) m->add_null_values(v);
  return absl::OkStatus();
}

absl::Status UploadFlags::ReadFiles(size_t chunk_bytes) {
  v1::DatasetManifest* m = header_.mutable_manifest();
  if (!nodes_path_.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     ReadTextFile(nodes_path_, "--nodes",
                                  /*max_bytes=*/size_t{64} << 20));
    // One label per line; a CR of CRLF and empty lines are dropped.
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      absl::ConsumeSuffix(&line, "\r");
      if (!line.empty()) m->add_node_labels(std::string(line));
    }
  }
  if (!constraints_path_.empty()) {
    ASSIGN_OR_RETURN(std::string constraints,
                     ReadTextFile(constraints_path_, "--constraints"));
    m->set_constraints(std::move(constraints));
  }
  if (!schema_path_.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     ReadTextFile(schema_path_, "--schema"));
    absl::StatusOr<core::table::SchemaOverrides> schema =
        core::table::ParseSchemaOverrides(text);
    if (!schema.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("--schema file '", schema_path_, "': "),
          schema.status());
    }
    for (const core::table::ColumnSpec& c : schema->columns) {
      v1::Column* col = m->add_column_types();
      col->set_name(c.name);
      col->set_type(ToProtoType(c.type));
    }
  }
  if (header_.server_path().empty()) {
    ASSIGN_OR_RETURN(FileChunker chunker,
                     FileChunker::Open(data_path_, "--data", chunk_bytes));
    csv_.emplace(std::move(chunker));
  }
  return absl::OkStatus();
}

std::string UploadText(
    const v1::DatasetInfo& info, const v1::DatasetStats& stats,
    const google::protobuf::RepeatedPtrField<std::string>& notes,
    bool replaced) {
  const std::string head = absl::StrCat(replaced ? "Replaced " : "Registered ",
                                        TerminalSafe(info.dataset_id()),
                                        " (version ", info.version(), "): ");
  std::string out;
  if (info.kind() == v1::DATASET_KIND_GRAPH) {
    out = absl::StrCat(head, "a graph with ", stats.nodes(),
                       " declared nodes and ", stats.edges(), " edges, ",
                       stats.csv_bytes(), " bytes.\n");
  } else if (!stats.graph_error().empty()) {
    out = absl::StrCat(head, stats.rows(), " rows, ", stats.csv_bytes(),
                       " bytes; the conflict graph failed: ",
                       TerminalSafe(stats.graph_error()), "\n");
  } else {
    out = absl::StrCat(head, stats.rows(), " rows, ", stats.csv_bytes(),
                       " bytes, ", stats.edges(),
                       " conflicting pairs; graph built in ",
                       FormatReal(stats.graph_build_seconds()), " s.\n");
    if (stats.release_cost() == "heavy") {
      absl::StrAppend(&out,
                      "Releases on it are heavy (more than 1,000,000 "
                      "conflicting pairs): their computations wait for one "
                      "of the server's max_heavy_releases slots.\n");
    }
  }
  for (const std::string& note : notes) {
    absl::StrAppend(&out, "Note: ", TerminalSafe(note), "\n");
  }
  return out;
}

}  // namespace dpq::client
