#include "server/storage/postgres_accounts_store.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/util/status_macros.h"

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

// Version 1. Ids sort bytewise (COLLATE "C"), as in the SQLite store,
// whatever the database's collation. Times are Unix microseconds, as in
// the SQLite store, so that its rows import exactly.
constexpr absl::string_view kMigrations[] = {R"sql(
CREATE TABLE principals (
  id           TEXT COLLATE "C" PRIMARY KEY,
  role         TEXT NOT NULL CHECK (role IN ('admin', 'buyer')),
  token_sha256 TEXT NOT NULL UNIQUE,
  created_at   BIGINT NOT NULL,
  revoked      BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE audit_log (
  seq     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  time    BIGINT NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  details TEXT NOT NULL
);
)sql"};

// Creating and auditing stamp the row with the database clock in Unix
// microseconds (clock_timestamp(): the statement's time, not its
// transaction's start).
constexpr char kInsertPrincipalSql[] =
    "INSERT INTO principals (id, role, token_sha256, created_at) "
    "VALUES ($1, $2, $3, "
    "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT) "
    "ON CONFLICT DO NOTHING RETURNING created_at";
constexpr char kInsertAuditSql[] =
    "INSERT INTO audit_log (time, actor, action, details) "
    "VALUES ((EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT, "
    "$1, $2, $3)";

// Row `row` of (id, role, created_at, revoked).
absl::StatusOr<Account> AccountFromRow(const PgResult& result, int row) {
  Account account;
  account.id = std::string(result.Get(row, 0));
  account.role = RoleFromName(result.Get(row, 1));
  ASSIGN_OR_RETURN(const int64_t created_us, result.GetInt64(row, 2));
  account.created_at = absl::FromUnixMicros(created_us);
  ASSIGN_OR_RETURN(account.revoked, result.GetBool(row, 3));
  return account;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PostgresAccountsStore>>
PostgresAccountsStore::Open(std::shared_ptr<PgPool> pool) {
  if (pool == nullptr) {
    return absl::InvalidArgumentError("PostgresAccountsStore needs a pool.");
  }
  RETURN_IF_ERROR(ApplyMigrations(*pool, "accounts", kMigrations));
  return std::unique_ptr<PostgresAccountsStore>(
      new PostgresAccountsStore(std::move(pool)));
}

absl::StatusOr<Account> PostgresAccountsStore::Create(
    const std::string& id, Role role, const std::string& token_sha256) {
  // The unique keys decide between replicas creating the same principal at
  // once: the later insert waits for the earlier one's commit and does
  // nothing. Both keys, not only the id: replicas sharing one admin token
  // file insert the same id with the same token hash, and either key may
  // be the one the later insert meets first.
  ASSIGN_OR_RETURN(
      PgResult r, pool_->Exec(kInsertPrincipalSql,
                              {PgParam::Text(id), PgParam::Text(RoleName(role)),
                               PgParam::Text(token_sha256)}));
  if (r.rows() == 0) {
    absl::StatusOr<Account> existing = Get(id);
    if (existing.ok()) return PrincipalExistsError(id);
    if (!absl::IsNotFound(existing.status())) return existing.status();
    // Another principal has this token's hash: never for generated
    // tokens (256 random bits), so refuse rather than share a token.
    return absl::InternalError(
        absl::StrCat("Cannot create '", id,
                     "': another principal already has this "
                     "token; create it again (a new token is generated)."));
  }
  ASSIGN_OR_RETURN(const int64_t created_us, r.GetInt64(0, 0));
  return Account{id, role, absl::FromUnixMicros(created_us), false};
}

absl::Status PostgresAccountsStore::Revoke(const std::string& id) {
  ASSIGN_OR_RETURN(
      PgResult r,
      pool_->Exec("UPDATE principals SET revoked = TRUE WHERE id = $1",
                  {PgParam::Text(id)}));
  if (r.affected() == 0) return NoSuchPrincipalError(id);
  return absl::OkStatus();
}

absl::StatusOr<Account> PostgresAccountsStore::Get(
    const std::string& id) const {
  ASSIGN_OR_RETURN(
      PgResult r,
      pool_->Exec("SELECT id, role, created_at, revoked FROM principals "
                  "WHERE id = $1",
                  {PgParam::Text(id)}));
  if (r.rows() == 0) return NoSuchPrincipalError(id);
  return AccountFromRow(r, 0);
}

absl::StatusOr<std::vector<Account>> PostgresAccountsStore::List(
    Role role) const {
  ASSIGN_OR_RETURN(
      PgResult r,
      pool_->Exec("SELECT id, role, created_at, revoked FROM principals "
                  "WHERE role = $1 ORDER BY id",
                  {PgParam::Text(RoleName(role))}));
  std::vector<Account> accounts;
  accounts.reserve(r.rows());
  for (int row = 0; row < r.rows(); ++row) {
    ASSIGN_OR_RETURN(Account account, AccountFromRow(r, row));
    accounts.push_back(std::move(account));
  }
  return accounts;
}

absl::StatusOr<std::optional<Principal>> PostgresAccountsStore::Authenticate(
    absl::string_view token_sha256) const {
  ASSIGN_OR_RETURN(PgResult r,
                   pool_->Exec("SELECT id, role FROM principals "
                               "WHERE token_sha256 = $1 AND NOT revoked",
                               {PgParam::Text(std::string(token_sha256))}));
  if (r.rows() == 0) return std::optional<Principal>();
  return std::optional<Principal>(
      Principal{std::string(r.Get(0, 0)), RoleFromName(r.Get(0, 1))});
}

absl::Status PostgresAccountsStore::AppendAudit(const std::string& actor,
                                                const std::string& action,
                                                const std::string& details) {
  return pool_
      ->Exec(kInsertAuditSql, {PgParam::Text(actor), PgParam::Text(action),
                               PgParam::Text(details)})
      .status();
}

absl::StatusOr<std::vector<AuditRecord>> PostgresAccountsStore::ListAudit(
    const auth::AuditQuery& query) const {
  // LIMIT takes a BIGINT: a larger limit is no limit.
  const int64_t bounded =
      query.limit > static_cast<size_t>(std::numeric_limits<int64_t>::max())
          ? std::numeric_limits<int64_t>::max()
          : static_cast<int64_t>(query.limit);
  // $2 = 0 and $3 = '' select everything.
  ASSIGN_OR_RETURN(
      PgResult r,
      pool_->Exec("SELECT time, actor, action, details, seq FROM audit_log "
                  "WHERE ($2::BIGINT = 0 OR seq < $2::BIGINT) "
                  "AND ($3::TEXT = '' OR action = $3::TEXT) "
                  "ORDER BY seq DESC LIMIT $1",
                  {PgParam::Int(bounded), PgParam::Int(query.before_seq),
                   PgParam::Text(query.action)}));
  std::vector<AuditRecord> records;
  records.reserve(r.rows());
  for (int row = 0; row < r.rows(); ++row) {
    ASSIGN_OR_RETURN(const int64_t time_us, r.GetInt64(row, 0));
    ASSIGN_OR_RETURN(const int64_t seq, r.GetInt64(row, 4));
    records.push_back(AuditRecord{
        absl::FromUnixMicros(time_us), std::string(r.Get(row, 1)),
        std::string(r.Get(row, 2)), std::string(r.Get(row, 3)), seq});
  }
  return records;
}

absl::StatusOr<bool> PostgresAccountsStore::HoldsData(PgConnection& c) {
  ASSIGN_OR_RETURN(PgResult r,
                   c.Exec("SELECT EXISTS (SELECT 1 FROM principals) OR "
                          "EXISTS (SELECT 1 FROM audit_log)"));
  return r.GetBool(0, 0);
}

absl::Status PostgresAccountsStore::Import(
    PgConnection& c, const auth::AccountsSnapshot& snapshot) {
  for (const auth::PrincipalRecord& p : snapshot.principals) {
    RETURN_IF_ERROR(
        c.Exec("INSERT INTO principals (id, role, token_sha256, created_at, "
               "revoked) VALUES ($1, $2, $3, $4, $5)",
               {PgParam::Text(p.account.id),
                PgParam::Text(RoleName(p.account.role)),
                PgParam::Text(p.token_sha256),
                PgParam::Int(absl::ToUnixMicros(p.account.created_at)),
                PgParam::Text(p.account.revoked ? "true" : "false")})
            .status());
  }
  // In order: seq (an identity) numbers them as the old log did.
  for (const AuditRecord& record : snapshot.audit) {
    RETURN_IF_ERROR(
        c.Exec("INSERT INTO audit_log (time, actor, action, details) "
               "VALUES ($1, $2, $3, $4)",
               {PgParam::Int(absl::ToUnixMicros(record.time)),
                PgParam::Text(record.actor), PgParam::Text(record.action),
                PgParam::Text(record.details)})
            .status());
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::storage
