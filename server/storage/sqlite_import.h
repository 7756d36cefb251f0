// dpq-server --import-sqlite DIR (docs/operations.md, "Moving from the
// embedded mode"): copies an embedded data directory into the PostgreSQL
// database of the shared-state mode, once.
//
// What is copied, exactly:
//  - the ledger (DIR/ledger.db): every budget with its grant, every
//    dataset cap, every entry with its buyer_seq, request_id, fingerprint,
//    operation, neighbouring unit, epsilon (integer units), state, times
//    and recorded answer, so that a retry of an old request id replays the
//    same answer on any replica. Reservations the embedded server left
//    unfinished are charged on the way, as its RecoverPending would have
//    charged them at its next start (docs/privacy.md, section 3: the
//    charge stands); the budgets' running totals and each buyer's entry
//    counter are computed from the entries and checked against the
//    embedded ledger's own totals;
//  - the accounts (DIR/accounts.db): the admin and every buyer with the
//    SHA-256 of their tokens, roles, revocations and creation times (old
//    tokens keep working), and the whole audit log;
//  - the datasets (DIR/datasets/<id>/): each one's current version number,
//    state.txt, rows and content hash, and its manifest as the registry
//    publishes it (frozen), so that every replica loads each dataset as
//    the embedded server served it and rebuilds its graphs in the
//    background. Each dataset is parsed and validated first, within
//    `limits` (the replicas' own), exactly as a start of the embedded
//    server would load it.
//
// All or nothing: everything is read and validated first, then written in
// one transaction, which holds an advisory lock while it checks that the
// database holds no dpq data (no principal or audit record, no ledger
// budget, entry or cap, no dataset) and writes. So a failure leaves the
// database as it was, and of two imports at once the second finds the
// first's data and is refused.
//
// DIR is only read (opening it may bring the files of an older dpq-server
// up to date, or finish a dataset write a crash interrupted, as the
// embedded server's own start would). The embedded server must be stopped:
// the ledger and the accounts are read in separate transactions.
#ifndef DPQ_SERVER_STORAGE_SQLITE_IMPORT_H_
#define DPQ_SERVER_STORAGE_SQLITE_IMPORT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "server/registry/registry_options.h"
#include "server/storage/postgres_database.h"

namespace dpq::server::storage {

// What an import copied.
struct SqliteImportSummary {
  int64_t buyers = 0;          // buyer principals, revoked ones included
  int64_t revoked_buyers = 0;  // of those
  bool admin = false;          // the admin principal was copied
  int64_t audit_records = 0;
  int64_t budgets = 0;
  int64_t capped_datasets = 0;  // ledger datasets with a cap
  int64_t entries = 0;          // ledger entries
  // Reservations the embedded server left unfinished, charged on the way.
  int64_t charged_reservations = 0;
  int64_t datasets = 0;
};

// Copies the embedded data directory `data_dir` into the database of
// `pool`, bringing its schema up to date first. Errors, with the database
// unchanged:
//  - kFailedPrecondition if the database already holds dpq data (the
//    message says which), if `data_dir` is not an embedded data directory
//    (no ledger.db or accounts.db; or a replica's cache), or if a dataset
//    file changed during the import;
//  - a dataset that does not load within `limits` (only the size limits
//    and graph_threads are read): its error, naming the dataset;
//  - kDataLoss if the embedded ledger's running totals disagree with its
//    entries;
//  - the stores' errors as they are (kUnavailable if PostgreSQL cannot be
//    reached).
absl::StatusOr<SqliteImportSummary> ImportSqliteDataDir(
    const std::string& data_dir, std::shared_ptr<PgPool> pool,
    const registry::RegistryOptions& limits);

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_SQLITE_IMPORT_H_
