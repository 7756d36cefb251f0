#include "server/storage/postgres_dataset_catalog.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"

namespace dpq::server::storage {
namespace {

using registry::CatalogEntry;
using registry::CatalogRecord;
using registry::CatalogSnapshot;

// Schema steps of component "catalog" (ApplyMigrations): append, never
// edit a step that was released.
constexpr absl::string_view kMigrations[] = {
    R"sql(
CREATE TABLE catalog_version (
  only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
  version BIGINT NOT NULL);
INSERT INTO catalog_version (only_row, version) VALUES (TRUE, 0);
CREATE TABLE catalog_datasets (
  dataset_id TEXT PRIMARY KEY,
  version BIGINT NOT NULL CHECK (version >= 1),
  revision BIGINT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('table', 'graph')),
  manifest TEXT NOT NULL,
  state TEXT NOT NULL,
  content_sha256 TEXT NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  byte_size BIGINT NOT NULL CHECK (byte_size >= 0),
  chunk_count INTEGER NOT NULL CHECK (chunk_count >= 0),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE TABLE catalog_chunks (
  dataset_id TEXT NOT NULL
    REFERENCES catalog_datasets (dataset_id) ON DELETE CASCADE,
  version BIGINT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  bytes BYTEA NOT NULL,
  PRIMARY KEY (dataset_id, version, seq));
)sql",
};

// Above this a fetch does not reserve the whole size up front (a corrupt
// byte_size must not make the allocation itself fail).
constexpr uint64_t kMaxReserveBytes = uint64_t{16} << 30;

// The columns every entry query selects, in this order.
constexpr char kEntryColumns[] =
    "dataset_id, version, content_sha256, revision";

absl::StatusOr<CatalogEntry> EntryAt(const PgResult& rows, int row) {
  CatalogEntry entry;
  entry.dataset_id = std::string(rows.Get(row, 0));
  ASSIGN_OR_RETURN(const int64_t version, rows.GetInt64(row, 1));
  entry.version = static_cast<uint64_t>(version);
  entry.content_sha256 = std::string(rows.Get(row, 2));
  ASSIGN_OR_RETURN(entry.revision, rows.GetInt64(row, 3));
  return entry;
}

absl::Status NoLongerCurrent(const CatalogEntry& entry) {
  return absl::NotFoundError(absl::StrCat(
      "Dataset '", entry.dataset_id, "' version ", entry.version,
      " is no longer in the catalog (replaced or deleted meanwhile)."));
}

absl::Status DoesNotExist(const std::string& id) {
  return absl::NotFoundError(
      absl::StrCat("Dataset '", id, "' does not exist: register it first."));
}

// The one row of a single-value query as an int64.
absl::StatusOr<int64_t> SingleInt(const PgResult& rows,
                                  absl::string_view what) {
  if (rows.rows() != 1) {
    return absl::InternalError(absl::StrCat("The catalog's ", what,
                                            " query returned ", rows.rows(),
                                            " rows instead of one."));
  }
  return rows.GetInt64(0, 0);
}

// Bumps the catalog version (taking its row lock until commit: every
// change takes it last, after its dataset's row, so changes never
// deadlock) and returns the new value.
absl::StatusOr<int64_t> BumpCatalogVersion(PgConnection& c) {
  ASSIGN_OR_RETURN(PgResult bumped,
                   c.Exec("UPDATE catalog_version SET version = version + 1 "
                          "RETURNING version"));
  return SingleInt(bumped, "catalog_version");
}

// Writes `data` as chunks of kCatalogChunkBytes; returns their count.
absl::StatusOr<int64_t> InsertChunks(PgConnection& c, const std::string& id,
                                     uint64_t version, absl::string_view data) {
  int64_t seq = 0;
  for (size_t offset = 0; offset < data.size();
       offset += kCatalogChunkBytes, ++seq) {
    RETURN_IF_ERROR(
        c.Exec("INSERT INTO catalog_chunks (dataset_id, version, seq, bytes) "
               "VALUES ($1, $2, $3, $4)",
               {PgParam::Text(id), PgParam::Int(static_cast<int64_t>(version)),
                PgParam::Int(seq),
                PgParam::Bytes(
                    std::string(data.substr(offset, kCatalogChunkBytes)))})
            .status());
  }
  return seq;
}

// A new dataset's row ($1 id, $2 version, $3 kind, $4 manifest, $5 state,
// $6 content_sha256, $7 byte_size, $8 chunk_count), its revision set by
// StoreBytes; nothing if the id exists.
constexpr char kInsertDatasetSql[] =
    "INSERT INTO catalog_datasets (dataset_id, version, revision, kind, "
    "manifest, state, content_sha256, byte_size, chunk_count) VALUES ($1, $2, "
    "0, $3, $4, $5, $6, $7, $8) ON CONFLICT (dataset_id) DO NOTHING";

// The last step of storing a version whose row is written: its chunks,
// the catalog version bumped, and that as the row's revision (returned).
absl::StatusOr<int64_t> StoreBytes(PgConnection& c, const std::string& id,
                                   uint64_t version, absl::string_view data) {
  RETURN_IF_ERROR(InsertChunks(c, id, version, data).status());
  ASSIGN_OR_RETURN(const int64_t revision, BumpCatalogVersion(c));
  RETURN_IF_ERROR(
      c.Exec("UPDATE catalog_datasets SET revision = $2 WHERE dataset_id = $1",
             {PgParam::Text(id), PgParam::Int(revision)})
          .status());
  return revision;
}

int64_t ChunkCount(size_t bytes) {
  return static_cast<int64_t>((bytes + kCatalogChunkBytes - 1) /
                              kCatalogChunkBytes);
}

}  // namespace

