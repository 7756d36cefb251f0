#include "server/registry/manifest.h"

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/util/status_macros.h"
#include "google/protobuf/util/json_util.h"
#include "server/registry/column_types.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::registry {
namespace {

constexpr size_t kMaxDescriptionBytes = 4096;
constexpr size_t kMaxNullValues = 64;

// The first table-only field a graph manifest sets, or nullptr.
const char* TableFieldSetOnGraph(const v1::DatasetManifest& manifest) {
  if (!absl::StripAsciiWhitespace(manifest.constraints()).empty()) {
    return "constraints";
  }
  if (manifest.column_types_size() > 0) return "column_types";
  if (manifest.infer_column_types()) return "infer_column_types";
  if (manifest.null_values_size() > 0) return "null_values";
  if (manifest.cube_dimensions_size() > 0) return "cube_dimensions";
  if (manifest.public_cuboids_size() > 0) return "public_cuboids";
  if (manifest.exact_repair()) return "exact_repair";
  return nullptr;
}

// A graph's manifest holds id, description, kind and the node universe:
// the table fields would be silently meaningless, so they are refused.
absl::Status ValidateGraphManifest(const v1::DatasetManifest& manifest) {
  if (const char* field = TableFieldSetOnGraph(manifest); field != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        field,
        " must be empty for a graph dataset (kind GRAPH: an edge list "
        "with columns source,target); it applies to tables only."));
  }
  if (manifest.node_labels_size() > 0 && manifest.node_count() > 0) {
    return absl::InvalidArgumentError(
        "Give the node universe as node_labels or as node_count, not both.");
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
        "sensitivity bound (docs/cube.md, section 3)."));
  }
  for (int i = 0; i < manifest.public_cuboids_size(); ++i) {
    absl::flat_hash_set<std::string> seen;
    for (const std::string& dim : manifest.public_cuboids(i).dimensions()) {
      if (!seen.insert(dim).second) {
        return absl::InvalidArgumentError(absl::StrCat(
            "public_cuboids[", i, "] names dimension '", dim, "' twice."));
      }
    }
  }
  return absl::OkStatus();
}

// public_max_rows: a public bound on the row count, within what a conflict
// graph can index.
absl::Status ValidatePublicMaxRows(const v1::DatasetManifest& manifest) {
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
  return absl::OkStatus();
}

// Each typed column named once, with a known type (UNSPECIFIED: untyped).
absl::Status ValidateColumnTypes(const v1::DatasetManifest& manifest) {
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
  return absl::OkStatus();
}

absl::Status ValidateTableManifest(const v1::DatasetManifest& manifest) {
  RETURN_IF_ERROR(ValidateCubeManifest(manifest));
  if (manifest.node_labels_size() > 0 || manifest.node_count() > 0) {
    return absl::InvalidArgumentError(
        "node_labels and node_count apply to graph datasets only.");
  }
  RETURN_IF_ERROR(ValidatePublicMaxRows(manifest));
  if (absl::StripAsciiWhitespace(manifest.constraints()).empty()) {
    return absl::InvalidArgumentError(
        "constraints is empty: give at least one denial constraint (one per "
        "line).");
  }
  RETURN_IF_ERROR(ValidateColumnTypes(manifest));
  if (static_cast<size_t>(manifest.null_values_size()) > kMaxNullValues) {
    return absl::InvalidArgumentError(
        absl::StrCat("null_values may hold at most ", kMaxNullValues,
                     " spellings, but has ", manifest.null_values_size(), "."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::DatasetKind> ManifestKind(
    const v1::DatasetManifest& manifest) {
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

absl::Status ValidateManifest(const v1::DatasetManifest& manifest) {
  RETURN_IF_ERROR(ValidateId(manifest.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(const v1::DatasetKind kind, ManifestKind(manifest));
  if (manifest.description().size() > kMaxDescriptionBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("description must be at most ", kMaxDescriptionBytes,
                     " bytes, but has ", manifest.description().size(), "."));
  }
  if (kind == v1::DATASET_KIND_GRAPH) return ValidateGraphManifest(manifest);
  return ValidateTableManifest(manifest);
}

absl::StatusOr<std::string> ManifestToJson(
    const v1::DatasetManifest& manifest) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  const auto printed =
      google::protobuf::util::MessageToJsonString(manifest, &json, options);
  if (!printed.ok()) {
    return absl::InternalError(absl::StrCat(
        "Cannot write the manifest as JSON: ", printed.ToString()));
  }
  return json;
}

absl::StatusOr<v1::DatasetManifest> ManifestFromJson(absl::string_view json) {
  v1::DatasetManifest manifest;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), &manifest,
      google::protobuf::util::JsonParseOptions());
  if (!parsed.ok()) return absl::InvalidArgumentError(parsed.ToString());
  return manifest;
}

}  // namespace dpq::server::registry
