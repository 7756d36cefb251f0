// Principals (the admin and the buyers) and the audit log of admin actions,
// in DATA_DIR/accounts.db (SQLite through server/storage/sqlite_database.h:
// created with mode 0600, WAL, synchronous=FULL).
//
// Tokens are never stored: only their SHA-256 (token.h). Authentication is
// served from an in-memory index of the non-revoked hashes, which every
// Create/Revoke updates under the same lock right after its transaction
// commits, so a revocation takes effect for the very next call.
//
// Thread-safe.
#ifndef DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_
#define DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "server/auth/principal.h"

namespace dpq::server::storage {
class SqliteDatabase;
}  // namespace dpq::server::storage

namespace dpq::server::auth {

// The admin principal's id.
inline constexpr char kAdminId[] = "admin";

// One principal as admins see it (never its token).
struct Account {
  std::string id;
  Role role = Role::kBuyer;
  absl::Time created_at;
  bool revoked = false;
};

// One admin action.
struct AuditRecord {
  absl::Time time;
  std::string actor;    // "admin"
  std::string action;   // the RPC, e.g. "GrantBudget"
  std::string details;  // its arguments, never a token or data value
};

class AccountsStore {
 public:
  // How long a write waits for another connection holding the database.
  static constexpr absl::Duration kBusyTimeout = absl::Seconds(5);

  // Opens (creating if needed, mode 0600) the database at `db_path`.
  // kFailedPrecondition naming the path if the file cannot be created or
  // opened or is not a SQLite database; kUnavailable if another process
  // keeps it locked for longer than kBusyTimeout; kInternal for other
  // SQLite errors. Every method below fails the same way on SQLite errors.
  static absl::StatusOr<std::unique_ptr<AccountsStore>> Open(
      const std::string& db_path);
  ~AccountsStore();
  AccountsStore(const AccountsStore&) = delete;
  AccountsStore& operator=(const AccountsStore&) = delete;

  // Adds a principal whose token hashes to `token_sha256` (64 hex digits).
  // kAlreadyExists if the id is taken (revoked ids stay taken).
  absl::StatusOr<Account> Create(const std::string& id, Role role,
                                 const std::string& token_sha256)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Revokes the principal's token; idempotent. kNotFound naming the id.
  absl::Status Revoke(const std::string& id) ABSL_LOCKS_EXCLUDED(mu_);

  // kNotFound naming the id.
  absl::StatusOr<Account> Get(const std::string& id) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Principals of `role`, sorted by id, revoked ones included.
  absl::StatusOr<std::vector<Account>> List(Role role) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // The non-revoked principal whose token hashes to `token_sha256`, if any.
  // In memory: no I/O.
  std::optional<Principal> Authenticate(absl::string_view token_sha256) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Appends an audit entry stamped now.
  absl::Status AppendAudit(const std::string& actor, const std::string& action,
                           const std::string& details) ABSL_LOCKS_EXCLUDED(mu_);

  // The newest `limit` audit entries, newest first.
  absl::StatusOr<std::vector<AuditRecord>> ListAudit(size_t limit) const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  explicit AccountsStore(std::unique_ptr<storage::SqliteDatabase> db);
  absl::Status LoadIndex() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  const std::unique_ptr<storage::SqliteDatabase> db_ ABSL_PT_GUARDED_BY(mu_);
  // token_sha256 -> principal, non-revoked only.
  absl::flat_hash_map<std::string, Principal> by_hash_ ABSL_GUARDED_BY(mu_);
};

// On first start, creates the admin principal and writes its token to
// `token_path` (mode 0600, created exclusively, fsynced) before the hash is
// stored, so that a crash in between never leaves an admin nobody can log
// in as. If the admin exists, does nothing; if only the file exists (a
// crash after writing it), stores the hash of the token in it. Never
// overwrites the file. Returns true if it created a token.
absl::StatusOr<bool> EnsureAdminToken(AccountsStore& accounts,
                                      const std::string& token_path);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_