absl::StatusOr<std::unique_ptr<PostgresDatasetCatalog>>
PostgresDatasetCatalog::Open(std::shared_ptr<PgPool> pool) {
  if (pool == nullptr) {
    return absl::InvalidArgumentError("The catalog needs a connection pool.");
  }
  RETURN_IF_ERROR(ApplyMigrations(*pool, "catalog", kMigrations));
  return std::unique_ptr<PostgresDatasetCatalog>(
      new PostgresDatasetCatalog(std::move(pool)));
}

absl::StatusOr<int64_t> PostgresDatasetCatalog::CatalogVersion() {
  ASSIGN_OR_RETURN(PgResult rows,
                   pool_->Exec("SELECT version FROM catalog_version"));
  return SingleInt(rows, "catalog_version");
}

absl::StatusOr<CatalogSnapshot> PostgresDatasetCatalog::Snapshot() {
  CatalogSnapshot snapshot;
  // One REPEATABLE READ transaction: the counter and the rows agree.
  RETURN_IF_ERROR(pool_->Transaction(
      [&](PgConnection& c) -> absl::Status {
        snapshot = CatalogSnapshot();
        ASSIGN_OR_RETURN(PgResult version,
                         c.Exec("SELECT version FROM catalog_version"));
        ASSIGN_OR_RETURN(snapshot.catalog_version,
                         SingleInt(version, "catalog_version"));
        ASSIGN_OR_RETURN(
            PgResult rows,
            c.Exec(absl::StrCat("SELECT ", kEntryColumns,
                                " FROM catalog_datasets "
                                "ORDER BY dataset_id COLLATE \"C\"")));
        for (int row = 0; row < rows.rows(); ++row) {
          ASSIGN_OR_RETURN(CatalogEntry entry, EntryAt(rows, row));
          snapshot.datasets.push_back(std::move(entry));
        }
        return absl::OkStatus();
      },
      PgIsolation::kRepeatableRead));
  return snapshot;
}

absl::StatusOr<CatalogRecord> PostgresDatasetCatalog::FetchRecord(
    const CatalogEntry& entry) {
  ASSIGN_OR_RETURN(
      PgResult rows,
      pool_->Exec(absl::StrCat("SELECT ", kEntryColumns,
                               ", kind, manifest, state FROM catalog_datasets "
                               "WHERE dataset_id = $1"),
                  {PgParam::Text(entry.dataset_id)}));
  if (rows.rows() != 1) return NoLongerCurrent(entry);
  CatalogRecord record;
  ASSIGN_OR_RETURN(record.entry, EntryAt(rows, 0));
  if (record.entry != entry) return NoLongerCurrent(entry);
  record.kind = std::string(rows.Get(0, 4));
  record.manifest_json = std::string(rows.Get(0, 5));
  record.state_text = std::string(rows.Get(0, 6));
  return record;
}

