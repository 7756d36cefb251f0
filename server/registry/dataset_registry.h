// The datasets a server holds (design.md sections 3 and 6): each lives in
// DATA_DIR/datasets/<id>/ as data.csv + manifest.json (the DatasetManifest
// proto in JSON, protobuf's own mapping) + state.txt ("version <n>" and
// "registered_at <RFC 3339>" lines), is loaded at start-up, and is kept in
// memory with everything releases need.
//
// Two kinds (manifest `kind`): tables (a CSV with a header, unbounded
// tuple-DP) with their data-cube schema, the exact counts of the public
// exact cuboids and a conflict graph; and graphs (an edge-list CSV
// `source,target`, edge-DP) for influential-node selection.
//
// Conflict graphs are built in the background (issue 4), at most
// Options::graph_build_workers at once: Register/Replace return as soon as
// the dataset is validated and stored, server start returns once every
// dataset is loaded, and a release that needs the graph waits for it (see
// LoadedDataset::WaitForConflictGraph). Each version has its own graph
// slot, so a replaced version's graph never answers for the new one.
//
// Durability: a new version is written as a complete, fsynced directory
// DATA_DIR/datasets/.staging-<id>/ and then renamed into place (Replace
// first renames the current version to .old-<id>); the parent directory is
// fsynced. Delete renames to .trash-<id> first. Open finishes or rolls back
// whatever a crash left half done, so a dataset is always either the old or
// the new version, never a mix.
#ifndef DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
#define DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/constraints/denial_constraint.h"
#include "core/cube/cuboid_release.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/selection/nodes/influential_nodes.h"
#include "core/table/table.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "server/registry/conflict_graph_slot.h"
#include "server/registry/graph_build_queue.h"

namespace dpq::server::registry {

// The privacy unit of every tabular dataset (design.md 5.1).
inline constexpr char kTupleNeighbouring[] =
    "one row added or removed (unbounded DP)";
// The privacy unit of every graph dataset (issue 6: edge-DP).
inline constexpr char kEdgeNeighbouring[] =
    "one edge added or removed (edge-DP)";

// Buyer RPC names, as listed in DatasetInfo.supported_releases.
inline constexpr char kMeasureInconsistency[] = "MeasureInconsistency";
inline constexpr char kQualityReport[] = "QualityReport";
inline constexpr char kReleaseCuboids[] = "ReleaseCuboids";
inline constexpr char kTrainDecisionTree[] = "TrainDecisionTree";
inline constexpr char kSelectInfluentialNodes[] = "SelectInfluentialNodes";

// Most public exact cuboids a manifest may declare: the generic
// sensitivity has a proven bound for at most two (design.md 7).
inline constexpr int kMaxPublicCuboids = 2;
// Most cells of all public exact cuboids together (they are sent to every
// buyer in DescribeDataset).
inline constexpr size_t kMaxPublicCuboidCells = 100'000;

// One immutable version of a dataset with everything releases need. Shared
// by in-flight requests: a Replace or Delete never pulls it from under them.
struct LoadedDataset {
  v1::DatasetManifest manifest;
  // TABLE or GRAPH (UNSPECIFIED in the manifest is stored as TABLE).
  v1::DatasetKind kind = v1::DATASET_KIND_TABLE;
  uint64_t version = 1;
  absl::Time registered_at;
  uint64_t csv_bytes = 0;

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
  // The conflict graph, built in the background; never null for tables.
  std::shared_ptr<ConflictGraphSlot> conflict_graph;

  // ---- Graphs ----
  core::selection::LabeledGraph edge_graph;  // private edges
  uint64_t edge_lines = 0;                   // data lines of the edge list

  bool is_graph() const { return kind == v1::DATASET_KIND_GRAPH; }
  // The privacy unit of this kind of dataset.
  const char* neighbouring() const {
    return is_graph() ? kEdgeNeighbouring : kTupleNeighbouring;
  }
  // OK if this dataset answers `rpc` (one of the k* names above), else
  // kFailedPrecondition naming the dataset, its kind and what it answers.
  absl::Status CheckAnswers(const char* rpc) const;

  // Waits for the conflict graph (tables only: kFailedPrecondition for
  // graphs). Errors: see ConflictGraphSlot::Wait.
  absl::StatusOr<const ConflictGraphData*> WaitForConflictGraph(
      absl::Time deadline,
      const std::function<bool()>& cancelled = nullptr) const;

