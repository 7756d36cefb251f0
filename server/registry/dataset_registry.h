// The datasets a server holds, in memory, with everything releases need:
// the map of LoadedDataset versions (lookups, versions), and the
// orchestration of Register, Replace and Delete, which build a version
// (dataset_builder.h), store it (dataset_directory.h: DATA_DIR/datasets/
// <id>/ with data.csv, manifest.json and state.txt, written atomically)
// and publish it. Open loads every stored dataset at start-up.
//
// Two kinds (manifest `kind`): tables (a CSV with a header, unbounded
// tuple-DP, or induced neighbours under public exact cuboids) with their
// data-cube schema, the exact counts of the public exact cuboids and a
// conflict graph; and graphs (an edge-list CSV `source,target` over a
// declared node universe, edge-DP) for influential-node selection.
//
// Everything that depends on the rows and could refuse or limit a release
// is decided at registration (dataset_builder.h): Register and Replace
// build the conflict graph before they return, and fail if it cannot be
// built. After a server start the graphs are rebuilt in the background
// (at most Options::graph_build_workers at once) from the same rows, which
// gives the same graph; a release that needs one meanwhile waits for it
// after its charge (see LoadedDataset::WaitForConflictGraph).
#ifndef DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
#define DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_

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
#include "dpq/v1/dataset.pb.h"
#include "server/registry/dataset_directory.h"
#include "server/registry/dataset_id.h"
#include "server/registry/graph_build_queue.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/registry_options.h"
#include "server/registry/server_import.h"

namespace dpq::server::registry {

class DatasetRegistry {
 public:
  using Options = RegistryOptions;

  // Creates data_dir/datasets if needed and loads every dataset in it
  // (parse, validate, cube schema and public cuboids; a manifest written
  // before types, domains and node universes were frozen is frozen now and
  // rewritten); their conflict graphs are queued for the background
  // workers. A dataset that fails to load is an error naming it (the
  // operator must fix or remove it): the server never silently drops a
  // dataset buyers have budgets on. So is a table whose recorded edge count
  // exceeds max_edges (its graph could not be rebuilt).
  static absl::StatusOr<std::unique_ptr<DatasetRegistry>> Open(
      const Options& options);

  // kNotFound naming the id.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Get(
      const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // Every dataset, sorted by id.
  std::vector<std::shared_ptr<const LoadedDataset>> List() const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Builds the version from `csv_text` in memory (dataset_builder.h:
  // manifest, rows under declared or explicitly inferred types, DCs, cube,
  // public cuboids, node universe) and, for tables, its conflict graph;
  // then stores it once, durably (DatasetDirectory::Publish), and
  // publishes it. kAlreadyExists if the id is taken;
  // kInvalidArgument for bad input (the message names the field, line or
  // column); kResourceExhausted above the size limits (max_edges included).
  // With source kServerPath no error quotes the CSV (server_import.h).
  // `deadline` is the admin's call's: the conflict graph build and the
  // exact-repair proof stop once it passes (kDeadlineExceeded, nothing is
  // registered), so a registration never goes on after its caller left.
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Register(
      const v1::DatasetManifest& manifest, std::string csv_text,
      CsvSource source = CsvSource::kUpload,
      absl::Time deadline = absl::InfiniteFuture()) ABSL_LOCKS_EXCLUDED(mu_);
  // Same checks; the id must exist (kNotFound). version = old version + 1.
  // Columns the manifest leaves untyped keep the replaced version's types;
  // the public exact cuboids and the kind must stay the same
  // (kFailedPrecondition).
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Replace(
      const v1::DatasetManifest& manifest, std::string csv_text,
      CsvSource source = CsvSource::kUpload,
      absl::Time deadline = absl::InfiniteFuture()) ABSL_LOCKS_EXCLUDED(mu_);
  // Removes the files and the in-memory dataset. kNotFound if unknown.
  absl::Status Delete(const std::string& dataset_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Reads a CSV from a path on the server for uploads by `server_path`:
  // only a regular file inside options().import_dir and outside data_dir
  // (ResolveImportPath: kFailedPrecondition while imports are off,
  // kPermissionDenied outside, kNotFound, kInvalidArgument), at most
  // max_csv_bytes (kResourceExhausted). Never quotes the file.
  absl::StatusOr<std::string> ReadServerFile(const std::string& path) const;

  // True if the dataset exists now.
  bool Contains(const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);

  const Options& options() const { return options_; }

  // Blocks until no conflict-graph build is queued or running (tests).
  void WaitForGraphBuilds();

  ~DatasetRegistry();

 private:
  DatasetRegistry(Options options, DatasetDirectory directory);

  // Queues the background conflict-graph build of a loaded table version.
  void QueueGraphBuild(std::shared_ptr<const LoadedDataset> d);

  // Loads the stored dataset `id` (at Open, before the registry is shared).
  absl::Status LoadFromDisk(const std::string& id) ABSL_LOCKS_EXCLUDED(mu_);
  // Register (replace = false) or Replace (replace = true).
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Write(
      const v1::DatasetManifest& manifest, std::string csv_text, bool replace,
      CsvSource source, absl::Time deadline)
      ABSL_LOCKS_EXCLUDED(mu_, write_mu_);
  // kNotFound if must_exist and absent, kAlreadyExists if !must_exist and
  // present.
  absl::Status CheckPresence(const std::string& id, bool must_exist) const
      ABSL_LOCKS_EXCLUDED(mu_);

  Options options_;
  // The files; written only under write_mu_ (and at Open).
  const DatasetDirectory directory_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<const LoadedDataset>>
      datasets_ ABSL_GUARDED_BY(mu_);
  // Serialises the publishing step of Register/Replace/Delete (presence
  // check, version, files, map). The slow part, parsing and building the
  // graph, runs before it without any lock; Get/List only take mu_ briefly.
  absl::Mutex write_mu_;
  // Declared last: destroyed first, so no build outlives the registry.
  std::unique_ptr<GraphBuildQueue> builds_;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
