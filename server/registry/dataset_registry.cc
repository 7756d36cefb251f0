#include "server/registry/dataset_registry.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "core/constraints/dc_parser.h"
#include "core/table/csv_reader.h"
#include "core/table/mapped_file.h"
#include "core/util/status_macros.h"
#include "google/protobuf/timestamp.pb.h"
#include "google/protobuf/util/json_util.h"

namespace dpq::server::registry {
namespace {

namespace fs = std::filesystem;

// Files of one dataset directory.
constexpr char kDataFile[] = "data.csv";
constexpr char kManifestFile[] = "manifest.json";
constexpr char kStateFile[] = "state.txt";
// Prefixes of work directories inside data_dir/datasets (never valid ids,
// which start with a letter or digit).
constexpr char kStagingPrefix[] = ".staging-";
constexpr char kOldPrefix[] = ".old-";
constexpr char kTrashPrefix[] = ".trash-";
// Edge lists being validated by Register/Replace (a file, not a directory).
constexpr char kUploadPrefix[] = ".upload-";

constexpr size_t kMaxDescriptionBytes = 4096;
constexpr size_t kMaxNullValues = 64;

std::string ErrnoText(int err) { return std::strerror(err); }

google::protobuf::Timestamp ToTimestampProto(absl::Time t) {
  google::protobuf::Timestamp ts;
  const int64_t seconds = absl::ToUnixSeconds(t);
  ts.set_seconds(seconds);
  ts.set_nanos(static_cast<int32_t>((t - absl::FromUnixSeconds(seconds)) /
                                    absl::Nanoseconds(1)));
  return ts;
}

v1::ColumnType ToProtoType(core::table::ColumnType type) {
  switch (type) {
    case core::table::ColumnType::kInt64:
      return v1::COLUMN_TYPE_INT64;
    case core::table::ColumnType::kDouble:
      return v1::COLUMN_TYPE_DOUBLE;
    case core::table::ColumnType::kString:
      return v1::COLUMN_TYPE_STRING;
  }
  return v1::COLUMN_TYPE_UNSPECIFIED;
}

// kInvalidArgument for COLUMN_TYPE_UNSPECIFIED (callers skip it: "infer").
absl::StatusOr<core::table::ColumnType> FromProtoType(v1::ColumnType type,
                                                      const std::string& name) {
  switch (type) {
    case v1::COLUMN_TYPE_INT64:
      return core::table::ColumnType::kInt64;
    case v1::COLUMN_TYPE_DOUBLE:
      return core::table::ColumnType::kDouble;
    case v1::COLUMN_TYPE_STRING:
      return core::table::ColumnType::kString;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "column_types: column '", name, "' has type ", static_cast<int>(type),
          ", which is not INT64, DOUBLE or STRING."));
  }
}

// The manifest's kind with UNSPECIFIED read as TABLE; kInvalidArgument
// for an unknown value.
absl::StatusOr<v1::DatasetKind> KindOf(const v1::DatasetManifest& manifest) {
  switch (manifest.kind()) {
    case v1::DATASET_KIND_UNSPECIFIED:
    case v1::DATASET_KIND_TABLE:
      return v1::DATASET_KIND_TABLE;
    case v1::DATASET_KIND_GRAPH:
      return v1::DATASET_KIND_GRAPH;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "kind must be DATASET_KIND_TABLE or DATASET_KIND_GRAPH, but is ",
          static_cast<int>(manifest.kind()), "."));
  }
}

// A graph's manifest holds only id, description and kind: the table
// fields would be silently meaningless, so they are refused.
absl::Status ValidateGraphManifest(const v1::DatasetManifest& manifest) {
  const char* field = nullptr;
  if (!absl::StripAsciiWhitespace(manifest.constraints()).empty()) {
    field = "constraints";
  } else if (manifest.column_types_size() > 0) {
    field = "column_types";
  } else if (manifest.null_values_size() > 0) {
    field = "null_values";
  } else if (manifest.cube_dimensions_size() > 0) {
    field = "cube_dimensions";
  } else if (manifest.public_cuboids_size() > 0) {
    field = "public_cuboids";
  }
  if (field != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must be empty for a graph dataset (kind GRAPH: an edge list "
        "with columns source,target); it applies to tables only."));
  }
  return absl::OkStatus();
}

// Checks the cube fields that do not need the data: at most two public
// cuboids, each with distinct dimension names.
absl::Status ValidateCubeManifest(const v1::DatasetManifest& manifest) {
  if (manifest.public_cuboids_size() > kMaxPublicCuboids) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public_cuboids may declare at most ", kMaxPublicCuboids,
        " exact cuboids, but declares ", manifest.public_cuboids_size(),
        ": with three or more the noise of ReleaseCuboids has no proven "
        "sensitivity bound (design.md section 7)."));
  }
  for (int i = 0; i < manifest.public_cuboids_size(); ++i) {
    absl::flat_hash_set<std::string> seen;
    for (const std::string& dim : manifest.public_cuboids(i).dimensions()) {
      if (!seen.insert(dim).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("public_cuboids[", i, "] names dimension '", dim,
                         "' twice."));
      }
    }
  }
  return absl::OkStatus();
}

