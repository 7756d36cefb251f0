#include "server/storage/sqlite_accounts_store.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/util/status_macros.h"
#include "server/storage/sqlite_database.h"

namespace dpq::server::storage {
namespace {

using ::dpq::server::auth::Account;
using ::dpq::server::auth::AuditRecord;
using ::dpq::server::auth::NoSuchPrincipalError;
using ::dpq::server::auth::Principal;
using ::dpq::server::auth::PrincipalExistsError;
using ::dpq::server::auth::Role;
using ::dpq::server::auth::RoleFromName;
using ::dpq::server::auth::RoleName;

constexpr char kSchemaSql[] = R"sql(
CREATE TABLE IF NOT EXISTS principals (
  id           TEXT PRIMARY KEY,
  role         TEXT NOT NULL CHECK (role IN ('admin','buyer')),
  token_sha256 TEXT NOT NULL UNIQUE,
  created_at   INTEGER NOT NULL,
  revoked      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS audit (
  seq     INTEGER PRIMARY KEY AUTOINCREMENT,
  time    INTEGER NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  details TEXT NOT NULL
);
)sql";

// A row of (id, role, created_at, revoked).
Account AccountFromRow(const SqliteStatement& row) {
  Account account;
  account.id = row.Text(0);
  account.role = RoleFromName(row.Text(1));
  account.created_at = absl::FromUnixMicros(row.Int64(2));
  account.revoked = row.Int64(3) != 0;
  return account;
}

}  // namespace

SqliteAccountsStore::SqliteAccountsStore(std::unique_ptr<SqliteDatabase> db)
    : db_(std::move(db)) {}

SqliteAccountsStore::~SqliteAccountsStore() = default;

absl::StatusOr<std::unique_ptr<SqliteAccountsStore>> SqliteAccountsStore::Open(
    const std::string& db_path) {
  SqliteDatabase::Options options;
  options.name = "accounts database";  // token hashes: owner only (0600)
  options.busy_timeout = kBusyTimeout;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDatabase> db,
                   SqliteDatabase::Open(db_path, options));
  {
    ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                     db->Begin(/*immediate=*/true));
    RETURN_IF_ERROR(db->Exec(kSchemaSql, "creating the accounts schema"));
    RETURN_IF_ERROR(tx->Commit());
  }
  std::unique_ptr<SqliteAccountsStore> store(
      new SqliteAccountsStore(std::move(db)));
  absl::MutexLock lock(&store->mu_);
  RETURN_IF_ERROR(store->LoadIndex());
  return store;
}

absl::Status SqliteAccountsStore::LoadIndex() {
  by_hash_.clear();
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> select,
                   db_->Prepare("SELECT id, role, token_sha256 FROM principals "
                                "WHERE revoked = 0"));
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    by_hash_[select->Text(2)] =
        Principal{select->Text(0), RoleFromName(select->Text(1))};
  }
  return absl::OkStatus();
}

absl::StatusOr<Account> SqliteAccountsStore::Create(
    const std::string& id, Role role, const std::string& token_sha256) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> insert,
      db_->Cached("INSERT INTO principals (id, role, token_sha256, "
                  "created_at, revoked) VALUES (?1, ?2, ?3, ?4, 0) "
                  "ON CONFLICT (id) DO NOTHING"));
  // Stored in microseconds: the account returned is what Get reads back.
  const absl::Time now = absl::FromUnixMicros(absl::ToUnixMicros(absl::Now()));
  RETURN_IF_ERROR(insert->BindText(1, id));
  RETURN_IF_ERROR(insert->BindText(2, RoleName(role)));
  RETURN_IF_ERROR(insert->BindText(3, token_sha256));
  RETURN_IF_ERROR(insert->BindInt64(4, absl::ToUnixMicros(now)));
  RETURN_IF_ERROR(insert->Run());
  if (db_->Changes() == 0) {
    return PrincipalExistsError(id);
  }
  by_hash_[token_sha256] = Principal{id, role};
  return Account{id, role, now, false};
}

absl::Status SqliteAccountsStore::Revoke(const std::string& id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> update,
      db_->Cached("UPDATE principals SET revoked = 1 WHERE id = ?1 "
                  "RETURNING token_sha256"));
  RETURN_IF_ERROR(update->BindText(1, id));
  ASSIGN_OR_RETURN(const bool found, update->Step());
  if (!found) return NoSuchPrincipalError(id);
  const std::string hash = update->Text(0);
  ASSIGN_OR_RETURN(const bool more, update->Step());
  (void)more;  // id is the primary key: one row at most
  by_hash_.erase(hash);
  return absl::OkStatus();
}

