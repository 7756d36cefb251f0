// One immutable version of a dataset with everything releases need, and
// what buyers and admins may see of it (docs/privacy.md, "What is
// public"; docs/service.md).
#ifndef DPQ_SERVER_REGISTRY_LOADED_DATASET_H_
#define DPQ_SERVER_REGISTRY_LOADED_DATASET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/constraints/denial_constraint.h"
#include "core/cube/cuboid_release.h"
#include "core/private/release_cost.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/table/table.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/conflict_graph_slot.h"

namespace dpq::server::registry {

// The privacy unit of a table without public exact cuboids
// (docs/privacy.md, "Neighbours, per dataset kind").
inline constexpr char kTupleNeighbouring[] =
    "one row added or removed (unbounded DP)";
// The privacy unit of every graph dataset (edge-DP; docs/privacy.md,
// "Graphs: the node universe is declared").
inline constexpr char kEdgeNeighbouring[] =
    "one edge added or removed (edge-DP)";

// Buyer RPC names, as listed in DatasetInfo.supported_releases.
inline constexpr char kMeasureInconsistency[] = "MeasureInconsistency";
inline constexpr char kQualityReport[] = "QualityReport";
inline constexpr char kReleaseCuboids[] = "ReleaseCuboids";
inline constexpr char kTrainDecisionTree[] = "TrainDecisionTree";
inline constexpr char kSelectInfluentialNodes[] = "SelectInfluentialNodes";

// Shared by in-flight requests: a Replace or Delete never pulls it from
// under them. Everything here was decided at registration from the
// manifest and the rows; nothing changes afterwards except the conflict
// graph slot (filled once, in the background after a server start).
struct LoadedDataset {
  // The manifest as stored: column types, inferred dimension domains and
  // graph node universes are frozen into it (nothing is inferred again).
  v1::DatasetManifest manifest;
  // TABLE or GRAPH (UNSPECIFIED in the manifest is stored as TABLE).
  v1::DatasetKind kind = v1::DATASET_KIND_TABLE;
  uint64_t version = 1;
  // With a shared catalog (dataset_catalog.h): the revision of this
  // version there (CatalogEntry::revision); 0 in the embedded mode.
  int64_t catalog_revision = 0;
  absl::Time registered_at;
  uint64_t csv_bytes = 0;
  // What the registration decided from the data at the owner's request,
  // for the owner's response (never shown to buyers).
  std::vector<std::string> notes;

  // The dataset's privacy unit, as shown to buyers and recorded on every
  // ledger entry.
  std::string neighbouring;
  // k_Q (DatasetInfo.charge_multiplier): 1 unless the table has public
  // exact cuboids; then every release but ReleaseCuboids is charged k_Q
  // times its epsilon (see docs/privacy.md).
  uint32_t charge_multiplier = 1;

  // ---- Tables ----
  core::table::Table table;  // private rows: never leave the server
  std::vector<core::constraints::DenialConstraint> dcs;
  // The manifest's constraint lines that hold a DC (blank and `#` comment
  // lines dropped, surrounding whitespace trimmed), in order: public.
  std::vector<std::string> constraint_lines;
  // The data cube's dimensions with their public labels; empty (no cube,
  // no ReleaseCuboids) unless the manifest declares cube_dimensions.
  core::cube::CubeSchema cube_schema;
  // The manifest's public exact cuboids with their exact counts (public by
  // the owner's declaration), in manifest order.
  std::vector<core::cube::Cuboid> public_cuboids;
  // The exact minimum vertex cover (I_R) of the conflict graph, computed at
  // registration when the manifest sets exact_repair (then never empty)
  // and kept in state.txt. Private: released only with noise.
  std::optional<uint64_t> exact_repair;
  // The conflict graph; never null for tables. Ready once registration
  // returns; rebuilt in the background after a server start.
  std::shared_ptr<ConflictGraphSlot> conflict_graph;
  // The cost class of its releases, fixed at registration from the graph's
  // edges and recorded (VersionState::release_cost); heavy for a version
  // stored before it was recorded without an edge count. Private (it
  // depends on the edges): read only after a release's charge, to queue
  // its computation (server/buyer/heavy_release_queue.h).
  core::private_measures::ReleaseCost release_cost =
      core::private_measures::ReleaseCost::kHeavy;
  // What state.txt recorded of the graph (a stored version): the rebuild
  // must reproduce it, or the version is refused (DatasetRegistry).
  RecordedGraph recorded;

  // ---- Graphs ----
  core::selection::LabeledGraph edge_graph;  // declared nodes, private edges

  bool is_graph() const { return kind == v1::DATASET_KIND_GRAPH; }
  // OK if this dataset answers `rpc` (one of the k* names above), else
  // kFailedPrecondition naming the dataset, its kind and what it answers.
  // Depends on the manifest only.
  absl::Status CheckAnswers(const char* rpc) const;

  // Waits for the conflict graph (tables only: kFailedPrecondition for
  // graphs). Errors: see ConflictGraphSlot::Wait.
  absl::StatusOr<const ConflictGraphData*> WaitForConflictGraph(
      absl::Time deadline,
      const std::function<bool()>& cancelled = nullptr) const;

  // What buyers may see: no rows, no sizes (row_count only if public).
  v1::DatasetInfo PublicInfo() const;
  // True sizes, for admins (edges 0 and graph_ready false while the
  // conflict graph is being rebuilt after a server start).
  v1::DatasetStats Stats() const;
};

// A cuboid with its cells (labels and counts) as the API shows it.
v1::Cuboid CuboidToProto(const core::cube::Cuboid& cuboid);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_LOADED_DATASET_H_