// Checks everything in the manifest that does not need the data.
absl::Status ValidateManifest(const v1::DatasetManifest& manifest) {
  RETURN_IF_ERROR(ValidateId(manifest.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(const v1::DatasetKind kind, KindOf(manifest));
  if (manifest.description().size() > kMaxDescriptionBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("description must be at most ", kMaxDescriptionBytes,
                     " bytes, but has ", manifest.description().size(), "."));
  }
  if (kind == v1::DATASET_KIND_GRAPH) return ValidateGraphManifest(manifest);
  RETURN_IF_ERROR(ValidateCubeManifest(manifest));
  if (manifest.public_max_rows() < 1) {
    return absl::InvalidArgumentError(
        "public_max_rows must be >= 1 (a public upper bound on the row "
        "count), but is 0.");
  }
  if (manifest.public_max_rows() > core::graph::kMaxConflictGraphRows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public_max_rows must be at most ", core::graph::kMaxConflictGraphRows,
        ", but is ", manifest.public_max_rows(), "."));
  }
  if (absl::StripAsciiWhitespace(manifest.constraints()).empty()) {
    return absl::InvalidArgumentError(
        "constraints is empty: give at least one denial constraint (one per "
        "line).");
  }
  absl::flat_hash_set<std::string> typed;
  for (const v1::Column& column : manifest.column_types()) {
    if (column.name().empty()) {
      return absl::InvalidArgumentError(
          "column_types: a column has an empty name.");
    }
    if (!typed.insert(column.name()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "column_types: column '", column.name(), "' is listed twice."));
    }
    if (column.type() != v1::COLUMN_TYPE_UNSPECIFIED) {
      RETURN_IF_ERROR(FromProtoType(column.type(), column.name()).status());
    }
  }
  if (static_cast<size_t>(manifest.null_values_size()) > kMaxNullValues) {
    return absl::InvalidArgumentError(
        absl::StrCat("null_values may hold at most ", kMaxNullValues,
                     " spellings, but has ", manifest.null_values_size(), "."));
  }
  return absl::OkStatus();
}

absl::Status CheckCsvSize(uint64_t bytes, uint64_t limit) {
  if (bytes > limit) {
    return absl::ResourceExhaustedError(
        absl::StrCat("The CSV has ", bytes,
                     " bytes, above the server's limit "
                     "of ",
                     limit, " bytes (max_csv_bytes)."));
  }
  return absl::OkStatus();
}

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

// The cube schema (declared or inferred dimensions) and the exact counts
// of the public cuboids. kInvalidArgument naming the field.
absl::Status BuildCube(const v1::DatasetManifest& manifest, LoadedDataset* d) {
  // No declared dimensions: no cube. Inferring dimensions from every
  // low-cardinality column would publish their value sets (hospital
  // names, cities) without the owner asking for it.
  if (manifest.cube_dimensions().empty()) {
    if (manifest.public_cuboids_size() > 0) {
      return absl::InvalidArgumentError(
          "public_cuboids needs cube_dimensions: declare the dimensions "
          "the exact cuboids are over.");
    }
    return absl::OkStatus();
  }
  std::vector<core::cube::DimensionSpec> specs;
  for (const v1::CubeDimension& dim : manifest.cube_dimensions()) {
    core::cube::DimensionSpec spec;
    spec.column = dim.column();
    spec.bin_edges.assign(dim.bin_edges().begin(), dim.bin_edges().end());
    spec.domain.assign(dim.domain().begin(), dim.domain().end());
    specs.push_back(std::move(spec));
  }
  absl::StatusOr<core::cube::CubeSchema> schema =
      core::cube::BuildCubeSchema(d->table, specs);
  if (!schema.ok()) {
    return absl::Status(schema.status().code(),
                        absl::StrCat("cube_dimensions: ",
                                     schema.status().message()));
  }
  d->cube_schema = *std::move(schema);
  size_t cells = 0;
  for (int i = 0; i < manifest.public_cuboids_size(); ++i) {
    const auto& dims = manifest.public_cuboids(i).dimensions();
    absl::StatusOr<core::cube::Cuboid> exact = core::cube::ComputeExactCuboid(
        d->table, d->cube_schema, {dims.begin(), dims.end()});
    if (!exact.ok()) {
      return absl::Status(
          exact.status().code(),
          absl::StrCat("public_cuboids[", i, "]: ", exact.status().message(),
                       " (the cube's dimensions are the manifest's "
                       "cube_dimensions, or the inferred ones)"));
    }
    cells += exact->cells.size();
    if (cells > kMaxPublicCuboidCells) {
      return absl::InvalidArgumentError(absl::StrCat(
          "public_cuboids: the exact cuboids have more than ",
          kMaxPublicCuboidCells,
          " cells together; declare coarser ones (fewer dimensions or "
          "bins)."));
    }
    d->public_cuboids.push_back(*std::move(exact));
  }
  return absl::OkStatus();
}

