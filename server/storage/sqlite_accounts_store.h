// The embedded AccountsStore (server/auth/accounts_store.h): principals and
// the audit log in DATA_DIR/accounts.db, opened with SqliteDatabase
// (sqlite_database.h: created with mode 0600, WAL, synchronous=FULL).
//
// Schema:
//   principals(id PRIMARY KEY, role, token_sha256 UNIQUE, created_at
//              (Unix microseconds), revoked)
//   audit(seq AUTOINCREMENT, time (Unix microseconds), actor, action,
//         details)
//
// Authentication is served from an in-memory index of the non-revoked
// hashes, which every Create/Revoke updates under the same lock right after
// its statement commits, so a revocation takes effect for the very next
// call. One process owns the file (the server's data directory), so the
// index never misses another writer.
//
// Thread-safe.
#ifndef DPQ_SERVER_STORAGE_SQLITE_ACCOUNTS_STORE_H_
#define DPQ_SERVER_STORAGE_SQLITE_ACCOUNTS_STORE_H_

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
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"

namespace dpq::server::storage {

class SqliteDatabase;

class SqliteAccountsStore final : public auth::AccountsStore {
 public:
  // How long a write waits for another connection holding the database.
  static constexpr absl::Duration kBusyTimeout = absl::Seconds(5);

  // Opens (creating if needed, mode 0600) the database at `db_path`.
  // kFailedPrecondition naming the path if the file cannot be created or
  // opened or is not a SQLite database; kUnavailable if another process
  // keeps it locked for longer than kBusyTimeout; kInternal for other
  // SQLite errors. Every method below fails the same way on SQLite errors.
  static absl::StatusOr<std::unique_ptr<SqliteAccountsStore>> Open(
      const std::string& db_path);
  ~SqliteAccountsStore() override;
  SqliteAccountsStore(const SqliteAccountsStore&) = delete;
  SqliteAccountsStore& operator=(const SqliteAccountsStore&) = delete;

  absl::StatusOr<auth::Account> Create(const std::string& id, auth::Role role,
                                       const std::string& token_sha256) override
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Revoke(const std::string& id) override ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<auth::Account> Get(const std::string& id) const override
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::vector<auth::Account>> List(
      auth::Role role) const override ABSL_LOCKS_EXCLUDED(mu_);
  // In memory: no I/O, never an error.
  absl::StatusOr<std::optional<auth::Principal>> Authenticate(
      absl::string_view token_sha256) const override ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status AppendAudit(const std::string& actor, const std::string& action,
                           const std::string& details) override
      ABSL_LOCKS_EXCLUDED(mu_);
  using auth::AccountsStore::ListAudit;
  absl::StatusOr<std::vector<auth::AuditRecord>> ListAudit(
      const auth::AuditQuery& query) const override ABSL_LOCKS_EXCLUDED(mu_);

  // Every principal with its token hash and the whole audit log, read in
  // one transaction, for dpq-server --import-sqlite (sqlite_import.h).
  absl::StatusOr<auth::AccountsSnapshot> Export() const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  explicit SqliteAccountsStore(std::unique_ptr<SqliteDatabase> db);
  absl::Status LoadIndex() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  const std::unique_ptr<SqliteDatabase> db_ ABSL_PT_GUARDED_BY(mu_);
  // token_sha256 -> principal, non-revoked only.
  absl::flat_hash_map<std::string, auth::Principal> by_hash_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_SQLITE_ACCOUNTS_STORE_H_