absl::StatusOr<std::string> PostgresDatasetCatalog::FetchData(
    const CatalogEntry& entry) {
  std::string data;
  int64_t byte_size = 0;
  // One REPEATABLE READ transaction: a replacement committed meanwhile
  // deletes the old chunks, but not from this snapshot. Chunk by chunk, so
  // the client never holds more than one chunk besides `data`.
  RETURN_IF_ERROR(pool_->Transaction(
      [&](PgConnection& c) -> absl::Status {
        data.clear();
        ASSIGN_OR_RETURN(
            PgResult rows,
            c.Exec(absl::StrCat("SELECT ", kEntryColumns,
                                ", byte_size, chunk_count FROM "
                                "catalog_datasets WHERE dataset_id = $1"),
                   {PgParam::Text(entry.dataset_id)}));
        if (rows.rows() != 1) return NoLongerCurrent(entry);
        ASSIGN_OR_RETURN(const CatalogEntry current, EntryAt(rows, 0));
        if (current != entry) return NoLongerCurrent(entry);
        ASSIGN_OR_RETURN(byte_size, rows.GetInt64(0, 4));
        ASSIGN_OR_RETURN(const int64_t chunks, rows.GetInt64(0, 5));
        if (byte_size >= 0 &&
            static_cast<uint64_t>(byte_size) <= kMaxReserveBytes) {
          data.reserve(static_cast<size_t>(byte_size));
        }
        for (int64_t seq = 0; seq < chunks; ++seq) {
          ASSIGN_OR_RETURN(
              PgResult chunk,
              c.Exec("SELECT bytes FROM catalog_chunks WHERE dataset_id = $1 "
                     "AND version = $2 AND seq = $3",
                     {PgParam::Text(entry.dataset_id),
                      PgParam::Int(static_cast<int64_t>(entry.version)),
                      PgParam::Int(seq)},
                     /*binary_results=*/true));
          if (chunk.rows() != 1) {
            return absl::DataLossError(
                absl::StrCat("Dataset '", entry.dataset_id, "' version ",
                             entry.version, ": chunk ", seq, " of ", chunks,
                             " is missing in the catalog."));
          }
          const absl::string_view bytes = chunk.Get(0, 0);
          data.append(bytes.data(), bytes.size());
        }
        return absl::OkStatus();
      },
      PgIsolation::kRepeatableRead));
  if (static_cast<int64_t>(data.size()) != byte_size) {
    return absl::DataLossError(absl::StrCat(
        "Dataset '", entry.dataset_id, "' version ", entry.version, " has ",
        data.size(), " bytes in the catalog, but its row records ", byte_size,
        "."));
  }
  if (core::util::Sha256Hex(data) != entry.content_sha256) {
    return absl::DataLossError(absl::StrCat(
        "Dataset '", entry.dataset_id, "' version ", entry.version,
        ": the bytes in the catalog do not match its content hash (SHA-256 ",
        entry.content_sha256,
        "); they were changed or damaged outside dpq-server. Replace the "
        "dataset, or restore the database from a backup."));
  }
  return data;
}