// Parses and validates a table version, its cube schema and its public
// exact cuboids (no I/O, no locks). The conflict graph comes later, from
// the background workers.
absl::Status BuildTable(const DatasetRegistry::Options& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view csv_text, LoadedDataset* d) {
  core::table::CsvOptions csv;
  csv.max_rows = options.max_rows;
  for (const v1::Column& column : manifest.column_types()) {
    if (column.type() == v1::COLUMN_TYPE_UNSPECIFIED) continue;
    ASSIGN_OR_RETURN(core::table::ColumnType type,
                     FromProtoType(column.type(), column.name()));
    csv.schema.columns.push_back({column.name(), type});
  }
  csv.null_values.assign(manifest.null_values().begin(),
                         manifest.null_values().end());
  absl::StatusOr<core::table::Table> table =
      core::table::ReadCsv(csv_text, csv);
  if (!table.ok()) {
    const absl::Status& s = table.status();
    if (s.code() == absl::StatusCode::kResourceExhausted) {
      return absl::ResourceExhaustedError(
          absl::StrCat("csv: ", s.message(), " (the server's max_rows is ",
                       options.max_rows, ")."));
    }
    // An override naming a column the header lacks is the manifest's fault.
    const char* field = absl::StrContains(s.message(), "not in the CSV header")
                            ? "column_types: "
                            : "csv: ";
    return absl::Status(s.code(), absl::StrCat(field, s.message()));
  }
  d->table = *std::move(table);

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
    return absl::Status(dcs.status().code(),
                        absl::StrCat("constraints: ", dcs.status().message()));
  }
  d->dcs = *std::move(dcs);
  d->constraint_lines = ConstraintLines(manifest.constraints(), d->dcs);
  RETURN_IF_ERROR(BuildCube(manifest, d));
  d->conflict_graph = std::make_shared<ConflictGraphSlot>();
  return absl::OkStatus();
}

// Reads a graph version from its edge list at `csv_path` (no locks).
absl::Status BuildGraph(const DatasetRegistry::Options& options,
                        const std::string& csv_path, LoadedDataset* d) {
  absl::StatusOr<core::selection::LabeledGraph> graph =
      core::selection::ReadEdgeListCsv(csv_path);
  if (!graph.ok()) {
    return absl::Status(graph.status().code(),
                        absl::StrCat("csv (edge list source,target): ",
                                     graph.status().message()));
  }
  const uint64_t nodes = graph->graph.num_nodes();
  const uint64_t edges = graph->graph.num_edges();
  if (edges == 0) {
    return absl::InvalidArgumentError(
        "csv (edge list source,target): the graph has no edges.");
  }
  if (nodes > options.max_graph_nodes || edges > options.max_graph_edges) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "csv (edge list): the graph has ", nodes, " nodes and ", edges,
        " edges; the server's limits are ", options.max_graph_nodes,
        " nodes and ", options.max_graph_edges, " edges."));
  }
  d->edge_graph = *std::move(graph);
  return absl::OkStatus();
}

// Parses and validates one dataset version. Tables are parsed from
// `csv_text`; graphs from the same bytes stored at `csv_path` (the edge
// list reader takes a file).
absl::StatusOr<std::shared_ptr<LoadedDataset>> BuildDataset(
    const DatasetRegistry::Options& options,
    const v1::DatasetManifest& manifest, absl::string_view csv_text,
    const std::string& csv_path) {
  RETURN_IF_ERROR(ValidateManifest(manifest));
  RETURN_IF_ERROR(CheckCsvSize(csv_text.size(), options.max_csv_bytes));
  auto d = std::make_shared<LoadedDataset>();
  d->manifest = manifest;
  ASSIGN_OR_RETURN(d->kind, KindOf(manifest));
  d->manifest.set_kind(d->kind);
  d->csv_bytes = csv_text.size();
  if (d->is_graph()) {
    RETURN_IF_ERROR(BuildGraph(options, csv_path, d.get()));
  } else {
    RETURN_IF_ERROR(BuildTable(options, manifest, csv_text, d.get()));
  }
  return d;
}

// ---- Files ----------------------------------------------------------------

absl::Status FsyncPath(const fs::path& path, bool directory) {
  const int fd =
      ::open(path.c_str(),
             (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat(
        "Cannot open '", path.string(), "' to sync it: ", ErrnoText(errno)));
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) {
    return absl::InternalError(absl::StrCat("fsync of '", path.string(),
                                            "' failed: ", ErrnoText(err)));
  }
  return absl::OkStatus();
}

