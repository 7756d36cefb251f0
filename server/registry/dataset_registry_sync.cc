// DatasetRegistry with a shared catalog (dataset_catalog.h): the cache
// kept in step with the catalog at Open and by polling, and the catalog
// side of Register, Replace and Delete. See dataset_registry.h.
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "core/table/mapped_file.h"
#include "core/util/diagnostic_log.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "server/metrics/server_metrics.h"
#include "server/registry/dataset_registry.h"
#include "server/registry/manifest.h"

namespace dpq::server::registry {
namespace {

// Open reconciles again when the catalog changed between its snapshot and
// a fetch (another replica replaced or deleted a dataset meanwhile).
constexpr int kOpenAttempts = 5;

using core::util::LogWarning;

// A version the catalog no longer has: the catalog changed after the
// snapshot, so the next reconciliation sees the new state.
absl::Status ChangedMeanwhile(const std::string& id,
                              const absl::Status& status) {
  if (!absl::IsNotFound(status)) return status;
  return absl::AbortedError(
      absl::StrCat("dataset '", id,
                   "' changed in the catalog meanwhile: ", status.message()));
}

// The catalog's texts of a version, parsed and checked against its entry.
struct CatalogTexts {
  v1::DatasetManifest manifest;
  VersionState state;
};

absl::StatusOr<CatalogTexts> ParseRecord(const CatalogEntry& entry,
                                         const CatalogRecord& record) {
  CatalogTexts texts;
  absl::StatusOr<v1::DatasetManifest> manifest =
      ManifestFromJson(record.manifest_json);
  if (!manifest.ok()) {
    return absl::DataLossError(
        absl::StrCat("the catalog's manifest is not a DatasetManifest: ",
                     manifest.status().message()));
  }
  texts.manifest = *std::move(manifest);
  if (texts.manifest.dataset_id() != entry.dataset_id) {
    return absl::DataLossError(
        absl::StrCat("the catalog's manifest names dataset '",
                     texts.manifest.dataset_id(), "'."));
  }
  ASSIGN_OR_RETURN(texts.state,
                   ParseVersionState(record.state_text, "the catalog's state"));
  if (texts.state.version != entry.version) {
    return absl::DataLossError(absl::StrCat(
        "the catalog lists version ", entry.version,
        " but its state records version ", texts.state.version, "."));
  }
  return texts;
}

}  // namespace

absl::Status DatasetRegistry::OpenWithCatalog() {
  absl::MutexLock lock(&write_mu_);
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(const CatalogSnapshot snapshot,
                     options_.catalog->Snapshot());
    if (!directory_.IsCatalogCache()) {
      // Never delete what may be the only copy of a dataset.
      ASSIGN_OR_RETURN(const std::vector<std::string> ids,
                       directory_.ListIds());
      std::vector<std::string> unknown;
      absl::flat_hash_set<std::string> listed;
      for (const CatalogEntry& e : snapshot.datasets)
        listed.insert(e.dataset_id);
      for (const std::string& id : ids) {
        if (!listed.contains(id)) unknown.push_back(absl::StrCat("'", id, "'"));
      }
      if (!unknown.empty()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "The data directory holds dataset(s) ",
            absl::StrJoin(unknown, ", "),
            " that the PostgreSQL catalog lacks: it is an embedded data "
            "directory, not a cache of this database. Import it into the "
            "database (dpq-server --import-sqlite) or start with an empty "
            "data directory."));
      }
    }
    absl::Status reconciled = Reconcile(snapshot, /*strict=*/true);
    if (reconciled.ok()) break;
    if (!absl::IsAborted(reconciled) || attempt == kOpenAttempts) {
      return reconciled;
    }
  }
  RETURN_IF_ERROR(directory_.MarkCatalogCache());
  poller_ = std::make_unique<PollingThread>(options_.catalog_poll_interval,
                                            [this] { PollCatalog(); });
  return absl::OkStatus();
}

absl::Status DatasetRegistry::SyncWithCatalog() { return Sync(/*wait=*/true); }

