// The datasets a server holds (design.md sections 3 and 6): each lives in
// DATA_DIR/datasets/<id>/ as data.csv + manifest.json (the DatasetManifest
// proto in JSON, protobuf's own mapping) + state.txt ("version <n>" and
// "registered_at <RFC 3339>" lines), is loaded at start-up, and is kept in
// memory together with its conflict graph and degree bounds, so that
// releases only run the DP mechanisms on a cached graph.
//
// Durability: a new version is written as a complete, fsynced directory
// DATA_DIR/datasets/.staging-<id>/ and then renamed into place (Replace
// first renames the current version to .old-<id>); the parent directory is
// fsynced. Delete renames to .trash-<id> first. Open finishes or rolls back
// whatever a crash left half done, so a dataset is always either the old or
// the new version, never a mix.
#ifndef DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
#define DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/degree_bound.h"
#include "core/table/table.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/dataset.pb.h"

namespace dpq::server::registry {

// The privacy unit of every tabular dataset (design.md 5.1).
inline constexpr char kTupleNeighbouring[] =
    "one row added or removed (unbounded DP)";

// One immutable version of a dataset with everything releases need. Shared
// by in-flight requests: a Replace or Delete never pulls it from under them.
struct LoadedDataset {
  v1::DatasetManifest manifest;
  core::table::Table table;  // private rows: never leave the server
  std::vector<core::constraints::DenialConstraint> dcs;
  core::graph::ConflictGraph graph;
  std::vector<core::private_measures::DcDegreeBound> degree_bounds;
  uint64_t version = 1;
  absl::Time registered_at;
  uint64_t csv_bytes = 0;
  // The manifest's constraint lines that hold a DC (blank and `#` comment
  // lines dropped, surrounding whitespace trimmed), in order: public.
  std::vector<std::string> constraint_lines;

  // What buyers may see: no rows, no sizes (row_count only if public).
  v1::DatasetInfo PublicInfo() const;
  // True sizes, for admins.
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
  };

  // Creates data_dir/datasets if needed and loads every dataset in it.
  // A dataset that fails to load is an error naming it (the operator must
  // fix or remove it): the server never silently drops a dataset buyers
  // have budgets on.
  static absl::StatusOr<std::unique_ptr<DatasetRegistry>> Open(
      const Options& options);

  // kNotFound naming the id.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Get(
      const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // Every dataset, sorted by id.
  std::vector<std::shared_ptr<const LoadedDataset>> List() const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Validates the manifest (id syntax, public_max_rows >= 1 and >= rows,
  // DCs against the CSV's schema), parses the CSV, builds the conflict graph
  // and degree bounds, then writes data.csv and manifest.json durably (temp
  // file, fsync, rename) and publishes the dataset. kAlreadyExists if the id
  // is taken; kInvalidArgument for bad input (the message names the field,
  // line or column); kResourceExhausted above the size limits.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Register(
      const v1::DatasetManifest& manifest, std::string csv_text)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Same checks; the id must exist (kNotFound). version = old version + 1.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Replace(
      const v1::DatasetManifest& manifest, std::string csv_text)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Removes the files and the in-memory dataset. kNotFound if unknown.
  absl::Status Delete(const std::string& dataset_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Reads a CSV from a path on the server for uploads by `server_path`.
  // kNotFound / kResourceExhausted (above max_csv_bytes).
  absl::StatusOr<std::string> ReadServerFile(const std::string& path) const;

  // True if the dataset exists now.
  bool Contains(const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);

  const Options& options() const { return options_; }

 private:
  explicit DatasetRegistry(Options options) : options_(std::move(options)) {}

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
};

// Valid dataset and buyer ids: 1-64 characters from [A-Za-z0-9_.-],
// starting with a letter or digit. kInvalidArgument naming `field`.
absl::Status ValidateId(const std::string& id, const char* field);

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