// Creates `path` with `content` and fsyncs it (the caller syncs the
// directory). Mode 0600: the rows are private.
absl::Status WriteFileSynced(const fs::path& path, absl::string_view content) {
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", path.string(),
                                            "': ", ErrnoText(errno)));
  }
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(
          absl::StrCat("Cannot write '", path.string(), "': ", ErrnoText(err)));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return absl::InternalError(absl::StrCat("fsync of '", path.string(),
                                            "' failed: ", ErrnoText(err)));
  }
  if (::close(fd) != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot close '", path.string(), "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadWholeFile(const fs::path& path,
                                          uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string message =
        absl::StrCat("Cannot open '", path.string(), "': ", ErrnoText(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat("'", path.string(), "' is not a regular file."));
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    return absl::ResourceExhaustedError(
        absl::StrCat("'", path.string(), "' has ", st.st_size,
                     " bytes, above the server's limit of ", max_bytes,
                     " bytes (max_csv_bytes)."));
  }
  std::string text;
  text.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (true) {
    if (done == text.size()) {
      // The file may have grown since fstat: read on, within the limit.
      if (text.size() >= max_bytes + 1) break;
      text.resize(std::min<uint64_t>(text.size() + 65536, max_bytes + 1));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(
          absl::StrCat("Cannot read '", path.string(), "': ", ErrnoText(err)));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(done);
  if (text.size() > max_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("'", path.string(), "' has more than ", max_bytes,
                     " bytes, the server's limit (max_csv_bytes)."));
  }
  return text;
}

absl::Status RenamePath(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("Cannot rename '", from.string(),
                                            "' to '", to.string(),
                                            "': ", ErrnoText(errno)));
  }
  return absl::OkStatus();
}

absl::Status RemoveTree(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot remove '", path.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

// state.txt: "version <n>\nregistered_at <RFC 3339>\n".
std::string FormatState(uint64_t version, absl::Time registered_at) {
  return absl::StrCat(
      "version ", version, "\nregistered_at ",
      absl::FormatTime(absl::RFC3339_full, registered_at, absl::UTCTimeZone()),
      "\n");
}

absl::Status ParseState(absl::string_view text, const fs::path& path,
                        uint64_t* version, absl::Time* registered_at) {
  bool have_version = false;
  bool have_time = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(' ', 1));
    if (kv.first == "version") {
      have_version = absl::SimpleAtoi(kv.second, version) && *version >= 1;
    } else if (kv.first == "registered_at") {
      std::string error;
      have_time =
          absl::ParseTime(absl::RFC3339_full, kv.second, registered_at, &error);
    }
  }
  if (!have_version || !have_time) {
    return absl::DataLossError(
        absl::StrCat("'", path.string(),
                     "' must hold 'version <n>' and 'registered_at "
                     "<RFC 3339 time>'."));
  }
  return absl::OkStatus();
}

// Writes a complete dataset directory at `dir` (which must not exist), every
// file and the directory itself synced.
absl::Status WriteDatasetDir(const fs::path& dir, const LoadedDataset& d,
                             absl::string_view csv_text) {
  if (::mkdir(dir.c_str(), 0700) != 0) {
    return absl::InternalError(
        absl::StrCat("Cannot create '", dir.string(), "': ", ErrnoText(errno)));
  }
  std::string manifest_json;
  google::protobuf::util::JsonPrintOptions json_options;
  json_options.add_whitespace = true;
  json_options.preserve_proto_field_names = true;
  const auto json_status = google::protobuf::util::MessageToJsonString(
      d.manifest, &manifest_json, json_options);
  if (!json_status.ok()) {
    return absl::InternalError(
        absl::StrCat("Cannot write the manifest as "
                     "JSON: ",
                     json_status.ToString()));
  }
  RETURN_IF_ERROR(WriteFileSynced(dir / kDataFile, csv_text));
  RETURN_IF_ERROR(WriteFileSynced(dir / kManifestFile, manifest_json));
  RETURN_IF_ERROR(WriteFileSynced(dir / kStateFile,
                                  FormatState(d.version, d.registered_at)));
  return FsyncPath(dir, /*directory=*/true);
}

