#include "server/registry/loaded_dataset.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/timestamp.pb.h"
#include "server/registry/column_types.h"
#include "server/timestamp.h"

namespace dpq::server::registry {

absl::Status LoadedDataset::CheckAnswers(const char* rpc) const {
  const bool answers = is_graph() ? std::string(rpc) == kSelectInfluentialNodes
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
  return absl::FailedPreconditionError(
      absl::StrCat("Dataset '", manifest.dataset_id(), "' is a table; ", rpc,
                   " needs a graph dataset (kind GRAPH). Tables answer ",
                   kMeasureInconsistency, ", ", kQualityReport, ", ",
                   kReleaseCuboids, " and ", kTrainDecisionTree, " (",
                   kReleaseCuboids, " if it declares cube dimensions)."));
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
  info.set_neighbouring(neighbouring);
  info.set_charge_multiplier(charge_multiplier);
  info.set_version(version);
  *info.mutable_registered_at() = ToTimestamp(registered_at);
  if (is_graph()) {
    info.set_node_count(edge_graph.graph.num_nodes());  // declared
    info.add_supported_releases(kSelectInfluentialNodes);
    return info;
  }
  info.set_exact_repair(manifest.exact_repair());
  AppendColumns(table.schema(), info.mutable_columns());
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
  stats.set_release_cost(
      std::string(core::private_measures::ReleaseCostName(release_cost)));
  if (const ConflictGraphData* data = conflict_graph->ready_data()) {
    stats.set_graph_ready(true);
    stats.set_edges(data->graph.graph.num_edges());
    stats.set_graph_build_seconds(data->graph.stats.build_seconds);
  } else {
    stats.set_graph_error(std::string(conflict_graph->error().message()));
  }
  return stats;
}

}  // namespace dpq::server::registry