absl::StatusOr<int64_t> PostgresDatasetCatalog::Publish(
    const CatalogRecord& record, absl::string_view data,
    std::optional<uint64_t> replaces) {
  const std::string& id = record.entry.dataset_id;
  const int64_t version = static_cast<int64_t>(record.entry.version);
  // A conflict with another replica: the body fails with it so that the
  // transaction rolls back, and it is returned as it is (never retried).
  absl::Status conflict;
  int64_t revision = 0;
  const absl::Status done = pool_->Transaction([&](PgConnection& c)
                                                   -> absl::Status {
    conflict = absl::OkStatus();
    const int64_t chunks = ChunkCount(data.size());
    // The row first: it decides the race with another replica (the
    // primary key, or the row lock on the replaced version).
    PgParam params[] = {
        PgParam::Text(id),
        PgParam::Int(version),
        PgParam::Text(record.kind),
        PgParam::Text(record.manifest_json),
        PgParam::Text(record.state_text),
        PgParam::Text(record.entry.content_sha256),
        PgParam::Int(static_cast<int64_t>(data.size())),
        PgParam::Int(chunks),
        PgParam::Int(static_cast<int64_t>(replaces.value_or(0)))};
    if (!replaces.has_value()) {
      ASSIGN_OR_RETURN(
          PgResult inserted,
          c.Exec(kInsertDatasetSql, absl::MakeConstSpan(params, 8)));
      if (inserted.affected() == 0) {
        conflict = absl::AlreadyExistsError(absl::StrCat(
            "Dataset '", id,
            "' already exists: use ReplaceDataset to upload a new version."));
      }
    } else {
      ASSIGN_OR_RETURN(
          PgResult updated,
          c.Exec("UPDATE catalog_datasets SET version = $2, kind = $3, "
                 "manifest = $4, state = $5, content_sha256 = $6, "
                 "byte_size = $7, chunk_count = $8, updated_at = now() "
                 "WHERE dataset_id = $1 AND version = $9",
                 absl::MakeConstSpan(params)));
      if (updated.affected() == 0) {
        ASSIGN_OR_RETURN(
            PgResult exists,
            c.Exec("SELECT 1 FROM catalog_datasets WHERE dataset_id = $1",
                   {PgParam::Text(id)}));
        conflict = exists.rows() == 0
                       ? DoesNotExist(id)
                       : absl::AbortedError(absl::StrCat(
                             "Dataset '", id,
                             "' was replaced by another call meanwhile; "
                             "send the replacement again."));
      } else {
        RETURN_IF_ERROR(c.Exec("DELETE FROM catalog_chunks WHERE "
                               "dataset_id = $1",
                               {PgParam::Text(id)})
                            .status());
      }
    }
    if (!conflict.ok()) {
      return absl::FailedPreconditionError("rolled back: conflict");
    }
    ASSIGN_OR_RETURN(revision, StoreBytes(c, id, record.entry.version, data));
    return absl::OkStatus();
  });
  if (!conflict.ok()) return conflict;
  RETURN_IF_ERROR(done);
  return revision;
}

absl::Status PostgresDatasetCatalog::Remove(const std::string& dataset_id) {
  return pool_->Transaction([&](PgConnection& c) -> absl::Status {
    // The chunks go with the row (ON DELETE CASCADE).
    ASSIGN_OR_RETURN(
        PgResult deleted,
        c.Exec("DELETE FROM catalog_datasets WHERE dataset_id = $1",
               {PgParam::Text(dataset_id)}));
    if (deleted.affected() == 0) return DoesNotExist(dataset_id);
    return BumpCatalogVersion(c).status();
  });
}

absl::StatusOr<bool> PostgresDatasetCatalog::HoldsData(PgConnection& c) {
  ASSIGN_OR_RETURN(PgResult r,
                   c.Exec("SELECT EXISTS (SELECT 1 FROM catalog_datasets)"));
  return r.GetBool(0, 0);
}

absl::StatusOr<int64_t> PostgresDatasetCatalog::ImportVersion(
    PgConnection& c, const CatalogRecord& record, absl::string_view data) {
  const std::string& id = record.entry.dataset_id;
  const PgParam params[] = {
      PgParam::Text(id),
      PgParam::Int(static_cast<int64_t>(record.entry.version)),
      PgParam::Text(record.kind),
      PgParam::Text(record.manifest_json),
      PgParam::Text(record.state_text),
      PgParam::Text(record.entry.content_sha256),
      PgParam::Int(static_cast<int64_t>(data.size())),
      PgParam::Int(ChunkCount(data.size()))};
  ASSIGN_OR_RETURN(PgResult inserted, c.Exec(kInsertDatasetSql, params));
  if (inserted.affected() == 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("Dataset '", id, "' already exists in the catalog."));
  }
  return StoreBytes(c, id, record.entry.version, data);
}

}  // namespace dpq::server::storage