// Finishes or rolls back work directories left by a crash (see Replace and
// Delete): a staging directory was never published; an old directory is the
// current version if the new one never got its name.
absl::Status RecoverWorkDirs(const fs::path& root) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot list '", root.string(), "': ", ec.message()));
  }
  bool changed = false;
  for (const std::string& name : names) {
    absl::string_view rest = name;
    if (absl::ConsumePrefix(&rest, kOldPrefix)) {
      const fs::path current = root / std::string(rest);
      if (fs::exists(current, ec)) {
        RETURN_IF_ERROR(RemoveTree(root / name));
      } else {
        RETURN_IF_ERROR(RenamePath(root / name, current));
      }
      changed = true;
    } else if (absl::StartsWith(name, kStagingPrefix) ||
               absl::StartsWith(name, kTrashPrefix) ||
               absl::StartsWith(name, kUploadPrefix)) {
      RETURN_IF_ERROR(RemoveTree(root / name));
      changed = true;
    }
  }
  if (changed) RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  return absl::OkStatus();
}

}  // namespace

// ---- LoadedDataset ----------------------------------------------------------

absl::Status LoadedDataset::CheckAnswers(const char* rpc) const {
  const bool answers = is_graph()
                           ? std::string(rpc) == kSelectInfluentialNodes
                           : std::string(rpc) != kSelectInfluentialNodes;
  if (answers && !is_graph() && std::string(rpc) == kReleaseCuboids &&
      cube_schema.dimensions.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset '", manifest.dataset_id(),
        "' has no data cube: its owner declared no cube_dimensions (the "
        "cube's dimensions and their labels are public, so they are never "
        "inferred without the owner's consent)."));
  }
  if (answers) return absl::OkStatus();
  if (is_graph()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset '", manifest.dataset_id(), "' is a graph; it answers ",
        kSelectInfluentialNodes, " only, not ", rpc, "."));
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "Dataset '", manifest.dataset_id(), "' is a table; ", rpc,
      " needs a graph dataset (kind GRAPH). Tables answer ",
      kMeasureInconsistency, ", ", kQualityReport, ", ", kReleaseCuboids,
      " and ", kTrainDecisionTree, " (", kReleaseCuboids,
      " if it declares cube dimensions)."));
}

absl::StatusOr<const ConflictGraphData*> LoadedDataset::WaitForConflictGraph(
    absl::Time deadline, const std::function<bool()>& cancelled) const {
  if (conflict_graph == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset '", manifest.dataset_id(), "' has no conflict graph."));
  }
  return conflict_graph->Wait(deadline, cancelled);
}

v1::Cuboid CuboidToProto(const core::cube::Cuboid& cuboid) {
  v1::Cuboid proto;
  for (const std::string& dim : cuboid.dimensions) proto.add_dimensions(dim);
  for (const core::cube::CuboidCell& cell : cuboid.cells) {
    v1::CuboidCell* out = proto.add_cells();
    for (const std::string& value : cell.values) out->add_values(value);
    out->set_count(cell.count);
  }
  return proto;
}

v1::DatasetInfo LoadedDataset::PublicInfo() const {
  v1::DatasetInfo info;
  info.set_dataset_id(manifest.dataset_id());
  info.set_description(manifest.description());
  info.set_kind(kind);
  info.set_neighbouring(neighbouring());
  info.set_version(version);
  *info.mutable_registered_at() = ToTimestampProto(registered_at);
  if (is_graph()) {
    info.add_supported_releases(kSelectInfluentialNodes);
    return info;
  }
  for (const core::table::ColumnSpec& spec : table.schema().columns()) {
    v1::Column* column = info.add_columns();
    column->set_name(spec.name);
    column->set_type(ToProtoType(spec.type));
  }
  for (const std::string& line : constraint_lines) info.add_constraints(line);
  info.set_public_max_rows(manifest.public_max_rows());
  info.set_row_count_public(manifest.row_count_public());
  if (manifest.row_count_public()) info.set_row_count(table.num_rows());
  info.add_supported_measures(v1::MEASURE_MI);
  info.add_supported_measures(v1::MEASURE_P);
  info.add_supported_measures(v1::MEASURE_R);
  for (const core::cube::CubeDimension& dim : cube_schema.dimensions) {
    v1::CubeDimensionInfo* out = info.add_cube_dimensions();
    out->set_column(dim.column);
    for (const std::string& label : dim.labels) out->add_labels(label);
  }
  for (const core::cube::Cuboid& cuboid : public_cuboids) {
    *info.add_public_cuboids() = CuboidToProto(cuboid);
  }
  for (const char* rpc : {kMeasureInconsistency, kQualityReport,
                          kReleaseCuboids, kTrainDecisionTree}) {
    if (CheckAnswers(rpc).ok()) info.add_supported_releases(rpc);
  }
  return info;
}

v1::DatasetStats LoadedDataset::Stats() const {
  v1::DatasetStats stats;
  stats.set_csv_bytes(csv_bytes);
  if (is_graph()) {
    stats.set_rows(edge_graph.graph.num_edges());
    stats.set_nodes(edge_graph.graph.num_nodes());
    stats.set_edges(edge_graph.graph.num_edges());
    stats.set_graph_ready(true);
    return stats;
  }
  stats.set_rows(table.num_rows());
  if (const ConflictGraphData* data = conflict_graph->ready_data()) {
    stats.set_graph_ready(true);
    stats.set_edges(data->graph.graph.num_edges());
    stats.set_graph_build_seconds(data->graph.stats.build_seconds);
  } else {
    stats.set_graph_error(std::string(conflict_graph->error().message()));
  }
  return stats;
}