absl::Status DatasetRegistry::Sync(bool wait) {
  if (options_.catalog == nullptr) return absl::OkStatus();
  ASSIGN_OR_RETURN(const int64_t version, options_.catalog->CatalogVersion());
  if (version != checked_version_.load()) {
    // Refusals first, without write_mu_: a write here may hold it for as
    // long as an upload of max_csv_bytes takes.
    ASSIGN_OR_RETURN(const CatalogSnapshot snapshot,
                     options_.catalog->Snapshot());
    UnpublishStale(snapshot);
    checked_version_ = snapshot.catalog_version;
  }
  if (wait) {
    absl::MutexLock lock(&write_mu_);
    return ReconcileIfChanged(version);
  }
  // Loading waits for the write; the next poll tries again (the catalog
  // version was not marked reconciled), its first step too: a
  // reconciliation that held write_mu_ may have loaded a version from an
  // older snapshot than the one just checked.
  if (!write_mu_.TryLock()) {
    checked_version_ = -1;
    return absl::OkStatus();
  }
  const absl::Status reconciled = ReconcileIfChanged(version);
  write_mu_.Unlock();
  return reconciled;
}

absl::Status DatasetRegistry::ReconcileIfChanged(int64_t catalog_version) {
  if (catalog_version == synced_version_ && !retry_) return absl::OkStatus();
  // Set again below unless this reconciliation completes.
  retry_ = true;
  ASSIGN_OR_RETURN(const CatalogSnapshot snapshot,
                   options_.catalog->Snapshot());
  RETURN_IF_ERROR(Reconcile(snapshot, /*strict=*/false));
  // A version the cache could not hold is tried again at the next poll.
  retry_ = !uncached_.empty();
  return absl::OkStatus();
}

void DatasetRegistry::UnpublishStale(const CatalogSnapshot& snapshot) {
  absl::flat_hash_map<std::string, const CatalogEntry*> listed;
  for (const CatalogEntry& e : snapshot.datasets) listed[e.dataset_id] = &e;
  // The last references here go outside mu_ (declared before the lock).
  std::vector<std::shared_ptr<const LoadedDataset>> stale;
  absl::MutexLock lock(&mu_);
  for (auto it = datasets_.begin(); it != datasets_.end();) {
    const LoadedDataset& d = *it->second;
    auto entry = listed.find(it->first);
    // A version newer than the snapshot was published here after it was
    // read: the snapshot says nothing about it.
    const bool deleted =
        d.catalog_revision <= snapshot.catalog_version && entry == listed.end();
    // Deleted and registered again (the version number started over).
    const bool recreated = entry != listed.end() &&
                           d.catalog_revision < entry->second->revision &&
                           entry->second->version <= d.version;
    // A replacement (a higher version) is not refused here: the old
    // version is served until Reconcile has loaded the new one and Serve
    // swaps them, so no buyer sees a gap whose length depends on the new
    // version's size.
    if (!deleted && !recreated) {
      ++it;
      continue;
    }
    stale.push_back(std::move(it->second));
    datasets_.erase(it++);
  }
}

void DatasetRegistry::PollCatalog() {
  const absl::Status synced = Sync(/*wait=*/false);
  if (synced.ok()) {
    if (!poll_error_logged_.empty()) {
      core::util::LogInfo(
          "the dataset catalog is reachable again; datasets are in step "
          "with it.");
      poll_error_logged_.clear();
    }
    return;
  }
  // An outage is logged once, however its message varies.
  const std::string key = absl::IsUnavailable(synced)
                              ? std::string("unavailable")
                              : synced.ToString();
  if (key == poll_error_logged_) return;
  poll_error_logged_ = key;
  LogWarning(absl::StrCat(
      "cannot bring the datasets in step with the PostgreSQL catalog (",
      absl::StripSuffix(synced.message(), "."),
      "); serving the datasets loaded, retrying every ",
      absl::FormatDuration(options_.catalog_poll_interval), "."));
}

