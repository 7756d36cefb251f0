#include "server/registry/dataset_registry.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/table/mapped_file.h"
#include "core/util/diagnostic_log.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "core/util/validate.h"
#include "server/registry/build_context.h"
#include "server/registry/dataset_builder.h"
#include "server/registry/dataset_id.h"
#include "server/registry/manifest.h"
#include "server/registry/version_state.h"

namespace dpq::server::registry {
namespace {

// The options Open refuses, checked before it touches the disk.
absl::Status ValidateOptions(const RegistryOptions& options) {
  if (options.data_dir.empty()) {
    return absl::InvalidArgumentError("data_dir must not be empty.");
  }
  RETURN_IF_ERROR(
      core::util::ValidateAtLeast(options.graph_threads, 0, "graph_threads"));
  if (options.max_edges == 0 || options.max_rows == 0 ||
      options.max_csv_bytes == 0) {
    return absl::InvalidArgumentError(
        "max_edges, max_rows and max_csv_bytes must be > 0.");
  }
  RETURN_IF_ERROR(core::util::ValidateInRange(options.graph_build_workers, 1,
                                              16, "graph_build_workers"));
  if (options.catalog != nullptr &&
      options.catalog_poll_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("catalog_poll_interval must be > 0, but is ",
                     absl::FormatDuration(options.catalog_poll_interval), "."));
  }
  return absl::OkStatus();
}

// A stored table whose conflict graph had more edges than this server
// allows could not be rebuilt: refusing the start says so now, instead of
// failing its buyers later.
absl::Status CheckRecordedEdges(const VersionState& state, uint64_t max_edges) {
  if (!state.edges.has_value() || *state.edges <= max_edges) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "its conflict graph has ", *state.edges,
      " edges, above this server's max_edges (", max_edges,
      "), so it cannot be rebuilt; raise the limit back or delete the "
      "dataset."));
}

// A stored version registered before the text contract is served as it
// is, with invalid UTF-8 repaired in every response; the operator is told
// which to fix.
void WarnIfTextContractBroken(const std::string& id, const LoadedDataset& d,
                              absl::string_view csv_text) {
  const absl::Status text = CheckTextContract(d, csv_text);
  if (text.ok()) return;
  core::util::LogWarning(absl::StrCat(
      "dataset '", id, "' breaks the text contract (", text.message(),
      "); responses show U+FFFD for invalid bytes. Replace it with UTF-8, "
      "printable data."));
}

using core::util::LogError;

// What state.txt records of a version whose graph is `graph` (null for a
// graph dataset).
VersionState StateOf(const LoadedDataset& d, const ConflictGraphData* graph) {
  VersionState state;
  state.version = d.version;
  state.registered_at = d.registered_at;
  state.exact_repair = d.exact_repair;
  if (graph != nullptr) {
    state.edges = graph->graph.graph.num_edges();
    state.cover_bound = graph->cover_bound;
    state.degree_bounds = graph->degree_bounds;
    state.cross_bounds_recorded = true;
    state.release_cost = d.release_cost;
  }
  return state;
}

}  // namespace

DatasetRegistry::DatasetRegistry(Options options, DatasetDirectory directory)
    : options_(std::move(options)),
      directory_(std::move(directory)),
      builds_(std::make_unique<GraphBuildQueue>(options_.graph_build_workers)) {
}

DatasetRegistry::~DatasetRegistry() {
  // Polling stops first (it loads versions and queues their builds); then
  // queued builds are dropped (their slots are cancelled) and the workers
  // joined before the datasets go.
  closing_ = true;
  poller_.reset();
  builds_.reset();
}

void DatasetRegistry::WaitForGraphBuilds() { builds_->WaitIdle(); }

