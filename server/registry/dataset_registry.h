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
//
// With a shared catalog (Options::catalog, the PostgreSQL mode of
// docs/operations.md) several replicas serve the same datasets. The
// catalog is the authority: Register and Replace build and validate
// locally as above (every error before anything is written), then publish
// the frozen version to the catalog (where a concurrent change of the same
// id through another replica makes one of them fail cleanly), then store
// it in the data directory, now a cache, and publish it in memory. Delete
// removes from the catalog first. Open reconciles the cache with the
// catalog (a cached version is kept if its version, texts and content hash
// match, else fetched; a cached dataset the catalog lacks is removed) and
// loads every dataset; then a thread polls the catalog version every
// catalog_poll_interval and, when it changed, reconciles the same way: new
// and replaced versions are fetched into the cache and loaded exactly as
// at start-up, deleted ones dropped. So a change made through one replica
// is served by every other within the interval plus the version's load
// time. A replaced dataset keeps its old version served until the new one
// is loaded here, then Serve swaps them in one step: no buyer sees a gap
// whose length depends on the new version's size (release fingerprints
// include the version, so a replay never mixes them). Deletions are
// quicker: each poll first stops serving, under mu_ alone, every dataset
// the catalog deleted, so that a long write on this replica (an upload
// holding write_mu_) never delays them.
//
// Every table version records its graph's edge count, cover bound and
// degree bounds (state.txt, and the catalog's copy); a rebuild after a
// start or on another replica that fails or differs refuses the version
// on that replica (Get: kUnavailable, before any charge), logs it and
// counts it in dpq_datasets_refused.
#ifndef DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
#define DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
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
#include "server/registry/dataset_catalog.h"
#include "server/registry/dataset_directory.h"
#include "server/registry/dataset_id.h"
#include "server/registry/graph_build_queue.h"
#include "server/registry/loaded_dataset.h"
#include "server/registry/polling_thread.h"
#include "server/registry/registry_options.h"
#include "server/registry/server_import.h"
#include "server/registry/version_state.h"

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
  //
  // With a catalog: first the cache is reconciled with it (see the file
  // comment; a fetch that fails verification is an error naming the
  // dataset), then polling starts. kUnavailable if the catalog cannot be
  // reached; kFailedPrecondition if data_dir/datasets holds a dataset the
  // catalog lacks and was never a cache of it (an embedded data directory:
  // its datasets are imported, not deleted).
  static absl::StatusOr<std::unique_ptr<DatasetRegistry>> Open(
      const Options& options);

  // kNotFound naming the id. kUnavailable (DatasetRefusedError) for a
  // stored version whose conflict graph could not be rebuilt as it was
  // registered (docs/operations.md, "Recorded bounds").
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
  // With a catalog, also kAlreadyExists if another replica registered the
  // id first, and kUnavailable if the catalog cannot be reached (nothing
  // is served here then; if the catalog took it nonetheless, polling
  // loads it).
  // `deadline` is the admin's call's: the conflict graph build and the
  // exact-repair proof stop once it passes (kDeadlineExceeded, nothing is
  // registered), so a registration never goes on after its caller left.
  // `received_at` is the version's registered_at (DatasetInfo, shown to
  // buyers): the time the admin's call began, taken by the caller before
  // it read the data (upload stream or server file); nullopt: now, on
  // entry, before the rows are parsed. Never a time after the build, whose
  // length depends on the rows (docs/privacy.md, "registered_at").
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Register(
      const v1::DatasetManifest& manifest, std::string csv_text,
      CsvSource source = CsvSource::kUpload,
      absl::Time deadline = absl::InfiniteFuture(),
      std::optional<absl::Time> received_at = std::nullopt)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Same checks; the id must exist (kNotFound). version = old version + 1.
  // Columns the manifest leaves untyped keep the replaced version's types;
  // the public exact cuboids and the kind must stay the same
  // (kFailedPrecondition). kAborted if the dataset was replaced meanwhile
  // (here or, with a catalog, through another replica).
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Replace(
      const v1::DatasetManifest& manifest, std::string csv_text,
      CsvSource source = CsvSource::kUpload,
      absl::Time deadline = absl::InfiniteFuture(),
      std::optional<absl::Time> received_at = std::nullopt)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Removes the files and the in-memory dataset. kNotFound if unknown.
  // With a catalog, removes it there first (it is then gone on every
  // replica within the poll interval); kNotFound if the catalog lacks it.
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

  // With a catalog: reconciles now if the catalog version changed since
  // the last reconciliation (what the polling thread does each interval).
  // kUnavailable if the catalog cannot be reached. OK without a catalog.
  absl::Status SyncWithCatalog() ABSL_LOCKS_EXCLUDED(write_mu_);

  ~DatasetRegistry();

 private:
  DatasetRegistry(Options options, DatasetDirectory directory);

  // Queues the background conflict-graph build of a loaded table version.
  void QueueGraphBuild(std::shared_ptr<const LoadedDataset> d);

  // Loads the stored dataset `id` and publishes it in memory (at Open, and
  // for a version fetched from the catalog: `catalog_revision` is its
  // CatalogEntry::revision).
  absl::Status LoadFromDisk(const std::string& id, int64_t catalog_revision = 0)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Makes `d` the served version of its dataset (replacing the served one
  // in one step under mu_).
  void Serve(std::shared_ptr<const LoadedDataset> d) ABSL_LOCKS_EXCLUDED(mu_);
  // A stored version whose graph rebuild failed or did not reproduce what
  // registration recorded (`why`): refused by Get from now on, logged for
  // the operator, counted in dpq_datasets_refused.
  void Refuse(const LoadedDataset& d, const absl::Status& why);
  // The version in the map, refused or not; null if none.
  std::shared_ptr<const LoadedDataset> Served(
      const std::string& dataset_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // True once `d` was refused.
  static bool Refused(const LoadedDataset& d);
  // Writes the rebuilt graph's edge count and bounds into the state.txt of
  // a version stored without them (embedded mode; `d` still served).
  void RecordRebuiltGraph(const LoadedDataset& d, const ConflictGraphData& data)
      ABSL_LOCKS_EXCLUDED(write_mu_, mu_);

  // ---- The shared catalog (dataset_registry_sync.cc) ----
  // Open's part with a catalog: reconcile, then start polling.
  absl::Status OpenWithCatalog() ABSL_LOCKS_EXCLUDED(write_mu_);
  // One poll: Sync without waiting for write_mu_, its failures logged
  // (once while they last).
  void PollCatalog() ABSL_LOCKS_EXCLUDED(write_mu_);
  // SyncWithCatalog; if `wait` is false and a write holds write_mu_, only
  // its first step (UnpublishStale), the rest at a later poll.
  absl::Status Sync(bool wait) ABSL_LOCKS_EXCLUDED(write_mu_, mu_);
  // Reconciles with a fresh snapshot unless `catalog_version` was
  // reconciled already.
  absl::Status ReconcileIfChanged(int64_t catalog_version)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Stops serving, under mu_ only, every dataset that `snapshot` lacks (or
  // holds as a dataset deleted and registered again). A replaced one is
  // kept until Reconcile loads its new version. Versions published after
  // the snapshot was read are kept.
  void UnpublishStale(const CatalogSnapshot& snapshot) ABSL_LOCKS_EXCLUDED(mu_);
  // Brings the cache and memory to `snapshot`. `strict` (at Open): the
  // first dataset that cannot be fetched or loaded is the error; else such
  // a dataset is logged and not served, and retried when its entry
  // changes (or at the next poll if the failure was kUnavailable).
  absl::Status Reconcile(const CatalogSnapshot& snapshot, bool strict)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Makes `entry` the cached and served version: keeps the cached copy if
  // it matches, else fetches it; then loads it.
  absl::Status ApplyEntry(const CatalogEntry& entry, bool* cache_write_failed)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // True if the cache holds exactly this version (texts and content hash).
  bool CacheHolds(const CatalogEntry& entry,
                  const v1::DatasetManifest& manifest,
                  const VersionState& state) const;
  // Stops serving `id` (memory only); Get says kNotFound.
  void Unpublish(const std::string& id) ABSL_LOCKS_EXCLUDED(mu_);
  // Stops serving `id` and removes its cached copy.
  absl::Status Drop(const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Write's last step with a catalog: publishes the new version `d` to
  // the catalog (`replaces`: the version it replaces; sets
  // d.catalog_revision), then stores it in the cache. The caller publishes
  // it in memory.
  absl::Status PublishEverywhere(LoadedDataset& d, const VersionState& state,
                                 absl::string_view data,
                                 const std::string& content_sha256,
                                 std::optional<uint64_t> replaces)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Delete with a catalog.
  absl::Status DeleteFromCatalog(const std::string& id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Register (replace = false) or Replace (replace = true).
  absl::StatusOr<std::shared_ptr<const LoadedDataset>> Write(
      const v1::DatasetManifest& manifest, std::string csv_text, bool replace,
      CsvSource source, absl::Time deadline, absl::Time registered_at)
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
  // With a catalog: the version of each dataset served from it, the
  // versions that failed to load (not retried until their entry changes),
  // and the catalog version reconciled last (-1: never).
  absl::flat_hash_map<std::string, CatalogEntry> synced_
      ABSL_GUARDED_BY(write_mu_);
  absl::flat_hash_map<std::string, CatalogEntry> failed_
      ABSL_GUARDED_BY(write_mu_);
  // Versions this replica's cache could not hold (a full disk): retried at
  // every poll until they fit.
  absl::flat_hash_map<std::string, CatalogEntry> uncached_
      ABSL_GUARDED_BY(write_mu_);
  int64_t synced_version_ ABSL_GUARDED_BY(write_mu_) = -1;
  // The catalog version UnpublishStale checked last (-1: never).
  std::atomic<int64_t> checked_version_{-1};
  // A reconciliation met kUnavailable: the next poll reconciles even if
  // the catalog version did not change.
  bool retry_ ABSL_GUARDED_BY(write_mu_) = false;
  // The last polling failure logged ("" while polling succeeds), so that
  // a lasting one is logged once. Only the polling thread uses it.
  std::string poll_error_logged_;
  // Set by the destructor: a reconciliation in progress stops early.
  std::atomic<bool> closing_{false};
  // Destroyed explicitly first (see the destructor).
  std::unique_ptr<GraphBuildQueue> builds_;
  std::unique_ptr<PollingThread> poller_;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_REGISTRY_H_