absl::Status DatasetRegistry::Reconcile(const CatalogSnapshot& snapshot,
                                        bool strict) {
  absl::flat_hash_set<std::string> listed;
  for (const CatalogEntry& e : snapshot.datasets) listed.insert(e.dataset_id);
  // Deleted in the catalog: gone here too, from memory and the cache.
  ASSIGN_OR_RETURN(std::vector<std::string> gone, directory_.ListIds());
  for (const std::shared_ptr<const LoadedDataset>& d : List()) {
    gone.push_back(d->manifest.dataset_id());
  }
  for (const std::string& id : gone) {
    if (listed.contains(id)) continue;
    absl::Status dropped = Drop(id);
    if (!dropped.ok()) {
      if (strict) return dropped;
      LogWarning(absl::StrCat(
          "cannot remove dataset '", id,
          "', deleted from the catalog, from the cache: ", dropped.message()));
    }
  }
  for (const CatalogEntry& entry : snapshot.datasets) {
    if (closing_) return absl::OkStatus();
    const std::string& id = entry.dataset_id;
    if (auto it = synced_.find(id);
        it != synced_.end() && it->second == entry) {
      continue;
    }
    if (auto it = failed_.find(id);
        !strict && it != failed_.end() && it->second == entry) {
      continue;  // logged when it failed; retried once the entry changes
    }
    bool cache_write_failed = false;
    absl::Status applied = ApplyEntry(entry, &cache_write_failed);
    if (applied.ok()) {
      synced_[id] = entry;
      failed_.erase(id);
      if (uncached_.erase(id) > 0) {
        LogWarning(absl::StrCat("dataset '", id, "' version ", entry.version,
                                " is in this replica's cache now and "
                                "served again."));
        metrics::ServerMetrics::Default().SetDatasetsUncached(
            static_cast<int64_t>(uncached_.size()));
      }
      continue;
    }
    // Never serve a version the catalog replaced, nor one that failed.
    Unpublish(id);
    synced_.erase(id);
    if (cache_write_failed && !strict) {
      // The replica's disk, not the version: retried at every poll until
      // it fits (logged once per version, counted in dpq_datasets_uncached).
      const bool first = !uncached_.contains(id) || uncached_[id] != entry;
      uncached_[id] = entry;
      metrics::ServerMetrics::Default().SetDatasetsUncached(
          static_cast<int64_t>(uncached_.size()));
      if (first) {
        LogWarning(absl::StrCat(
            "cannot write dataset '", id, "' version ", entry.version,
            " into this replica's cache (",
            absl::StripSuffix(applied.message(), "."),
            "); it is not served by this replica until the cache can hold "
            "it, retried every ",
            absl::FormatDuration(options_.catalog_poll_interval),
            " (dpq_datasets_uncached counts such datasets)."));
      }
      continue;
    }
    applied = core::util::WithPrefix(
        absl::StrCat("Cannot load dataset '", id, "' version ", entry.version,
                     " from the catalog: "),
        applied);
    if (strict || absl::IsUnavailable(applied)) return applied;
    if (absl::IsAborted(applied)) continue;  // the next poll sees the change
    failed_[id] = entry;
    LogWarning(absl::StrCat(
        absl::StripSuffix(applied.message(), "."),
        ". It is not served by this replica until it changes in the "
        "catalog or the replica restarts."));
  }
  synced_version_ = snapshot.catalog_version;
  return absl::OkStatus();
}

absl::Status DatasetRegistry::ApplyEntry(const CatalogEntry& entry,
                                         bool* cache_write_failed) {
  const std::string& id = entry.dataset_id;
  absl::StatusOr<CatalogRecord> record = options_.catalog->FetchRecord(entry);
  if (!record.ok()) return ChangedMeanwhile(id, record.status());
  if (record->entry != entry) {
    return ChangedMeanwhile(id, absl::NotFoundError("another version."));
  }
  ASSIGN_OR_RETURN(const CatalogTexts texts, ParseRecord(entry, *record));
  if (!CacheHolds(entry, texts.manifest, texts.state)) {
    absl::StatusOr<std::string> data = options_.catalog->FetchData(entry);
    if (!data.ok()) return ChangedMeanwhile(id, data.status());
    absl::Status written = options_.before_cache_write
                               ? options_.before_cache_write(id)
                               : absl::OkStatus();
    if (written.ok()) {
      written = directory_.Publish(id, *data, texts.manifest, texts.state,
                                   directory_.Contains(id));
    }
    if (!written.ok()) {
      *cache_write_failed = true;
      return written;
    }
  }
  // The same path as a version stored before a restart.
  return LoadFromDisk(id, entry.revision);
}

