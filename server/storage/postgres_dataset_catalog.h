// The dataset catalog of the PostgreSQL mode (docs/operations.md): the
// DatasetCatalog (server/registry/dataset_catalog.h) that several
// dpq-server replicas share, in three tables of component "catalog":
//
//   catalog_version   one row: a counter bumped in the transaction of every
//                     change, so a replica polls one cheap query
//   catalog_datasets  dataset_id (key), version, revision (the counter's
//                     value of its change), kind, manifest, state,
//                     content_sha256, byte_size, chunk_count, updated_at
//   catalog_chunks    (dataset_id, version, seq) -> bytes: a version's
//                     bytes in chunks of kCatalogChunkBytes, so that a
//                     1 GiB upload never needs one giant value
//
// Publish and Remove run in one transaction each: the new row, its chunks
// and the counter commit together, so a replica never sees a version
// without its bytes. Two replicas registering one id race on the primary
// key (INSERT ... ON CONFLICT DO NOTHING: the later one gets
// kAlreadyExists); two replacing one version race on the row (UPDATE ...
// WHERE version = the replaced one: the later one gets kAborted). A fetch
// reads in one REPEATABLE READ transaction, so a replacement committed
// meanwhile (which deletes the old chunks) never tears it.
#ifndef DPQ_SERVER_STORAGE_POSTGRES_DATASET_CATALOG_H_
#define DPQ_SERVER_STORAGE_POSTGRES_DATASET_CATALOG_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/registry/dataset_catalog.h"
#include "server/storage/postgres_database.h"

namespace dpq::server::storage {

// Bytes per row of catalog_chunks (the last chunk of a version is shorter).
inline constexpr size_t kCatalogChunkBytes = size_t{1} << 20;

class PostgresDatasetCatalog final : public registry::DatasetCatalog {
 public:
  // Applies the catalog's migrations (ApplyMigrations, component
  // "catalog"). Errors as ApplyMigrations: kUnavailable if the database
  // cannot be reached, kFailedPrecondition if a newer dpq-server wrote
  // the schema.
  static absl::StatusOr<std::unique_ptr<PostgresDatasetCatalog>> Open(
      std::shared_ptr<PgPool> pool);

  absl::StatusOr<int64_t> CatalogVersion() override;
  absl::StatusOr<registry::CatalogSnapshot> Snapshot() override;
  absl::StatusOr<registry::CatalogRecord> FetchRecord(
      const registry::CatalogEntry& entry) override;
  absl::StatusOr<std::string> FetchData(
      const registry::CatalogEntry& entry) override;
  absl::StatusOr<int64_t> Publish(const registry::CatalogRecord& record,
                                  absl::string_view data,
                                  std::optional<uint64_t> replaces) override;
  absl::Status Remove(const std::string& dataset_id) override;

  // For dpq-server --import-sqlite (sqlite_import.h), on a connection
  // inside the caller's transaction, once Open has brought the tables up
  // to date. HoldsData: true if any dataset exists. ImportVersion stores
  // `record` with `data` as Publish stores a new dataset (row, chunks,
  // catalog version bumped; record.entry.version as it is, so an imported
  // dataset keeps its version number) and returns its revision.
  // kAlreadyExists if the id exists.
  static absl::StatusOr<bool> HoldsData(PgConnection& c);
  static absl::StatusOr<int64_t> ImportVersion(
      PgConnection& c, const registry::CatalogRecord& record,
      absl::string_view data);

 private:
  explicit PostgresDatasetCatalog(std::shared_ptr<PgPool> pool)
      : pool_(std::move(pool)) {}

  std::shared_ptr<PgPool> pool_;
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_POSTGRES_DATASET_CATALOG_H_
