#include "server/registry/dataset_builder.h"

#include <algorithm>
#include <memory>
#include <optional>
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
#include "core/cube/data_cube.h"
#include "core/cube/generic_sensitivity.h"
#include "core/private/cover_bound.h"
#include "core/private/degree_bound.h"
#include "core/selection/nodes/edge_list.h"
#include "core/table/csv_encoding.h"
#include "core/table/csv_reader.h"
#include "core/util/status_prefix.h"
#include "core/util/text_check.h"
#include "core/util/status_macros.h"
#include "server/proto_text.h"
#include "server/registry/column_types.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::registry {
namespace {

constexpr size_t kMaxDescriptionBytes = 4096;
constexpr size_t kMaxNullValues = 64;

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

// A graph's manifest holds id, description, kind and the node universe:
// the table fields would be silently meaningless, so they are refused.
absl::Status ValidateGraphManifest(const v1::DatasetManifest& manifest) {
  const char* field = nullptr;
  if (!absl::StripAsciiWhitespace(manifest.constraints()).empty()) {
    field = "constraints";
  } else if (manifest.column_types_size() > 0) {
    field = "column_types";
  } else if (manifest.infer_column_types()) {
    field = "infer_column_types";
  } else if (manifest.null_values_size() > 0) {
    field = "null_values";
  } else if (manifest.cube_dimensions_size() > 0) {
    field = "cube_dimensions";
  } else if (manifest.public_cuboids_size() > 0) {
    field = "public_cuboids";
  } else if (manifest.exact_repair()) {
    field = "exact_repair";
  }
  if (field != nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " must be empty for a graph dataset (kind GRAPH: an edge list "
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

absl::Status ValidateTableManifest(const v1::DatasetManifest& manifest) {
  RETURN_IF_ERROR(ValidateCubeManifest(manifest));
  if (manifest.node_labels_size() > 0 || manifest.node_count() > 0) {
    return absl::InvalidArgumentError(
        "node_labels and node_count apply to graph datasets only.");
  }
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
                     " bytes, above the server's limit of ", limit,
                     " bytes (max_csv_bytes)."));
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

// "[A,B] [C]".
std::string CuboidList(const std::vector<std::vector<std::string>>& q) {
  std::vector<std::string> parts;
  for (const auto& dims : q) {
    parts.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  }
  return absl::StrJoin(parts, " ");
}

// ---- Tables ----------------------------------------------------------------

// Parses the rows under the declared types (plus, for a replacement, the
// replaced version's frozen ones); untyped columns are inferred only if the
// owner asked (or a stored manifest predates frozen types), and every type
// is then frozen into d->manifest.
absl::Status ReadRows(const RegistryOptions& options,
                      const v1::DatasetManifest& manifest,
                      absl::string_view csv_text, const BuildContext& context,
                      LoadedDataset* d, bool* migrated) {
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
  absl::StatusOr<core::table::Table> table =
      core::table::ReadCsv(csv_text, csv);
  if (!table.ok()) {
    const absl::Status& s = table.status();
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
  d->table = *std::move(table);

  // Freeze: every column with its type, in header order.
  absl::flat_hash_set<std::string> declared;
  for (const auto& spec : csv.schema.columns) declared.insert(spec.name);
  for (const auto& spec : csv.fallback_types.columns) declared.insert(spec.name);
  std::vector<std::string> inferred;
  d->manifest.clear_column_types();
  for (const core::table::ColumnSpec& spec : d->table.schema().columns()) {
    v1::Column* column = d->manifest.add_column_types();
    column->set_name(spec.name);
    column->set_type(ToProtoType(spec.type));
    if (!declared.contains(spec.name)) {
      inferred.push_back(absl::StrCat(
          spec.name, " ", core::table::ColumnTypeName(spec.type)));
    }
  }
  d->manifest.set_infer_column_types(false);
  if (!inferred.empty()) {
    if (manifest.infer_column_types()) {
      d->notes.push_back(absl::StrCat(
          "Column types inferred from the data, now frozen and public: ",
          absl::StrJoin(inferred, ", "), "."));
    } else if (migrated != nullptr) {
      *migrated = true;
    }
  }
  return absl::OkStatus();
}

// The cube schema (declared or explicitly inferred domains, the inferred
// ones frozen) and the exact counts of the public cuboids.
absl::Status BuildCube(const v1::DatasetManifest& manifest,
                       const BuildContext& context, LoadedDataset* d,
                       bool* migrated) {
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
    // A stored manifest from before frozen domains: a bare dimension was
    // inferred then (and its values shown to buyers).
    spec.infer_domain =
        dim.infer_domain() ||
        (context.stored && spec.domain.empty() && spec.bin_edges.empty());
    specs.push_back(std::move(spec));
  }
  absl::StatusOr<core::cube::CubeSchema> schema =
      core::cube::BuildCubeSchema(d->table, specs);
  if (!schema.ok()) {
    std::string hint;
    if (absl::StrContains(schema.status().message(), "neither a domain")) {
      hint = " (dpq admin register --cube-dimension 'COL=*' asks for that)";
    }
    return core::util::WithPrefix("cube_dimensions: ", schema.status(),
                                  hint);
  }
  d->cube_schema = *std::move(schema);
  // Freeze the inferred domains (labels without the "other" cell).
  for (int i = 0; i < manifest.cube_dimensions_size(); ++i) {
    if (!specs[i].infer_domain) continue;
    const core::cube::CubeDimension& dim = d->cube_schema.dimensions[i];
    v1::CubeDimension* out = d->manifest.mutable_cube_dimensions(i);
    out->clear_domain();
    for (size_t l = 0; l + 1 < dim.labels.size(); ++l) {
      out->add_domain(dim.labels[l]);
    }
    out->set_infer_domain(false);
    if (manifest.cube_dimensions(i).infer_domain()) {
      d->notes.push_back(absl::StrCat(
          "Dimension ", dim.column, ": its ", dim.labels.size() - 1,
          " values were taken from the data, now frozen and public (plus "
          "\"other\")."));
    } else if (migrated != nullptr) {
      *migrated = true;
    }
  }

  size_t cells = 0;
  std::vector<std::vector<std::string>> q;
  for (int i = 0; i < manifest.public_cuboids_size(); ++i) {
    const auto& dims = manifest.public_cuboids(i).dimensions();
    q.emplace_back(dims.begin(), dims.end());
    absl::StatusOr<core::cube::Cuboid> exact = core::cube::ComputeExactCuboid(
        d->table, d->cube_schema, q.back());
    if (!exact.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("public_cuboids[", i, "]: "), exact.status(),
          " (the cube's dimensions are the manifest's cube_dimensions)");
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
  if (q.empty()) return absl::OkStatus();

  // The cells of an exact cuboid add up to the row count, so it is public
  // whatever row_count_public says (privacy-holes issue, item 6).
  if (!manifest.row_count_public()) {
    d->manifest.set_row_count_public(true);
    d->notes.push_back(
        "row_count_public is now true: the public exact cuboids add up to "
        "the row count, so it is public anyway.");
  }
  // k_Q (docs/privacy.md, "Datasets with public exact cuboids"): two
  // induced neighbours under Q are at most S_Q(C_base) rows added or
  // removed apart, where C_base is the cuboid over every attribute (the
  // rows themselves): S_Q is the largest L1 distance between the base
  // cuboids of induced neighbours, and the L1 distance between two tables'
  // base cuboids is the number of rows added plus removed. Attributes
  // outside the cube are dimensions in no exact cuboid, which Lemma 4.2
  // allows. So an epsilon-DP (add/remove one row) release is
  // k_Q epsilon-DP for induced neighbours (group privacy).
  std::vector<core::cube::DimSet> exact;
  for (const auto& names : q) {
    ASSIGN_OR_RETURN(std::vector<size_t> dims,
                     core::cube::ResolveDimensions(d->cube_schema, names));
    exact.push_back(core::cube::MakeDimSet(std::move(dims)));
  }
  absl::StatusOr<int64_t> k = core::cube::BaseCuboidSensitivity(
      d->cube_schema, core::cube::ReduceExactCuboids(exact));
  if (!k.ok() || *k < 1 || *k > 1'000'000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "public_cuboids ", CuboidList(q),
        ": two tables that agree on them can be too many rows apart for a "
        "usable charge (",
        k.ok() ? absl::StrCat(*k) : std::string(k.status().message()),
        "); declare fewer or coarser exact cuboids."));
  }
  d->charge_multiplier = static_cast<uint32_t>(*k);
  d->neighbouring = absl::StrCat(
      "induced neighbours under the public exact cuboids ", CuboidList(q),
      " (tables that agree on them; at most ", *k,
      " rows added or removed apart)");
  if (*k > 1) {
    d->notes.push_back(absl::StrCat(
        "Privacy unit: induced neighbours under the public exact cuboids ",
        CuboidList(q), ". ReleaseCuboids is charged its epsilon, every other "
        "release ", *k, " times its epsilon (group privacy)."));
  }
  return absl::OkStatus();
}

// The reduced public cuboids as sorted name lists (for comparing versions).
std::vector<std::vector<std::string>> ReducedQ(const LoadedDataset& d) {
  std::vector<core::cube::DimSet> exact;
  for (const core::cube::Cuboid& c : d.public_cuboids) {
    absl::StatusOr<std::vector<size_t>> dims =
        core::cube::ResolveDimensions(d.cube_schema, c.dimensions);
    if (dims.ok()) exact.push_back(core::cube::MakeDimSet(*std::move(dims)));
  }
  std::vector<std::vector<std::string>> out;
  for (const core::cube::DimSet& set : core::cube::ReduceExactCuboids(exact)) {
    std::vector<std::string> names;
    for (size_t i : set) names.push_back(d.cube_schema.dimensions[i].column);
    std::sort(names.begin(), names.end());
    out.push_back(std::move(names));
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::Status CheckSameNeighbourUnit(const LoadedDataset& old_version,
                                    const LoadedDataset& new_version) {
  const auto before = ReducedQ(old_version);
  const auto after = ReducedQ(new_version);
  if (before == after) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "public_cuboids: the replacement's public exact cuboids (",
      after.empty() ? "none" : CuboidList(after),
      ") differ from version ", old_version.version, "'s (",
      before.empty() ? "none" : CuboidList(before),
      "). The budgets and ledger of this dataset count epsilon in that "
      "version's privacy unit, so it cannot change: register the new data "
      "under a new dataset id (which starts fresh budgets)."));
}

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

// ---- Graphs ----------------------------------------------------------------

// The declared node universe. A stored manifest from before declared
// universes takes the nodes of its edges (what buyers saw then), frozen.
absl::StatusOr<core::selection::LabeledGraph> ParseGraph(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    absl::string_view csv_text, const BuildContext& context, bool* migrated) {
  if (manifest.node_labels_size() > 0) {
    if (static_cast<uint64_t>(manifest.node_labels_size()) >
        options.max_graph_nodes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "node_labels declares ", manifest.node_labels_size(),
          " nodes; the server's limit is ", options.max_graph_nodes, "."));
    }
    return core::selection::ParseEdgeList(
        csv_text, std::vector<std::string>(manifest.node_labels().begin(),
                                           manifest.node_labels().end()));
  }
  if (manifest.node_count() > 0) {
    if (manifest.node_count() > options.max_graph_nodes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "node_count is ", manifest.node_count(),
          "; the server's limit is ", options.max_graph_nodes, " nodes."));
    }
    return core::selection::ParseEdgeList(
        csv_text, core::selection::CountedNodeLabels(manifest.node_count()));
  }
  if (!context.stored) {
    return absl::InvalidArgumentError(
        "A graph dataset needs its node universe: node_count n (nodes \"0\" "
        "to \"n-1\") or node_labels (every node, isolated ones included; "
        "dpq admin register --node-count N or --nodes FILE). Under edge-DP "
        "the nodes are public and must not be read off the private edges.");
  }
  if (migrated != nullptr) *migrated = true;
  return core::selection::ParseEdgeList(csv_text);
}

