// The AccountsStore (server/auth/accounts_store.h) of the PostgreSQL mode
// (docs/operations.md): principals and the audit log shared by every
// dpq-server replica on one database, through PgPool
// (postgres_database.h).
//
// Tables (component "accounts" of ApplyMigrations):
//   principals(id TEXT COLLATE "C" PRIMARY KEY, role, token_sha256 UNIQUE,
//              created_at BIGINT (Unix microseconds), revoked BOOLEAN)
//   audit_log(seq BIGINT IDENTITY PRIMARY KEY, time BIGINT (Unix
//             microseconds), actor, action, details)
// Times come from the database clock, so that replicas agree.
//
// No state is kept in the process: Authenticate runs one query on the
// unique index of token_sha256 per call, so a buyer created or revoked
// through any replica is accepted or refused on its next call to every
// replica. Create relies on the primary key, so two replicas creating the
// same id at once get one success and one kAlreadyExists.
//
// Errors: as PgPool's (kUnavailable "PostgreSQL is unreachable: ..." when
// the database cannot be reached; the call then fails with it), plus the
// contract's own.
//
// Thread-safe.
#ifndef DPQ_SERVER_STORAGE_POSTGRES_ACCOUNTS_STORE_H_
#define DPQ_SERVER_STORAGE_POSTGRES_ACCOUNTS_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/storage/postgres_database.h"

namespace dpq::server::storage {

class PostgresAccountsStore final : public auth::AccountsStore {
 public:
  // Brings the accounts tables to the newest version (ApplyMigrations,
  // component "accounts") and returns the store on `pool` (shared with the
  // other PostgreSQL stores). Errors as PgPool's and ApplyMigrations'.
  static absl::StatusOr<std::unique_ptr<PostgresAccountsStore>> Open(
      std::shared_ptr<PgPool> pool);

  PostgresAccountsStore(const PostgresAccountsStore&) = delete;
  PostgresAccountsStore& operator=(const PostgresAccountsStore&) = delete;

  absl::StatusOr<auth::Account> Create(
      const std::string& id, auth::Role role,
      const std::string& token_sha256) override;
  absl::Status Revoke(const std::string& id) override;
  absl::StatusOr<auth::Account> Get(const std::string& id) const override;
  absl::StatusOr<std::vector<auth::Account>> List(
      auth::Role role) const override;
  // One indexed query.
  absl::StatusOr<std::optional<auth::Principal>> Authenticate(
      absl::string_view token_sha256) const override;
  absl::Status AppendAudit(const std::string& actor, const std::string& action,
                           const std::string& details) override;
  using auth::AccountsStore::ListAudit;
  absl::StatusOr<std::vector<auth::AuditRecord>> ListAudit(
      const auth::AuditQuery& query) const override;

  // For dpq-server --import-sqlite (sqlite_import.h), on a connection
  // inside the caller's transaction, once Open has brought the tables up
  // to date. HoldsData: true if any principal or audit record exists.
  // Import writes `snapshot` as it is (token hashes, roles, revocations,
  // creation and audit times), the audit log in its order; it does not
  // check for existing rows (a clash is kFailedPrecondition from the
  // primary key).
  static absl::StatusOr<bool> HoldsData(PgConnection& c);
  static absl::Status Import(PgConnection& c,
                             const auth::AccountsSnapshot& snapshot);

 private:
  explicit PostgresAccountsStore(std::shared_ptr<PgPool> pool)
      : pool_(std::move(pool)) {}

  const std::shared_ptr<PgPool> pool_;
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_POSTGRES_ACCOUNTS_STORE_H_