  // What buyers may see: no rows, no sizes (row_count only if public).
  v1::DatasetInfo PublicInfo() const;
  // True sizes, for admins (edges 0 and graph_ready false while the
  // conflict graph is being built).
  v1::DatasetStats Stats() const;
};

class DatasetRegistry {
 public:
  struct Options {
    std::string data_dir;  // datasets live in data_dir/datasets/
    uint64_t max_csv_bytes = uint64_t{1} << 30;
    size_t max_rows = 10'000'000;
    int graph_threads = 0;  // 0 = all cores
    uint64_t max_edges = core::graph::kDefaultMaxConflictGraphEdges;
    // Graph datasets: most nodes and most edges of an edge list.
    uint64_t max_graph_nodes = 1'000'000;
    uint64_t max_graph_edges = 10'000'000;
    // How many conflict graphs may be built at once in the background.
    int graph_build_workers = 1;
    // Tests only: runs on the worker before each conflict-graph build (to
    // hold a build back and observe requests waiting for it).
    std::function<void(const std::string& dataset_id)> before_graph_build;
  };

  // Creates data_dir/datasets if needed and loads every dataset in it
  // (parse, validate, cube schema and public cuboids); their conflict
  // graphs are queued for the background workers. A dataset that fails to
  // load is an error naming it (the operator must fix or remove it): the
  // server never silently drops a dataset buyers have budgets on.
  static absl::StatusOr<std::unique_ptr<DatasetRegistry>> Open(
      const Options& options);

  // kNotFound naming the id.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Get(
      const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // Every dataset, sorted by id.
  std::vector<std::shared_ptr<const LoadedDataset>> List() const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Validates the manifest (id syntax, kind; tables: public_max_rows >= 1
  // and >= rows, DCs against the CSV's schema, cube dimensions, at most two
  // public cuboids over known dimensions, whose exact counts it computes;
  // graphs: a well-formed edge list within the node/edge limits), then
  // writes data.csv and manifest.json durably (temp file, fsync, rename),
  // publishes the dataset and queues its conflict-graph build (returns
  // before it is built). kAlreadyExists if the id is taken;
  // kInvalidArgument for bad input (the message names the field, line or
  // column); kResourceExhausted above the size limits.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Register(
      const v1::DatasetManifest& manifest, std::string csv_text)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Same checks; the id must exist (kNotFound). version = old version + 1.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Replace(
      const v1::DatasetManifest& manifest, std::string csv_text)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Removes the files and the in-memory dataset (a queued graph build of it
  // is dropped). kNotFound if unknown.
  absl::Status Delete(const std::string& dataset_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Reads a CSV from a path on the server for uploads by `server_path`.
  // kNotFound / kResourceExhausted (above max_csv_bytes).
  absl::StatusOr<std::string> ReadServerFile(const std::string& path) const;

  // True if the dataset exists now.
  bool Contains(const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);

  const Options& options() const { return options_; }

  // Blocks until no conflict-graph build is queued or running (tests).
  void WaitForGraphBuilds();

  ~DatasetRegistry();

 private:
  explicit DatasetRegistry(Options options);

  // Queues the background conflict-graph build of a new table version.
  void QueueGraphBuild(std::shared_ptr<const LoadedDataset> d);
  // Cancels the build of a superseded version if it has not started
  // (`what`: "replaced" or "deleted", for the waiters' error).
  static void CancelGraphBuild(const LoadedDataset& d, const char* what);
  // BuildDataset for an upload (graphs are parsed from a temporary file).
  absl::StatusOr<std::shared_ptr<LoadedDataset>> ParseUpload(
      const v1::DatasetManifest& manifest, absl::string_view csv_text);

  // Loads data_dir/datasets/<id>/ (at Open, before the registry is shared).
  absl::Status LoadFromDisk(const std::string& dir_path)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Register (replace = false) or Replace (replace = true).
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Write(
      const v1::DatasetManifest& manifest, std::string csv_text, bool replace)
      ABSL_LOCKS_EXCLUDED(mu_, write_mu_);
  // kNotFound if must_exist and absent, kAlreadyExists if !must_exist and
  // present.
  absl::Status CheckPresence(const std::string& id, bool must_exist) const
      ABSL_LOCKS_EXCLUDED(mu_);

  Options options_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<const LoadedDataset>>
      datasets_ ABSL_GUARDED_BY(mu_);
  // Serialises the publishing step of Register/Replace/Delete (presence
  // check, version, files, map). The slow part, parsing and building the
  // graph, runs before it without any lock; Get/List only take mu_ briefly.
  absl::Mutex write_mu_;
  std::atomic<uint64_t> upload_counter_{0};
  // Declared last: destroyed first, so no build outlives the registry.
  std::unique_ptr<GraphBuildQueue> builds_;
};

// A cuboid with its cells (labels and counts) as the API shows it.
v1::Cuboid CuboidToProto(const core::cube::Cuboid& cuboid);

// Valid dataset and buyer ids: 1-64 characters from [A-Za-z0-9_.-],
// starting with a letter or digit. kInvalidArgument naming `field`.
absl::Status ValidateId(const std::string& id, const char* field);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
