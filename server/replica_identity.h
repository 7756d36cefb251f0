// Who this server is among the replicas sharing one PostgreSQL database
// (docs/operations.md): a stable replica id, so that a restarted replica
// settles the reservations its earlier life left (and only those), and the
// database connection string, which is a secret (it may hold a password)
// and so is never printed.
#ifndef DPQ_SERVER_REPLICA_IDENTITY_H_
#define DPQ_SERVER_REPLICA_IDENTITY_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::server {

// 1-64 characters of [A-Za-z0-9._-].
bool IsValidReplicaId(absl::string_view id);

// `configured` if set; else the id kept in DATA_DIR/replica.id, created
// (random, "replica-" and 16 hex digits, mode 0600, fsynced) on the first
// start. kInternal naming the file if it cannot be read or written;
// kFailedPrecondition if it holds no valid id.
absl::StatusOr<std::string> LoadOrCreateReplicaId(
    const std::string& data_dir, const std::string& configured);

// The DSN: `database` if set, else the first line of `database_file`
// (trailing whitespace stripped). kInvalidArgument naming the file (never
// its contents) if it cannot be read or is empty.
absl::StatusOr<std::string> ResolveDatabaseDsn(
    const std::string& database, const std::string& database_file);

}  // namespace dpq::server

#endif  // DPQ_SERVER_REPLICA_IDENTITY_H_