bool DatasetRegistry::CacheHolds(const CatalogEntry& entry,
                                 const v1::DatasetManifest& manifest,
                                 const VersionState& state) const {
  if (!directory_.Contains(entry.dataset_id)) return false;
  absl::StatusOr<StoredVersion> stored =
      directory_.ReadVersion(entry.dataset_id);
  if (!stored.ok() ||
      FormatVersionState(stored->state) != FormatVersionState(state)) {
    return false;
  }
  absl::StatusOr<std::string> cached_json = ManifestToJson(stored->manifest);
  absl::StatusOr<std::string> catalog_json = ManifestToJson(manifest);
  if (!cached_json.ok() || !catalog_json.ok() ||
      *cached_json != *catalog_json) {
    return false;
  }
  absl::StatusOr<core::table::MappedFile> data =
      directory_.MapData(entry.dataset_id);
  return data.ok() &&
         core::util::Sha256Hex(data->view()) == entry.content_sha256;
}

void DatasetRegistry::Unpublish(const std::string& id) {
  // Requests holding the shared_ptr keep their in-memory copy; the last
  // reference here goes outside mu_.
  std::shared_ptr<const LoadedDataset> previous;
  absl::MutexLock lock(&mu_);
  auto it = datasets_.find(id);
  if (it == datasets_.end()) return;
  previous = std::move(it->second);
  datasets_.erase(it);
}

absl::Status DatasetRegistry::Drop(const std::string& id) {
  Unpublish(id);
  synced_.erase(id);
  failed_.erase(id);
  if (!directory_.Contains(id)) return absl::OkStatus();
  return directory_.Remove(id);
}

absl::Status DatasetRegistry::PublishEverywhere(
    LoadedDataset& d, const VersionState& state, absl::string_view data,
    const std::string& content_sha256, std::optional<uint64_t> replaces) {
  const std::string& id = d.manifest.dataset_id();
  CatalogRecord record;
  record.entry.dataset_id = id;
  record.entry.version = d.version;
  record.entry.content_sha256 = content_sha256;
  record.kind = d.is_graph() ? "graph" : "table";
  ASSIGN_OR_RETURN(record.manifest_json, ManifestToJson(d.manifest));
  record.state_text = FormatVersionState(state);
  ASSIGN_OR_RETURN(record.entry.revision,
                   options_.catalog->Publish(record, data, replaces));
  d.catalog_revision = record.entry.revision;
  // The catalog has it: every replica serves it from now on. A cache
  // directory left by a version that failed to load is overwritten.
  absl::Status cached =
      directory_.Publish(id, data, d.manifest, state, directory_.Contains(id));
  if (!cached.ok()) {
    // Polling retries to fetch it; meanwhile the old version is not served.
    Unpublish(id);
    synced_.erase(id);
    return core::util::WithPrefix(
        "The version is registered in the catalog (other replicas serve "
        "it), but this replica cannot store its copy: ",
        cached);
  }
  synced_[id] = record.entry;
  failed_.erase(id);
  return absl::OkStatus();
}

absl::Status DatasetRegistry::DeleteFromCatalog(const std::string& id) {
  const absl::Status removed = options_.catalog->Remove(id);
  if (!removed.ok() && !absl::IsNotFound(removed)) return removed;
  // Also when the catalog lacked it: a copy here was deleted through
  // another replica and not yet polled.
  RETURN_IF_ERROR(Drop(id));
  return removed;
}

}  // namespace dpq::server::registry
