// dpq-server --backup DIR: one snapshot of the embedded mode's durable
// state (docs/operations.md, "Backup and restore: embedded mode"), taken
// while the server runs or not: every dataset version's files, the
// accounts (accounts.db), the ledger (ledger.db) and the admin token, each
// file mode 0600 in a new directory of mode 0700, plus BACKUP.txt saying
// when and how to restore.
//
// Consistency: each SQLite database is copied by VACUUM INTO, one
// transactionally consistent snapshot of it; dataset versions are
// immutable once published (a Replace publishes a new directory), and a
// version replaced during the copy is copied again. The ledger is taken
// last, so it is the newest part: a restored server knows every charge
// made before the backup finished, and of the datasets and accounts at
// most what the ledger knows. Restoring it still forgets what happened
// after it; docs/operations.md says what that means for privacy.
#ifndef DPQ_SERVER_STORAGE_EMBEDDED_BACKUP_H_
#define DPQ_SERVER_STORAGE_EMBEDDED_BACKUP_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace dpq::server::storage {

struct EmbeddedBackupSummary {
  int64_t datasets = 0;  // dataset versions copied
  int64_t bytes = 0;     // bytes written in all
};

// Copies the embedded data directory `data_dir` into `target`, which must
// not exist (it is created, mode 0700; its parent must exist). Errors:
// kInvalidArgument naming the flag for an empty or existing target or a
// data directory without ledger.db; kFailedPrecondition / kInternal with
// the file for a copy that failed (the partial target is left for the
// operator to remove, and says so).
absl::StatusOr<EmbeddedBackupSummary> BackupEmbeddedState(
    const std::string& data_dir, const std::string& target);

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_EMBEDDED_BACKUP_H_