absl::Status BuildGraph(const RegistryOptions& options,
                        const v1::DatasetManifest& manifest,
                        absl::string_view csv_text, const BuildContext& context,
                        LoadedDataset* d, bool* migrated) {
  absl::StatusOr<core::selection::LabeledGraph> graph =
      ParseGraph(options, manifest, csv_text, context, migrated);
  if (!graph.ok()) {
    if (graph.status().code() == absl::StatusCode::kResourceExhausted ||
        absl::StartsWith(graph.status().message(), "A graph dataset")) {
      return graph.status();
    }
    return core::util::WithPrefix(
        absl::StartsWith(graph.status().message(), "Node label")
            ? "node_labels: "
            : "csv (edge list source,target): ",
        graph.status());
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
  d->neighbouring = kEdgeNeighbouring;
  if (manifest.node_labels_size() == 0 && manifest.node_count() == 0) {
    // Migrated: freeze the universe read off the edges.
    for (const std::string& label : d->edge_graph.labels) {
      d->manifest.add_node_labels(label);
    }
  }
  return absl::OkStatus();
}

// ---- Published text ----------------------------------------------------------

// Everything a buyer can read about the version (DatasetInfo, and a graph's
// node labels, which SelectInfluentialNodes returns) is printable UTF-8:
// no control characters, which would let owner text forge lines or move
// the cursor on a buyer's terminal (docs/security.md, item 7). Checked at
// registration, where the owner can fix it; the CSV is UTF-8 already.
absl::Status CheckPublishedText(const LoadedDataset& d) {
  if (std::optional<UnprintableText> bad = FindUnprintableText(d.PublicInfo())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Buyers would read text that is not printable: DatasetInfo.",
        bad->path, ", ", bad->problem,
        ". The description, column names, constraint lines and cube "
        "labels are shown to buyers and must be UTF-8 without control "
        "characters (no tabs, line breaks or escape sequences)."));
  }
  for (size_t i = 0; i < d.edge_graph.labels.size(); ++i) {
    const std::string& label = d.edge_graph.labels[i];
    if (std::optional<core::util::ControlCharacter> c =
            core::util::FindControlCharacter(label)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Node label ", i + 1, ": character ",
          core::util::PositionOf(label, c->offset).character,
          " is the control character ",
          core::util::CodePointName(c->code_point),
          "; node labels are shown to buyers and must be printable."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckTextContract(const LoadedDataset& dataset,
                               absl::string_view csv_text) {
  absl::Status utf8 = core::table::CheckCsvIsUtf8(csv_text);
  if (!utf8.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("csv: ", utf8.message()));
  }
  return CheckPublishedText(dataset);
}

absl::Status ValidateManifest(const v1::DatasetManifest& manifest) {
  RETURN_IF_ERROR(ValidateId(manifest.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(const v1::DatasetKind kind, KindOf(manifest));
  if (manifest.description().size() > kMaxDescriptionBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("description must be at most ", kMaxDescriptionBytes,
                     " bytes, but has ", manifest.description().size(), "."));
  }
  if (kind == v1::DATASET_KIND_GRAPH) return ValidateGraphManifest(manifest);
  return ValidateTableManifest(manifest);
}

absl::StatusOr<std::shared_ptr<LoadedDataset>> BuildDataset(
    const RegistryOptions& options, const v1::DatasetManifest& manifest,
    absl::string_view csv_text, const BuildContext& context, bool* migrated) {
  RETURN_IF_ERROR(ValidateManifest(manifest));
  RETURN_IF_ERROR(CheckCsvSize(csv_text.size(), options.max_csv_bytes));
  auto d = std::make_shared<LoadedDataset>();
  d->manifest = manifest;
  ASSIGN_OR_RETURN(d->kind, KindOf(manifest));
  d->manifest.set_kind(d->kind);
  d->csv_bytes = csv_text.size();
  if (context.previous != nullptr && context.previous->kind != d->kind) {
    return absl::FailedPreconditionError(absl::StrCat(
        "kind: dataset '", manifest.dataset_id(), "' is a ",
        context.previous->is_graph() ? "graph" : "table",
        "; a replacement must keep its kind (and privacy unit)."));
  }
  // A stored version was accepted by an earlier server, before the text
  // contract: it loads as it is (responses are repaired on the way out,
  // and the registry logs it), so that one old dataset cannot stop a start.
  if (!context.stored) {
    absl::Status utf8 = core::table::CheckCsvIsUtf8(csv_text);
    if (!utf8.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("csv: ", utf8.message()));
    }
  }
  if (d->is_graph()) {
    RETURN_IF_ERROR(
        BuildGraph(options, manifest, csv_text, context, d.get(), migrated));
  } else {
    RETURN_IF_ERROR(
        BuildTable(options, manifest, csv_text, context, d.get(), migrated));
  }
  if (!context.stored) RETURN_IF_ERROR(CheckPublishedText(*d));
  return d;
}

absl::StatusOr<ConflictGraphData> BuildConflictGraphData(
    const RegistryOptions& options, const LoadedDataset& d,
    absl::Time deadline) {
  core::graph::ConflictGraphOptions graph_options;
  graph_options.deadline = deadline;
  graph_options.num_threads = options.graph_threads;
  graph_options.max_edges = options.max_edges;
  ConflictGraphData data;
  ASSIGN_OR_RETURN(data.graph, core::graph::BuildConflictGraph(
                                   d.table, d.dcs, graph_options));
  ASSIGN_OR_RETURN(data.degree_bounds,
                   core::private_measures::ComputeDegreeBounds(d.table, d.dcs));
  ASSIGN_OR_RETURN(data.cover_bound,
                   core::private_measures::ComputeCoverBound(
                       d.table, d.dcs, data.graph.graph));
  return data;
}

}  // namespace dpq::server::registry
