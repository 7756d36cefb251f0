#include "server/state_stores.h"

#include <filesystem>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "core/util/status_macros.h"
#include "server/registry/synced_file.h"
#include "server/replica_identity.h"
#include "server/storage/postgres_accounts_store.h"
#include "server/storage/postgres_database.h"
#include "server/storage/postgres_dataset_catalog.h"
#include "server/storage/postgres_ledger_store.h"
#include "server/storage/sqlite_accounts_store.h"
#include "server/storage/sqlite_ledger_store.h"

namespace dpq::server {

bool UsesPostgres(const Options& options) {
  return !options.database.empty() || !options.database_file.empty();
}

absl::Status ProbeDataDirWrite(const std::string& data_dir) {
  const absl::Status written = registry::WriteFileSynced(
      std::filesystem::path(data_dir) / ".write-probe",
      std::string(4096, '\0'));
  if (written.ok()) return written;
  return absl::UnavailableError(written.message());
}

absl::StatusOr<StateStores> OpenEmbeddedState(const std::string& data_dir) {
  StateStores state;
  ASSIGN_OR_RETURN(state.ledger,
                   storage::SqliteLedgerStore::Open(data_dir + "/ledger.db"));
  ASSIGN_OR_RETURN(state.accounts, storage::SqliteAccountsStore::Open(
                                       data_dir + "/accounts.db"));
  state.description = absl::StrCat(data_dir, "/ledger.db and accounts.db");
  return state;
}

absl::StatusOr<StateStores> OpenPostgresState(const Options& options) {
  ASSIGN_OR_RETURN(const std::string dsn,
                   ResolveDatabaseDsn(options.database, options.database_file));
  ASSIGN_OR_RETURN(const std::string replica_id,
                   LoadOrCreateReplicaId(options.data_dir, options.replica_id));
  storage::PgPool::Options pool_options;
  pool_options.size = static_cast<int>(options.database_connections);
  // Shared by the three stores, each of which keeps it alive.
  ASSIGN_OR_RETURN(std::shared_ptr<storage::PgPool> pool,
                   storage::PgPool::Open(dsn, pool_options));
  StateStores state;

  storage::PostgresLedgerOptions ledger_options;
  ledger_options.replica_id = replica_id;
  ledger_options.lease = absl::Seconds(options.replica_lease_seconds);
  ASSIGN_OR_RETURN(std::unique_ptr<storage::PostgresLedgerStore> ledger,
                   storage::PostgresLedgerStore::Open(pool, ledger_options));
  ASSIGN_OR_RETURN(state.accounts, storage::PostgresAccountsStore::Open(pool));
  ASSIGN_OR_RETURN(state.catalog, storage::PostgresDatasetCatalog::Open(pool));
  const storage::PostgresLedgerStore* lease_holder = ledger.get();
  // The lease renewal is the replica's heartbeat with the database.
  state.health = [lease_holder] { return lease_holder->Health(); };
  state.ledger = std::move(ledger);
  state.description = absl::StrCat("PostgreSQL (replica ", replica_id, ")");
  return state;
}

}  // namespace dpq::server
