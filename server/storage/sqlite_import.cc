#include "server/storage/sqlite_import.h"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/ledger/ledger.h"
#include "core/table/mapped_file.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/registry/build_context.h"
#include "server/registry/dataset_builder.h"
#include "server/registry/dataset_catalog.h"
#include "server/registry/dataset_directory.h"
#include "server/registry/manifest.h"
#include "server/registry/version_state.h"
#include "server/storage/ledger_snapshot.h"
#include "server/storage/postgres_accounts_store.h"
#include "server/storage/postgres_dataset_catalog.h"
#include "server/storage/postgres_ledger_schema.h"
#include "server/storage/postgres_ledger_store.h"
#include "server/storage/sqlite_accounts_store.h"
#include "server/storage/sqlite_ledger_store.h"

namespace dpq::server::storage {
namespace {

namespace fs = std::filesystem;

using ::dpq::core::ledger::EntryState;
using ::dpq::server::registry::CatalogRecord;

// The transaction-level advisory lock every import holds while it checks
// that the database is empty and writes: FNV-1a (64 bit) of
// "dpq.import-sqlite", so two imports at once run one after the other.
constexpr int64_t ImportLockKey() {
  uint64_t hash = 14695981039346656037ull;
  for (char c : std::string_view("dpq.import-sqlite")) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<int64_t>(hash);
}

bool IsRegularFile(const fs::path& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool IsDirectory(const fs::path& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// DIR must be what an embedded server leaves: both databases (its first
// start creates them), and a dataset directory that is not a replica's
// cache. Checked before anything is opened, since opening a SQLite path
// creates the file.
absl::Status CheckEmbeddedDataDir(const fs::path& dir) {
  if (!IsDirectory(dir)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "'", dir.string(),
        "' is not a directory: give --import-sqlite the "
        "data directory of the embedded dpq-server (--data-dir)."));
  }
  for (const char* file : {"ledger.db", "accounts.db"}) {
    if (!IsRegularFile(dir / file)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", dir.string(), "' is not an embedded data directory: it has no ",
          file,
          ". Give --import-sqlite the data directory of the embedded "
          "dpq-server (--data-dir)."));
    }
  }
  if (IsRegularFile(dir / "datasets" / ".catalog-cache")) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", dir.string(),
                     "' is a PostgreSQL replica's cache, not an "
                     "embedded data directory: there is nothing to import."));
  }
  return absl::OkStatus();
}

// What the import writes of one dataset, its bytes aside (they are read
// again inside the transaction, one dataset at a time).
struct DatasetToImport {
  CatalogRecord record;
  fs::path data_path;
};

// Loads the stored version `id` as the embedded server's start would
// (DatasetRegistry's LoadFromDisk): parsed and validated within `limits`,
// its manifest frozen; and makes the catalog record a replica publishes
// for it (DatasetRegistry's PublishEverywhere).
absl::StatusOr<DatasetToImport> PrepareDataset(
    const registry::DatasetDirectory& directory, const std::string& id,
    const registry::RegistryOptions& limits) {
  ASSIGN_OR_RETURN(const registry::StoredVersion stored,
                   directory.ReadVersion(id));
  RETURN_IF_ERROR(registry::ValidateManifest(stored.manifest));
  if (stored.state.edges.has_value() &&
      *stored.state.edges > limits.max_edges) {
    return absl::FailedPreconditionError(
        absl::StrCat("its conflict graph has ", *stored.state.edges,
                     " edges, above max_edges (", limits.max_edges,
                     "), so no replica could rebuild it."));
  }
  ASSIGN_OR_RETURN(const core::table::MappedFile csv, directory.MapData(id));
  registry::BuildContext context;
  context.stored = true;
  ASSIGN_OR_RETURN(
      std::shared_ptr<registry::LoadedDataset> d,
      registry::BuildDataset(limits, stored.manifest, csv.view(), context));
  if (d->manifest.exact_repair() && !stored.state.exact_repair.has_value()) {
    return absl::DataLossError(
        "state.txt lacks the exact_repair value its manifest asks for.");
  }
  DatasetToImport out;
  out.data_path = directory.PathOf(id) / "data.csv";
  CatalogRecord& record = out.record;
  record.entry.dataset_id = id;
  record.entry.version = stored.state.version;
  record.entry.content_sha256 = core::util::Sha256Hex(csv.view());
  record.kind = d->is_graph() ? "graph" : "table";
  ASSIGN_OR_RETURN(record.manifest_json, registry::ManifestToJson(d->manifest));
  record.state_text = registry::FormatVersionState(stored.state);
  return out;
}

// Every dataset of DIR/datasets (none if it does not exist), validated.
absl::StatusOr<std::vector<DatasetToImport>> PrepareDatasets(
    const fs::path& dir, const registry::RegistryOptions& limits) {
  std::vector<DatasetToImport> datasets;
  if (!IsDirectory(dir / "datasets")) return datasets;
  ASSIGN_OR_RETURN(const registry::DatasetDirectory directory,
                   registry::DatasetDirectory::Open(dir.string()));
  ASSIGN_OR_RETURN(const std::vector<std::string> ids, directory.ListIds());
  for (const std::string& id : ids) {
    absl::StatusOr<DatasetToImport> dataset =
        PrepareDataset(directory, id, limits);
    if (!dataset.ok()) {
      return core::util::WithPrefix(
          absl::StrCat("Cannot import dataset '", id, "' from '",
                       directory.PathOf(id).string(), "': "),
          dataset.status());
    }
    datasets.push_back(*std::move(dataset));
  }
  return datasets;
}

