// The accounts: principals (the admin and the buyers) and the audit log of
// admin actions, behind one interface with two stores:
//  - storage::SqliteAccountsStore (server/storage/sqlite_accounts_store.h):
//    DATA_DIR/accounts.db, the embedded default;
//  - storage::PostgresAccountsStore (server/storage/postgres_accounts_store.h):
//    shared by every replica of the PostgreSQL mode (docs/operations.md).
//
// Tokens are never stored: only their SHA-256 (token.h). Every call is
// authenticated by its own token (bearer_auth.h), and a revocation takes
// effect for the very next call that reaches any replica.
//
// Every store is thread-safe.
#ifndef DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_
#define DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "server/auth/principal.h"

namespace dpq::server::auth {

// The admin principal's id.
inline constexpr char kAdminId[] = "admin";

// One principal as admins see it (never its token).
struct Account {
  std::string id;
  Role role = Role::kBuyer;
  absl::Time created_at;  // whole microseconds
  bool revoked = false;
};

// One principal as stored, with its token's hash: what moves between
// stores (dpq-server --import-sqlite), never what admins are shown.
struct PrincipalRecord {
  Account account;
  std::string token_sha256;  // 64 hex digits
};

// One admin action.
struct AuditRecord {
  absl::Time time;
  std::string actor;    // "admin"
  std::string action;   // the RPC, e.g. "GrantBudget"
  std::string details;  // its arguments, never a token or data value
  // Its position in the log (1, 2, ... in the order appended): the cursor
  // of the admin's pages. 0 where it is not known (snapshots).
  int64_t seq = 0;
};

// Which audit entries to list, newest first.
struct AuditQuery {
  size_t limit = 100;
  // Only entries whose seq is below this (0: no bound): the seq of the
  // last entry of the page before.
  int64_t before_seq = 0;
  // Only this action ("": all).
  std::string action;
};

// All the accounts of a store, for moving them to another store.
struct AccountsSnapshot {
  std::vector<PrincipalRecord> principals;  // sorted by id, revoked included
  std::vector<AuditRecord> audit;           // oldest first
};

class AccountsStore {
 public:
  virtual ~AccountsStore() = default;

  // Adds a principal whose token hashes to `token_sha256` (64 hex digits),
  // created now. kAlreadyExists naming the id if it is taken (revoked ids
  // stay taken), also when another replica creates it at the same time.
  virtual absl::StatusOr<Account> Create(const std::string& id, Role role,
                                         const std::string& token_sha256) = 0;

  // Revokes the principal's token; idempotent. kNotFound naming the id.
  virtual absl::Status Revoke(const std::string& id) = 0;

  // kNotFound naming the id.
  virtual absl::StatusOr<Account> Get(const std::string& id) const = 0;

  // Principals of `role`, sorted by id, revoked ones included.
  virtual absl::StatusOr<std::vector<Account>> List(Role role) const = 0;

  // The non-revoked principal whose token hashes to `token_sha256`, or
  // nullopt. Called once per RPC: a store answers from memory or with one
  // indexed query. An error (kUnavailable when the database is
  // unreachable) fails the call with it.
  virtual absl::StatusOr<std::optional<Principal>> Authenticate(
      absl::string_view token_sha256) const = 0;

  // Appends an audit entry stamped now.
  virtual absl::Status AppendAudit(const std::string& actor,
                                   const std::string& action,
                                   const std::string& details) = 0;

  // The newest audit entries the query selects, newest first, each with
  // its seq.
  virtual absl::StatusOr<std::vector<AuditRecord>> ListAudit(
      const AuditQuery& query) const = 0;
  // The newest `limit` audit entries, newest first.
  absl::StatusOr<std::vector<AuditRecord>> ListAudit(size_t limit) const {
    AuditQuery query;
    query.limit = limit;
    return ListAudit(query);
  }
};

// The stores' shared vocabulary, so that both answer alike.
// "admin" or "buyer": the role as stored.
const char* RoleName(Role role);
// The role stored as `name` ("admin"; anything else is a buyer).
Role RoleFromName(absl::string_view name);
// kNotFound "No buyer named '<id>'."
absl::Status NoSuchPrincipalError(absl::string_view id);
// kAlreadyExists "A principal named '<id>' already exists."
absl::Status PrincipalExistsError(absl::string_view id);

// On first start, creates the admin principal and writes its token to
// `token_path` (mode 0600, created exclusively, fsynced) before the hash is
// stored, so that a crash in between never leaves an admin nobody can log
// in as. If the admin exists, does nothing; if only the file exists (a
// crash after writing it), stores the hash of the token in it. Never
// overwrites the file. Returns true if it created a token; false, with the
// file it wrote removed, if another replica sharing the database created
// the admin in the meantime.
absl::StatusOr<bool> EnsureAdminToken(AccountsStore& accounts,
                                      const std::string& token_path);

}  // namespace dpq::server::auth

#endif  // DPQ_SERVER_AUTH_ACCOUNTS_STORE_H_