absl::StatusOr<Account> SqliteAccountsStore::Get(const std::string& id) const {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> select,
      db_->Cached("SELECT id, role, created_at, revoked FROM principals "
                  "WHERE id = ?1"));
  RETURN_IF_ERROR(select->BindText(1, id));
  ASSIGN_OR_RETURN(const bool found, select->Step());
  if (!found) return NoSuchPrincipalError(id);
  return AccountFromRow(*select);
}

absl::StatusOr<std::vector<Account>> SqliteAccountsStore::List(
    Role role) const {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> select,
      db_->Cached("SELECT id, role, created_at, revoked FROM principals "
                  "WHERE role = ?1 ORDER BY id"));
  RETURN_IF_ERROR(select->BindText(1, RoleName(role)));
  std::vector<Account> accounts;
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    accounts.push_back(AccountFromRow(*select));
  }
  return accounts;
}

absl::StatusOr<std::optional<Principal>> SqliteAccountsStore::Authenticate(
    absl::string_view token_sha256) const {
  absl::MutexLock lock(&mu_);
  auto it = by_hash_.find(token_sha256);
  if (it == by_hash_.end()) return std::optional<Principal>();
  return std::optional<Principal>(it->second);
}

absl::Status SqliteAccountsStore::AppendAudit(const std::string& actor,
                                              const std::string& action,
                                              const std::string& details) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> insert,
                   db_->Cached("INSERT INTO audit (time, actor, action, "
                               "details) VALUES (?1, ?2, ?3, ?4)"));
  RETURN_IF_ERROR(insert->BindInt64(1, absl::ToUnixMicros(absl::Now())));
  RETURN_IF_ERROR(insert->BindText(2, actor));
  RETURN_IF_ERROR(insert->BindText(3, action));
  RETURN_IF_ERROR(insert->BindText(4, details));
  return insert->Run();
}

absl::StatusOr<std::vector<AuditRecord>> SqliteAccountsStore::ListAudit(
    const auth::AuditQuery& query) const {
  absl::MutexLock lock(&mu_);
  // ?2 = 0 and ?3 = '' select everything.
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> select,
      db_->Cached("SELECT time, actor, action, details, seq FROM audit "
                  "WHERE (?2 = 0 OR seq < ?2) AND (?3 = '' OR action = ?3) "
                  "ORDER BY seq DESC LIMIT ?1"));
  // A limit above the largest int64 wraps to a negative LIMIT: no limit.
  RETURN_IF_ERROR(select->BindInt64(1, static_cast<int64_t>(query.limit)));
  RETURN_IF_ERROR(select->BindInt64(2, query.before_seq));
  RETURN_IF_ERROR(select->BindText(3, query.action));
  std::vector<AuditRecord> records;
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    records.push_back(AuditRecord{absl::FromUnixMicros(select->Int64(0)),
                                  select->Text(1), select->Text(2),
                                  select->Text(3), select->Int64(4)});
  }
  return records;
}

absl::StatusOr<auth::AccountsSnapshot> SqliteAccountsStore::Export() const {
  absl::MutexLock lock(&mu_);
  auth::AccountsSnapshot out;
  // A read transaction: the principals and the audit log of one moment.
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteTransaction> tx,
                   db_->Begin(/*immediate=*/false));
  {
    ASSIGN_OR_RETURN(
        std::unique_ptr<SqliteStatement> select,
        db_->Prepare("SELECT id, role, created_at, revoked, token_sha256 "
                     "FROM principals ORDER BY id"));
    while (true) {
      ASSIGN_OR_RETURN(const bool row, select->Step());
      if (!row) break;
      out.principals.push_back(
          auth::PrincipalRecord{AccountFromRow(*select), select->Text(4)});
    }
  }
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> select,
                   db_->Prepare("SELECT time, actor, action, details FROM "
                                "audit ORDER BY seq"));
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    out.audit.push_back(AuditRecord{absl::FromUnixMicros(select->Int64(0)),
                                    select->Text(1), select->Text(2),
                                    select->Text(3)});
  }
  return out;
}

}  // namespace dpq::server::storage