// Charges every reservation of `ledger` as RecoverPending would at the
// embedded server's next start: the entry becomes charged (settled now)
// and its budget's reserved total moves to spent. Returns how many.
int64_t ChargeReservations(LedgerSnapshot& ledger) {
  const absl::Time now = absl::FromUnixMicros(absl::ToUnixMicros(absl::Now()));
  int64_t charged = 0;
  for (LedgerEntryRecord& entry : ledger.entries) {
    if (entry.state != EntryState::kReserved) continue;
    entry.state = EntryState::kCharged;
    entry.settled_at = now;
    ++charged;
  }
  for (LedgerBudgetRecord& budget : ledger.budgets) {
    budget.spent += budget.reserved;
    budget.reserved = 0;
  }
  return charged;
}

// The bytes of a dataset to import, checked against the hash computed
// when it was validated.
absl::StatusOr<core::table::MappedFile> MapUnchanged(
    const DatasetToImport& dataset) {
  ASSIGN_OR_RETURN(core::table::MappedFile data,
                   core::table::MappedFile::Open(dataset.data_path.string()));
  if (core::util::Sha256Hex(data.view()) !=
      dataset.record.entry.content_sha256) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset '", dataset.record.entry.dataset_id,
        "' changed during the import: stop the embedded dpq-server and run "
        "the import again."));
  }
  return data;
}

// Which components already hold data ("" if none).
absl::StatusOr<std::string> ComponentsHoldingData(PgConnection& c) {
  std::vector<std::string> holding;
  ASSIGN_OR_RETURN(const bool accounts, PostgresAccountsStore::HoldsData(c));
  if (accounts) holding.push_back("principals");
  ASSIGN_OR_RETURN(const bool ledger, PostgresLedgerStore::HoldsData(c));
  if (ledger) holding.push_back("ledger budgets, entries or caps");
  ASSIGN_OR_RETURN(const bool catalog, PostgresDatasetCatalog::HoldsData(c));
  if (catalog) holding.push_back("datasets");
  return absl::StrJoin(holding, ", ");
}

}  // namespace

absl::StatusOr<SqliteImportSummary> ImportSqliteDataDir(
    const std::string& data_dir, std::shared_ptr<PgPool> pool,
    const registry::RegistryOptions& limits) {
  if (pool == nullptr) {
    return absl::InvalidArgumentError("The import needs a connection pool.");
  }
  const fs::path dir(data_dir);
  RETURN_IF_ERROR(CheckEmbeddedDataDir(dir));

  // 1. Read and validate everything, before the database is touched.
  LedgerSnapshot ledger;
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteLedgerStore> store,
                     SqliteLedgerStore::Open((dir / "ledger.db").string()));
    ASSIGN_OR_RETURN(ledger, store->Export());
  }
  auth::AccountsSnapshot accounts;
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteAccountsStore> store,
                     SqliteAccountsStore::Open((dir / "accounts.db").string()));
    ASSIGN_OR_RETURN(accounts, store->Export());
  }
  ASSIGN_OR_RETURN(const std::vector<DatasetToImport> datasets,
                   PrepareDatasets(dir, limits));
  SqliteImportSummary summary;
  summary.charged_reservations = ChargeReservations(ledger);

  // 2. The schema (each component's migrations, under their own lock).
  RETURN_IF_ERROR(PostgresAccountsStore::Open(pool).status());
  RETURN_IF_ERROR(PostgresDatasetCatalog::Open(pool).status());
  RETURN_IF_ERROR(ApplyMigrations(*pool, kLedgerComponent, LedgerMigrations()));

  // 3. One transaction: the lock, the emptiness check, every write. READ
  // COMMITTED, so that each statement after the lock sees what an import
  // that held it before committed.
  RETURN_IF_ERROR(pool->Transaction([&](PgConnection& c) -> absl::Status {
    RETURN_IF_ERROR(c.Exec("SELECT pg_advisory_xact_lock($1)",
                           {PgParam::Int(ImportLockKey())})
                        .status());
    ASSIGN_OR_RETURN(const std::string holding, ComponentsHoldingData(c));
    if (!holding.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "The PostgreSQL database already holds dpq data (", holding,
          "); --import-sqlite copies into an empty database only, so "
          "nothing was imported."));
    }
    RETURN_IF_ERROR(PostgresAccountsStore::Import(c, accounts));
    RETURN_IF_ERROR(PostgresLedgerStore::Import(c, ledger));
    for (const DatasetToImport& dataset : datasets) {
      ASSIGN_OR_RETURN(const core::table::MappedFile data,
                       MapUnchanged(dataset));
      RETURN_IF_ERROR(
          PostgresDatasetCatalog::ImportVersion(c, dataset.record, data.view())
              .status());
    }
    return absl::OkStatus();
  }));

  for (const auth::PrincipalRecord& p : accounts.principals) {
    if (p.account.role == auth::Role::kAdmin) {
      summary.admin = true;
      continue;
    }
    ++summary.buyers;
    if (p.account.revoked) ++summary.revoked_buyers;
  }
  summary.audit_records = static_cast<int64_t>(accounts.audit.size());
  summary.budgets = static_cast<int64_t>(ledger.budgets.size());
  for (const LedgerDatasetRecord& d : ledger.datasets) {
    if (d.cap != 0) ++summary.capped_datasets;
  }
  summary.entries = static_cast<int64_t>(ledger.entries.size());
  summary.datasets = static_cast<int64_t>(datasets.size());
  return summary;
}

}  // namespace dpq::server::storage