// ---- DatasetRegistry --------------------------------------------------------

absl::Status ValidateId(const std::string& id, const char* field) {
  if (id.empty() || id.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must have 1-64 characters from [A-Za-z0-9_.-], but '", id,
        "' has ", id.size(), "."));
  }
  if (!absl::ascii_isalnum(static_cast<unsigned char>(id[0]))) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must start with a letter or digit, but is '", id, "'."));
  }
  for (const char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '.' && c != '-') {
      return absl::InvalidArgumentError(absl::StrCat(
          field, " may only contain [A-Za-z0-9_.-], but '", id, "' contains '",
          absl::CEscape(absl::string_view(&c, 1)), "'."));
    }
  }
  return absl::OkStatus();
}

DatasetRegistry::DatasetRegistry(Options options)
    : options_(std::move(options)),
      builds_(std::make_unique<GraphBuildQueue>(options_.graph_build_workers)) {
}

DatasetRegistry::~DatasetRegistry() {
  // Drops queued builds (their slots are cancelled) and joins the workers
  // before the datasets go.
  builds_.reset();
}

void DatasetRegistry::WaitForGraphBuilds() { builds_->WaitIdle(); }

void DatasetRegistry::QueueGraphBuild(std::shared_ptr<const LoadedDataset> d) {
  if (d->is_graph()) return;
  std::shared_ptr<ConflictGraphSlot> slot = d->conflict_graph;
  // The job holds the version (rows, DCs) until it has run: a Replace or
  // Delete meanwhile only cancels it if it has not started.
  auto build = [d, options = &options_]() {
    ConflictGraphSlot& slot = *d->conflict_graph;
    if (!slot.TryStart()) return;  // cancelled: replaced or deleted
    if (options->before_graph_build) {
      options->before_graph_build(d->manifest.dataset_id());
    }
    core::graph::ConflictGraphOptions graph_options;
    graph_options.num_threads = options->graph_threads;
    graph_options.max_edges = options->max_edges;
    absl::StatusOr<core::graph::ConflictGraph> graph =
        core::graph::BuildConflictGraph(d->table, d->dcs, graph_options);
    if (!graph.ok()) {
      slot.SetFailed(graph.status());
      return;
    }
    absl::StatusOr<std::vector<core::private_measures::DcDegreeBound>> bounds =
        core::private_measures::ComputeDegreeBounds(d->table, d->dcs);
    if (!bounds.ok()) {
      slot.SetFailed(bounds.status());
      return;
    }
    ConflictGraphData data;
    data.graph = *std::move(graph);
    data.degree_bounds = *std::move(bounds);
    slot.SetReady(std::move(data));
  };
  auto drop = [slot]() {
    slot->Cancel(absl::UnavailableError(
        "The server is shutting down before the dataset's conflict graph "
        "was built; nothing was charged. Retry."));
  };
  builds_->Enqueue(std::move(build), std::move(drop));
}

absl::StatusOr<std::unique_ptr<DatasetRegistry>> DatasetRegistry::Open(
    const Options& options) {
  if (options.data_dir.empty()) {
    return absl::InvalidArgumentError("data_dir must not be empty.");
  }
  if (options.graph_threads < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graph_threads must be >= 0, but is ", options.graph_threads, "."));
  }
  if (options.max_edges == 0 || options.max_rows == 0 ||
      options.max_csv_bytes == 0) {
    return absl::InvalidArgumentError(
        "max_edges, max_rows and max_csv_bytes must be > 0.");
  }
  const fs::path root = fs::path(options.data_dir) / "datasets";
  std::error_code ec;
  // The rows are private: only the server's user may list or read them.
  if (fs::create_directories(root, ec) && !ec) {
    fs::permissions(root, fs::perms::owner_all, fs::perm_options::replace, ec);
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot create '", root.string(), "': ", ec.message()));
  }
  RETURN_IF_ERROR(RecoverWorkDirs(root));

  if (options.graph_build_workers < 1 || options.graph_build_workers > 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("graph_build_workers must be in [1, 16], but is ",
                     options.graph_build_workers, "."));
  }
  std::unique_ptr<DatasetRegistry> registry(new DatasetRegistry(options));
  std::vector<std::string> ids;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_directory(ec)) continue;  // stray files are not datasets
    absl::Status id_ok = ValidateId(name, "dataset directory name");
    if (!id_ok.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", it->path().string(), "' is not a dataset directory (",
          id_ok.message(), "): move it out of the data directory."));
    }
    ids.push_back(name);
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("Cannot list '", root.string(), "': ", ec.message()));
  }
  std::sort(ids.begin(), ids.end());
  for (const std::string& id : ids) {
    absl::Status s = registry->LoadFromDisk(root / id);
    if (!s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat("Cannot load dataset '", id, "' from '",
                                 (root / id).string(), "': ", s.message()));
    }
  }
  return registry;
}