void DatasetRegistry::QueueGraphBuild(std::shared_ptr<const LoadedDataset> d) {
  if (d->is_graph()) return;
  std::shared_ptr<ConflictGraphSlot> slot = d->conflict_graph;
  // The job holds the version (rows, DCs) until it has run. A version that
  // is replaced or deleted meanwhile is still built: a request that holds
  // it (and was charged) waits for its graph, and whether the build had
  // started must not decide anything a buyer sees. The destructor joins
  // the workers before anything else goes, so `this` outlives the job.
  auto build = [this, d]() {
    ConflictGraphSlot& slot = *d->conflict_graph;
    if (!slot.TryStart()) return;  // dropped at shutdown
    if (options_.before_graph_build) {
      options_.before_graph_build(d->manifest.dataset_id());
    }
    absl::StatusOr<ConflictGraphData> data =
        BuildConflictGraphData(options_, *d);
    // The registration built this graph from the same rows: a failure or
    // another value now is this replica's fault (code, options, memory),
    // known before the slot is ready, so the recomputed values never
    // reach a release.
    absl::Status rebuilt = data.status();
    if (rebuilt.ok()) rebuilt = CheckRebuild(d->recorded, *data);
    if (!rebuilt.ok()) {
      Refuse(*d, rebuilt);
      return;
    }
    if (!d->recorded.complete()) RecordRebuiltGraph(*d, *data);
    slot.SetReady(*std::move(data));
  };
  auto drop = [slot]() {
    slot->Cancel(absl::UnavailableError(
        "The server is shutting down before the dataset's conflict graph "
        "was rebuilt. Retry with the same request_id: the charge stands and "
        "the retry returns the answer."));
  };
  builds_->Enqueue(std::move(build), std::move(drop));
}

void DatasetRegistry::Refuse(const LoadedDataset& d, const absl::Status& why) {
  // Get refuses the version from now on (before any charge); requests
  // that hold it already get kUnavailable from the slot.
  d.conflict_graph->SetFailed(why);
  LogError(absl::StrCat(
      "dataset '", d.manifest.dataset_id(), "' version ", d.version,
      " is not served by this replica: ", why.message(),
      " Its stored copy or this server differs from the registering one; "
      "replace the dataset or restore the server's version and options."));
}

void DatasetRegistry::RecordRebuiltGraph(const LoadedDataset& d,
                                         const ConflictGraphData& data) {
  // A catalog row is the registering replica's text: each replica would
  // rewrite it, so an old row is recorded by its next replacement instead.
  if (options_.catalog != nullptr) return;
  const std::string& id = d.manifest.dataset_id();
  absl::MutexLock write_lock(&write_mu_);
  {
    absl::ReaderMutexLock lock(&mu_);
    auto it = datasets_.find(id);
    if (it == datasets_.end() || it->second.get() != &d) return;  // replaced
  }
  const absl::Status recorded = directory_.RewriteState(id, StateOf(d, &data));
  if (!recorded.ok()) {
    core::util::LogWarning(absl::StrCat(
        "cannot record the bounds of dataset '", id, "' in its state.txt (",
        recorded.message(),
        "); they are checked from the next start that records them."));
  }
}

absl::StatusOr<std::unique_ptr<DatasetRegistry>> DatasetRegistry::Open(
    const Options& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  ASSIGN_OR_RETURN(DatasetDirectory directory,
                   DatasetDirectory::Open(options.data_dir));
  ASSIGN_OR_RETURN(const std::vector<std::string> ids, directory.ListIds());
  std::unique_ptr<DatasetRegistry> registry(
      new DatasetRegistry(options, std::move(directory)));
  if (options.catalog != nullptr) {
    RETURN_IF_ERROR(registry->OpenWithCatalog());
    return registry;
  }
  for (const std::string& id : ids) {
    absl::Status s = registry->LoadFromDisk(id);
    if (!s.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("Cannot load dataset '", id, "' from '",
                       registry->directory_.PathOf(id).string(), "': "),
          s);
    }
  }
  return registry;
}

