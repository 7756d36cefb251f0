#include "server/auth/accounts_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "core/util/sha256_hex.h"
#include "core/util/status_macros.h"
#include "server/auth/token.h"
#include "server/storage/sqlite_database.h"

namespace dpq::server::auth {
namespace {

using ::dpq::server::storage::SqliteDatabase;
using ::dpq::server::storage::SqliteStatement;
using ::dpq::server::storage::SqliteTransaction;

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

const char* RoleName(Role role) {
  return role == Role::kAdmin ? "admin" : "buyer";
}

Role RoleOf(const std::string& name) {
  return name == "admin" ? Role::kAdmin : Role::kBuyer;
}

// A row of (id, role, created_at, revoked).
Account AccountFromRow(const SqliteStatement& row) {
  Account account;
  account.id = row.Text(0);
  account.role = RoleOf(row.Text(1));
  account.created_at = absl::FromUnixMicros(row.Int64(2));
  account.revoked = row.Int64(3) != 0;
  return account;
}

absl::Status NoSuchPrincipal(const std::string& id) {
  return absl::NotFoundError(absl::StrCat("No buyer named '", id, "'."));
}

}  // namespace

AccountsStore::AccountsStore(std::unique_ptr<SqliteDatabase> db)
    : db_(std::move(db)) {}

AccountsStore::~AccountsStore() = default;

absl::StatusOr<std::unique_ptr<AccountsStore>> AccountsStore::Open(
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
  std::unique_ptr<AccountsStore> store(new AccountsStore(std::move(db)));
  absl::MutexLock lock(&store->mu_);
  RETURN_IF_ERROR(store->LoadIndex());
  return store;
}

absl::Status AccountsStore::LoadIndex() {
  by_hash_.clear();
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> select,
                   db_->Prepare("SELECT id, role, token_sha256 FROM principals "
                                "WHERE revoked = 0"));
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    by_hash_[select->Text(2)] =
        Principal{select->Text(0), RoleOf(select->Text(1))};
  }
  return absl::OkStatus();
}

absl::StatusOr<Account> AccountsStore::Create(const std::string& id, Role role,
                                              const std::string& token_sha256) {
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
    return absl::AlreadyExistsError(
        absl::StrCat("A principal named '", id, "' already exists."));
  }
  by_hash_[token_sha256] = Principal{id, role};
  return Account{id, role, now, false};
}

absl::Status AccountsStore::Revoke(const std::string& id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> update,
      db_->Cached("UPDATE principals SET revoked = 1 WHERE id = ?1 "
                  "RETURNING token_sha256"));
  RETURN_IF_ERROR(update->BindText(1, id));
  ASSIGN_OR_RETURN(const bool found, update->Step());
  if (!found) return NoSuchPrincipal(id);
  const std::string hash = update->Text(0);
  ASSIGN_OR_RETURN(const bool more, update->Step());
  (void)more;  // id is the primary key: one row at most
  by_hash_.erase(hash);
  return absl::OkStatus();
}

absl::StatusOr<Account> AccountsStore::Get(const std::string& id) const {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteStatement> select,
      db_->Cached("SELECT id, role, created_at, revoked FROM principals "
                  "WHERE id = ?1"));
  RETURN_IF_ERROR(select->BindText(1, id));
  ASSIGN_OR_RETURN(const bool found, select->Step());
  if (!found) return NoSuchPrincipal(id);
  return AccountFromRow(*select);
}

absl::StatusOr<std::vector<Account>> AccountsStore::List(Role role) const {
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

std::optional<Principal> AccountsStore::Authenticate(
    absl::string_view token_sha256) const {
  absl::MutexLock lock(&mu_);
  auto it = by_hash_.find(token_sha256);
  if (it == by_hash_.end()) return std::nullopt;
  return it->second;
}

absl::Status AccountsStore::AppendAudit(const std::string& actor,
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

absl::StatusOr<std::vector<AuditRecord>> AccountsStore::ListAudit(
    size_t limit) const {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStatement> select,
                   db_->Cached("SELECT time, actor, action, details FROM audit "
                               "ORDER BY seq DESC LIMIT ?1"));
  // A limit above the largest int64 wraps to a negative LIMIT: no limit.
  RETURN_IF_ERROR(select->BindInt64(1, static_cast<int64_t>(limit)));
  std::vector<AuditRecord> records;
  while (true) {
    ASSIGN_OR_RETURN(const bool row, select->Step());
    if (!row) break;
    records.push_back(AuditRecord{absl::FromUnixMicros(select->Int64(0)),
                                  select->Text(1), select->Text(2),
                                  select->Text(3)});
  }
  return records;
}

absl::StatusOr<bool> EnsureAdminToken(AccountsStore& accounts,
                                      const std::string& token_path) {
  absl::StatusOr<Account> admin = accounts.Get(kAdminId);
  if (admin.ok()) return false;
  if (!absl::IsNotFound(admin.status())) return admin.status();

  // A file left by a crash between writing it and storing its hash.
  std::ifstream existing(token_path);
  if (existing) {
    std::stringstream text;
    text << existing.rdbuf();
    const std::string token =
        std::string(absl::StripAsciiWhitespace(text.str()));
    if (!IsWellFormedToken(token)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "'", token_path,
          "' exists but holds no dpq token, and the "
          "accounts database has no admin: remove the file to create a new "
          "admin token."));
    }
    RETURN_IF_ERROR(
        accounts.Create(kAdminId, Role::kAdmin, core::util::Sha256Hex(token))
            .status());
    return false;
  }

  ASSIGN_OR_RETURN(const std::string token, GenerateToken());
  const int fd =
      ::open(token_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("Cannot create '", token_path,
                                            "': ", std::strerror(errno)));
  }
  const std::string line = token + "\n";
  const bool written = ::write(fd, line.data(), line.size()) ==
                           static_cast<ssize_t>(line.size()) &&
                       ::fsync(fd) == 0;
  const int saved_errno = errno;
  ::close(fd);
  if (!written) {
    ::unlink(token_path.c_str());
    return absl::InternalError(absl::StrCat("Cannot write '", token_path,
                                            "': ", std::strerror(saved_errno)));
  }
  // Make the new directory entry durable before the hash is stored.
  const std::string::size_type slash = token_path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : token_path.substr(0, slash + 1);
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  RETURN_IF_ERROR(
      accounts.Create(kAdminId, Role::kAdmin, core::util::Sha256Hex(token))
          .status());
  return true;
}

}  // namespace dpq::server::auth