absl::Status DatasetRegistry::LoadFromDisk(const std::string& dir_path) {
  const fs::path dir(dir_path);
  const std::string id = dir.filename().string();
  ASSIGN_OR_RETURN(std::string manifest_json,
                   ReadWholeFile(dir / kManifestFile, uint64_t{16} << 20));
  v1::DatasetManifest manifest;
  google::protobuf::util::JsonParseOptions parse_options;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      manifest_json, &manifest, parse_options);
  if (!parsed.ok()) {
    return absl::DataLossError(absl::StrCat(
        kManifestFile, " is not a DatasetManifest: ", parsed.ToString()));
  }
  if (manifest.dataset_id() != id) {
    return absl::DataLossError(absl::StrCat(kManifestFile, " names dataset '",
                                            manifest.dataset_id(),
                                            "', not the directory's name."));
  }
  ASSIGN_OR_RETURN(std::string state, ReadWholeFile(dir / kStateFile, 4096));
  uint64_t version = 0;
  absl::Time registered_at;
  RETURN_IF_ERROR(
      ParseState(state, dir / kStateFile, &version, &registered_at));
  // Mapped, not read into a string: the CSV streams from the page cache
  // (BuildDataset checks max_csv_bytes on the mapped size).
  ASSIGN_OR_RETURN(
      const core::table::MappedFile csv,
      core::table::MappedFile::Open((dir / kDataFile).string()));
  ASSIGN_OR_RETURN(std::shared_ptr<LoadedDataset> d,
                   BuildDataset(options_, manifest, csv.view(), dir / kDataFile));
  d->version = version;
  d->registered_at = registered_at;
  {
    absl::MutexLock lock(&mu_);
    datasets_[id] = d;
  }
  QueueGraphBuild(std::move(d));
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Get(
    const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = datasets_.find(dataset_id);
  if (it == datasets_.end()) {
    return absl::NotFoundError(
        absl::StrCat("Dataset '", dataset_id, "' does not exist."));
  }
  return it->second;
}

std::vector<std::shared_ptr<const LoadedDataset>> DatasetRegistry::List()
    const {
  std::vector<std::shared_ptr<const LoadedDataset>> all;
  {
    absl::ReaderMutexLock lock(&mu_);
    all.reserve(datasets_.size());
    for (const auto& [id, d] : datasets_) all.push_back(d);
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    return a->manifest.dataset_id() < b->manifest.dataset_id();
  });
  return all;
}