absl::Status DatasetRegistry::LoadFromDisk(const std::string& id,
                                           int64_t catalog_revision) {
  ASSIGN_OR_RETURN(const StoredVersion stored, directory_.ReadVersion(id));
  RETURN_IF_ERROR(ValidateManifest(stored.manifest));
  RETURN_IF_ERROR(CheckRecordedEdges(stored.state, options_.max_edges));
  // Mapped, not read into a string: the CSV streams from the page cache.
  ASSIGN_OR_RETURN(const core::table::MappedFile csv, directory_.MapData(id));
  BuildContext context;
  context.stored = true;
  bool migrated = false;
  ASSIGN_OR_RETURN(
      std::shared_ptr<LoadedDataset> d,
      BuildDataset(options_, stored.manifest, csv.view(), context, &migrated));
  d->version = stored.state.version;
  d->catalog_revision = catalog_revision;
  d->registered_at = stored.state.registered_at;
  // Versions stored before the bounds were recorded lack them: the first
  // rebuild records them (RecordRebuiltGraph) and later ones are checked.
  d->recorded.edges = stored.state.edges;
  d->recorded.cover_bound = stored.state.cover_bound;
  d->recorded.degree_bounds = stored.state.degree_bounds;
  d->recorded.cross_bounds_recorded = stored.state.cross_bounds_recorded;
  // Fixed at registration; a version stored before it was recorded takes it
  // from its recorded edge count (heavy without one).
  if (stored.state.release_cost.has_value()) {
    d->release_cost = *stored.state.release_cost;
  } else if (stored.state.edges.has_value()) {
    d->release_cost =
        core::private_measures::ReleaseCostOf(*stored.state.edges);
  }
  WarnIfTextContractBroken(id, *d, csv.view());
  if (d->manifest.exact_repair() && !stored.state.exact_repair.has_value()) {
    return absl::DataLossError(
        "state.txt lacks the exact_repair value its manifest asks for.");
  }
  d->exact_repair = stored.state.exact_repair;
  d->notes.clear();  // registration notes were the owner's, back then
  if (migrated) {
    // Written by an older server: freeze what it inferred from these rows
    // (the same types, domains and nodes buyers saw) so it is never
    // inferred again.
    RETURN_IF_ERROR(directory_.RewriteManifest(id, d->manifest));
  }
  Serve(d);
  QueueGraphBuild(std::move(d));
  return absl::OkStatus();
}

void DatasetRegistry::Serve(std::shared_ptr<const LoadedDataset> d) {
  // The replaced version's last reference here goes outside mu_.
  const std::string id = d->manifest.dataset_id();
  absl::MutexLock lock(&mu_);
  datasets_[id].swap(d);
}

