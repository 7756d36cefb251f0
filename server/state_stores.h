// Where a dpq-server keeps its durable state (docs/operations.md): the
// embedded mode keeps the ledger and the accounts in SQLite files of the
// data directory and the datasets in it; the shared-state mode keeps all
// three in PostgreSQL, so that several replicas serve one marketplace, and
// the data directory is then only this replica's cache.
#ifndef DPQ_SERVER_STATE_STORES_H_
#define DPQ_SERVER_STATE_STORES_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"
#include "server/auth/accounts_store.h"
#include "server/registry/dataset_catalog.h"
#include "server/server.h"

namespace dpq::server {

struct StateStores {
  std::unique_ptr<core::ledger::LedgerStore> ledger;
  std::unique_ptr<auth::AccountsStore> accounts;
  // The shared dataset catalog; null in the embedded mode.
  std::shared_ptr<registry::DatasetCatalog> catalog;
  // OK while the durable state answers; the health service reports
  // NOT_SERVING otherwise. Null for the embedded files, whose health is the
  // ledger's own (core::ledger::SettlingLedgerStore::WriteHealth, with
  // ProbeDataDirWrite as its probe).
  std::function<absl::Status()> health;
  // Where the state is, for the log: never the DSN.
  std::string description;
};

// True if the options ask for the shared-state mode (database or
// database_file set).
bool UsesPostgres(const Options& options);

// The embedded stores: DATA_DIR/ledger.db and DATA_DIR/accounts.db.
// ProbeDataDirWrite: writes and syncs 4 KiB to DATA_DIR/.write-probe
// (registry::WriteFileSynced; what a full disk refuses); kUnavailable with
// the system's reason otherwise.
absl::Status ProbeDataDirWrite(const std::string& data_dir);
absl::StatusOr<StateStores> OpenEmbeddedState(const std::string& data_dir);

// The PostgreSQL stores on the DSN of `options` (resolved from
// database_file if needed), with migrations applied and this replica's
// lease taken (replica id from the options or DATA_DIR/replica.id).
// kUnavailable "PostgreSQL is unreachable: ..." if the database cannot be
// reached; the message never holds the DSN.
absl::StatusOr<StateStores> OpenPostgresState(const Options& options);

}  // namespace dpq::server

#endif  // DPQ_SERVER_STATE_STORES_H_