bool DatasetRegistry::Contains(const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  return datasets_.contains(dataset_id);
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Register(
    const v1::DatasetManifest& manifest, std::string csv_text) {
  return Write(manifest, std::move(csv_text), /*replace=*/false);
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Replace(
    const v1::DatasetManifest& manifest, std::string csv_text) {
  return Write(manifest, std::move(csv_text), /*replace=*/true);
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Write(
    const v1::DatasetManifest& manifest, std::string csv_text, bool replace) {
  RETURN_IF_ERROR(ValidateManifest(manifest));
  const std::string& id = manifest.dataset_id();
  // Fail fast before the slow build; checked again under write_mu_.
  RETURN_IF_ERROR(CheckPresence(id, replace));
  // The slow part (parse, graph) runs without any lock: other writes and
  // all reads proceed meanwhile.
  ASSIGN_OR_RETURN(std::shared_ptr<LoadedDataset> d,
                   ParseUpload(manifest, csv_text));

  absl::MutexLock write_lock(&write_mu_);
  RETURN_IF_ERROR(CheckPresence(id, replace));
  if (replace) {
    ASSIGN_OR_RETURN(std::shared_ptr<const LoadedDataset> old, Get(id));
    d->version = old->version + 1;
  }
  d->registered_at = absl::Now();

  // Publish on disk: write a complete staging directory, then give it the
  // dataset's name with renames (each atomic); RecoverWorkDirs finishes or
  // rolls back after a crash in between.
  const fs::path root = fs::path(options_.data_dir) / "datasets";
  const fs::path staging = root / absl::StrCat(kStagingPrefix, id);
  const fs::path current = root / id;
  const fs::path old = root / absl::StrCat(kOldPrefix, id);
  RETURN_IF_ERROR(RemoveTree(staging));
  absl::Status written = WriteDatasetDir(staging, *d, csv_text);
  if (!written.ok()) {
    RemoveTree(staging).IgnoreError();
    return written;
  }
  if (replace) {
    absl::Status moved = RenamePath(current, old);
    if (!moved.ok()) {
      RemoveTree(staging).IgnoreError();
      return moved;
    }
  }
  absl::Status renamed = RenamePath(staging, current);
  if (!renamed.ok()) {
    if (replace) RenamePath(old, current).IgnoreError();
    RemoveTree(staging).IgnoreError();
    return renamed;
  }
  RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  if (replace) {
    // The new version is durable; the old one is garbage (also collected at
    // the next Open if this fails).
    RemoveTree(old).IgnoreError();
  }

  std::shared_ptr<const LoadedDataset> previous;
  {
    absl::MutexLock lock(&mu_);
    std::shared_ptr<const LoadedDataset>& entry = datasets_[id];
    previous = std::move(entry);
    entry = d;
  }
  if (previous != nullptr) CancelGraphBuild(*previous, "replaced");
  QueueGraphBuild(d);
  return std::shared_ptr<const LoadedDataset>(std::move(d));
}

absl::StatusOr<std::shared_ptr<LoadedDataset>> DatasetRegistry::ParseUpload(
    const v1::DatasetManifest& manifest, absl::string_view csv_text) {
  ASSIGN_OR_RETURN(const v1::DatasetKind kind, KindOf(manifest));
  if (kind != v1::DATASET_KIND_GRAPH) {
    return BuildDataset(options_, manifest, csv_text, "");
  }
  // The edge-list reader takes a file: a private, uniquely named one in the
  // data directory (removed here, or by the next Open after a crash).
  const fs::path root = fs::path(options_.data_dir) / "datasets";
  const fs::path path =
      root / absl::StrCat(kUploadPrefix, manifest.dataset_id(), "-",
                          upload_counter_.fetch_add(1), "-", ::getpid());
  RETURN_IF_ERROR(CheckCsvSize(csv_text.size(), options_.max_csv_bytes));
  RETURN_IF_ERROR(WriteFileSynced(path, csv_text));
  absl::StatusOr<std::shared_ptr<LoadedDataset>> d =
      BuildDataset(options_, manifest, csv_text, path.string());
  RemoveTree(path).IgnoreError();
  return d;
}

void DatasetRegistry::CancelGraphBuild(const LoadedDataset& d,
                                       const char* what) {
  if (d.conflict_graph == nullptr) return;
  d.conflict_graph->Cancel(absl::AbortedError(absl::StrCat(
      "Dataset '", d.manifest.dataset_id(), "' version ", d.version, " was ",
      what, " before its conflict graph was built; nothing was charged. "
      "Retry the request (it then uses the current version).")));
}

absl::Status DatasetRegistry::CheckPresence(const std::string& id,
                                            bool must_exist) const {
  const bool exists = Contains(id);
  if (must_exist && !exists) {
    return absl::NotFoundError(
        absl::StrCat("Dataset '", id, "' does not exist: register it first."));
  }
  if (!must_exist && exists) {
    return absl::AlreadyExistsError(
        absl::StrCat("Dataset '", id,
                     "' already exists: use ReplaceDataset to upload a "
                     "new version."));
  }
  return absl::OkStatus();
}

absl::Status DatasetRegistry::Delete(const std::string& dataset_id) {
  RETURN_IF_ERROR(ValidateId(dataset_id, "dataset_id"));
  absl::MutexLock write_lock(&write_mu_);
  RETURN_IF_ERROR(CheckPresence(dataset_id, /*must_exist=*/true));
  const fs::path root = fs::path(options_.data_dir) / "datasets";
  const fs::path trash = root / absl::StrCat(kTrashPrefix, dataset_id);
  RETURN_IF_ERROR(RemoveTree(trash));
  RETURN_IF_ERROR(RenamePath(root / dataset_id, trash));
  RETURN_IF_ERROR(FsyncPath(root, /*directory=*/true));
  std::shared_ptr<const LoadedDataset> previous;
  {
    absl::MutexLock lock(&mu_);
    auto it = datasets_.find(dataset_id);
    if (it != datasets_.end()) {
      previous = std::move(it->second);
      datasets_.erase(it);
    }
  }
  if (previous != nullptr) CancelGraphBuild(*previous, "deleted");
  // Requests holding the shared_ptr keep their in-memory copy; the files
  // are gone for good (or removed at the next Open if this fails).
  RemoveTree(trash).IgnoreError();
  return absl::OkStatus();
}

absl::StatusOr<std::string> DatasetRegistry::ReadServerFile(
    const std::string& path) const {
  if (path.empty()) {
    return absl::InvalidArgumentError("server_path must not be empty.");
  }
  absl::StatusOr<std::string> text =
      ReadWholeFile(fs::path(path), options_.max_csv_bytes);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat("server_path: ", text.status().message()));
  }
  return text;
}

}  // namespace dpq::server::registry
