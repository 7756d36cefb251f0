// What the dataset registry needs of a shared store of dataset versions:
// in the PostgreSQL mode (docs/operations.md) several dpq-server replicas
// register, replace and delete datasets through one catalog, which is the
// authority on which version of each dataset exists; each replica's data
// directory is only a cache of it (dataset_registry.h). A replica notices
// changes by polling CatalogVersion(), one cheap query, so the catalog
// needs no notification channel.
//
// A version is stored as the registering replica froze it: its
// manifest.json and state.txt texts (manifest.h, version_state.h) and its
// bytes (the CSV or the edge list), whose SHA-256 is the content hash that
// every fetch is verified against.
//
// Errors of every method: kUnavailable when the store cannot be reached
// (the caller retries later; nothing was changed, or, for a change whose
// commit could not be confirmed, either outcome is consistent).
// Implementations are thread-safe.
#ifndef DPQ_SERVER_REGISTRY_DATASET_CATALOG_H_
#define DPQ_SERVER_REGISTRY_DATASET_CATALOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server::registry {

// One dataset's current version as the catalog lists it.
struct CatalogEntry {
  std::string dataset_id;
  uint64_t version = 0;  // >= 1; +1 at every replacement
  // SHA-256 of the version's bytes, 64 lowercase hex digits (what
  // `sha256sum data.csv` prints of the cached copy).
  std::string content_sha256;
  // The catalog version of the change that stored this version: tells a
  // version apart from an equal-numbered one of a dataset deleted and
  // registered again.
  int64_t revision = 0;

  friend bool operator==(const CatalogEntry&, const CatalogEntry&) = default;
};

// Every dataset at one catalog version (one consistent read).
struct CatalogSnapshot {
  // Increases with every change (Publish, Remove); 0 for an empty catalog
  // that never changed.
  int64_t catalog_version = 0;
  std::vector<CatalogEntry> datasets;  // sorted by dataset_id
};

// One version without its bytes.
struct CatalogRecord {
  CatalogEntry entry;
  std::string kind;           // "table" or "graph", for operators' queries
  std::string manifest_json;  // manifest.json as the registry wrote it
  std::string state_text;     // state.txt as the registry wrote it
};

class DatasetCatalog {
 public:
  virtual ~DatasetCatalog() = default;

  // The current catalog version (see CatalogSnapshot).
  virtual absl::StatusOr<int64_t> CatalogVersion() = 0;

  // Every dataset with its current version.
  virtual absl::StatusOr<CatalogSnapshot> Snapshot() = 0;

  // The texts of `entry`'s version (record.entry == entry). kNotFound if
  // it is no longer the dataset's current version (replaced or deleted).
  virtual absl::StatusOr<CatalogRecord> FetchRecord(
      const CatalogEntry& entry) = 0;

  // The bytes of `entry`'s version, verified. kNotFound as FetchRecord;
  // kDataLoss if the stored bytes are incomplete or do not hash to
  // entry.content_sha256 (never returned then).
  virtual absl::StatusOr<std::string> FetchData(const CatalogEntry& entry) = 0;

  // Stores a new version atomically and bumps the catalog version, which
  // it returns: the version's revision (record.entry.revision is ignored).
  // `replaces` empty: a new dataset (record.entry.version 1), else
  // kAlreadyExists if the id exists (another replica registered it
  // first). `replaces` = the version being replaced: kAborted if the
  // dataset has another version now (replaced meanwhile), kNotFound if it
  // was deleted. `data` hashes to record.entry.content_sha256 (the caller
  // computed it; every fetch checks it).
  virtual absl::StatusOr<int64_t> Publish(const CatalogRecord& record,
                                          absl::string_view data,
                                          std::optional<uint64_t> replaces) = 0;

  // Removes the dataset and every stored byte of it, and bumps the catalog
  // version. kNotFound if it does not exist.
  virtual absl::Status Remove(const std::string& dataset_id) = 0;
};

}  // namespace dpq::server::registry

#endif  // DPQ_SERVER_REGISTRY_DATASET_CATALOG_H_