bool DatasetRegistry::Refused(const LoadedDataset& d) {
  return d.conflict_graph != nullptr &&
         d.conflict_graph->state() == ConflictGraphSlot::State::kFailed;
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Get(
    const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = datasets_.find(dataset_id);
  if (it == datasets_.end()) return DatasetNotFoundError(dataset_id);
  if (Refused(*it->second)) return DatasetRefusedError(dataset_id);
  return it->second;
}

std::shared_ptr<const LoadedDataset> DatasetRegistry::Served(
    const std::string& dataset_id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = datasets_.find(dataset_id);
  return it == datasets_.end() ? nullptr : it->second;
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
    const v1::DatasetManifest& manifest, std::string csv_text, CsvSource source,
    absl::Time deadline, std::optional<absl::Time> received_at) {
  return Write(manifest, std::move(csv_text), /*replace=*/false, source,
               deadline, received_at.value_or(absl::Now()));
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Replace(
    const v1::DatasetManifest& manifest, std::string csv_text, CsvSource source,
    absl::Time deadline, std::optional<absl::Time> received_at) {
  return Write(manifest, std::move(csv_text), /*replace=*/true, source,
               deadline, received_at.value_or(absl::Now()));
}

absl::StatusOr<std::shared_ptr<const LoadedDataset>> DatasetRegistry::Write(
    const v1::DatasetManifest& manifest, std::string csv_text, bool replace,
    CsvSource source, absl::Time deadline, absl::Time registered_at) {
  RETURN_IF_ERROR(ValidateManifest(manifest));
  const std::string& id = manifest.dataset_id();
  // With a catalog: changes made through other replicas first, so that the
  // check below sees them.
  RETURN_IF_ERROR(SyncWithCatalog());
  // Fail fast before the slow build; checked again under write_mu_.
  RETURN_IF_ERROR(CheckPresence(id, replace));
  BuildContext context;
  // A refused version too: replacing it is how an admin repairs it.
  if (replace) context.previous = Served(id);
  // The slow part (parse the bytes in memory, conflict graph) runs without
  // any lock: other writes and all reads proceed meanwhile. The graph is
  // built now, so that a failure is the owner's error, never a
  // buyer-visible state.
  absl::StatusOr<std::shared_ptr<LoadedDataset>> built =
      BuildDataset(options_, manifest, csv_text, context);
  if (!built.ok()) {
    // Parse errors quote cells and header names: never those of a file
    // read from the server's disk (docs/security.md, item 3).
    return source == CsvSource::kServerPath ? WithoutFileContent(built.status())
                                            : built.status();
  }
  std::shared_ptr<LoadedDataset> d = *std::move(built);
  // Taken before the rows were read (see Register): buyers see it, and a
  // time after the build would tell them how long these rows took.
  d->registered_at = registered_at;
  // Without a catalog, the parsed bytes go to disk while the conflict graph
  // is built, at the lowest CPU priority (data_write_ahead.h), and are
  // removed again if that fails: the write and its fsync fill the cores the
  // graph's single-threaded steps leave idle instead of following them.
  std::unique_ptr<DataWriteAhead> data_on_disk =
      options_.catalog == nullptr ? directory_.StartDataWrite(csv_text)
                                  : nullptr;
  if (options_.before_registration_graph) {
    options_.before_registration_graph(id);
  }
  RETURN_IF_ERROR(BuildRegistrationGraph(options_, deadline, d.get()));
  if (const ConflictGraphData* graph =
          d->is_graph() ? nullptr : d->conflict_graph->ready_data()) {
    d->release_cost =
        core::private_measures::ReleaseCostOf(graph->graph.graph.num_edges());
  }
  // The content hash the catalog verifies every fetch against, computed
  // outside the lock.
  const std::string content_sha256 =
      options_.catalog != nullptr ? core::util::Sha256Hex(csv_text) : "";

  absl::MutexLock write_lock(&write_mu_);
  RETURN_IF_ERROR(CheckPresence(id, replace));
  if (replace) {
    const std::shared_ptr<const LoadedDataset> old = Served(id);
    if (old == nullptr || old != context.previous) {
      return absl::AbortedError(
          absl::StrCat("Dataset '", id,
                       "' was replaced by another call meanwhile; send "
                       "the replacement again."));
    }
    d->version = old->version + 1;
  }
  // Recorded with the graph (state.txt, and the catalog's copy), so that a
  // rebuild after a start or on another replica is checked against it.
  const VersionState state =
      StateOf(*d, d->is_graph() ? nullptr : d->conflict_graph->ready_data());
  if (options_.catalog == nullptr) {
    // The uploaded bytes reached the disk once, during the build.
    RETURN_IF_ERROR(
        directory_.Publish(id, *data_on_disk, d->manifest, state, replace));
  } else {
    RETURN_IF_ERROR(PublishEverywhere(
        *d, state, csv_text, content_sha256,
        replace ? std::optional<uint64_t>(d->version - 1) : std::nullopt));
  }
  Serve(d);
  return std::shared_ptr<const LoadedDataset>(std::move(d));
}

absl::Status DatasetRegistry::CheckPresence(const std::string& id,
                                            bool must_exist) const {
  const bool exists = Contains(id);
  if (must_exist && !exists) {
    return DatasetNotFoundError(id, ": register it first");
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
  if (options_.catalog != nullptr) return DeleteFromCatalog(dataset_id);
  RETURN_IF_ERROR(CheckPresence(dataset_id, /*must_exist=*/true));
  RETURN_IF_ERROR(directory_.Remove(dataset_id));
  // Requests holding the shared_ptr keep their in-memory copy; the last
  // reference here goes outside mu_.
  std::shared_ptr<const LoadedDataset> previous;
  {
    absl::MutexLock lock(&mu_);
    auto it = datasets_.find(dataset_id);
    if (it != datasets_.end()) {
      previous = std::move(it->second);
      datasets_.erase(it);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> DatasetRegistry::ReadServerFile(
    const std::string& path) const {
  return ReadImportFile(path, options_.import_dir, options_.data_dir,
                        options_.max_csv_bytes);
}

}  // namespace dpq::server::registry
