#include "server/auth/accounts_store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "core/util/status_macros.h"
#include "server/auth/token.h"

namespace dpq::server::auth {
namespace {

const char* RoleName(Role role) {
  return role == Role::kAdmin ? "admin" : "buyer";
}

absl::Status SqliteError(sqlite3* db, absl::string_view what) {
  return absl::InternalError(
      absl::StrCat("accounts database: ", what, ": ", sqlite3_errmsg(db)));
}

// A prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  absl::Status status(absl::string_view what) const {
    return rc_ == SQLITE_OK ? absl::OkStatus() : SqliteError(db_, what);
  }
  void Bind(int i, const std::string& text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
  }
  void Bind(int i, int64_t value) { sqlite3_bind_int64(stmt_, i, value); }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(stmt_); }
  std::string Text(int column) const {
    const unsigned char* text = sqlite3_column_text(stmt_, column);
    return text == nullptr ? std::string()
                           : std::string(reinterpret_cast<const char*>(text),
                                         sqlite3_column_bytes(stmt_, column));
  }
  int64_t Int(int column) const { return sqlite3_column_int64(stmt_, column); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
};

absl::Status Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    return absl::InternalError(
        absl::StrCat("accounts database: '", sql, "': ", message));
  }
  return absl::OkStatus();
}

Account AccountFromRow(const Statement& row) {
  Account account;
  account.id = row.Text(0);
  account.role = row.Text(1) == "admin" ? Role::kAdmin : Role::kBuyer;
  account.created_at = absl::FromUnixMicros(row.Int(2));
  account.revoked = row.Int(3) != 0;
  return account;
}

}  // namespace

absl::StatusOr<std::unique_ptr<AccountsStore>> AccountsStore::Open(
    const std::string& db_path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(
      db_path.c_str(), &db,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
      nullptr);
  if (rc != SQLITE_OK) {
    const std::string message =
        db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return absl::InternalError(absl::StrCat(
        "Cannot open the accounts database '", db_path, "': ", message));
  }
  ::chmod(db_path.c_str(), 0600);  // token hashes: owner only
  std::unique_ptr<AccountsStore> store(new AccountsStore(db));
  absl::MutexLock lock(&store->mu_);
  sqlite3_busy_timeout(db, 5000);
  RETURN_IF_ERROR(Exec(db, "PRAGMA journal_mode=WAL"));
  RETURN_IF_ERROR(Exec(db, "PRAGMA synchronous=FULL"));
  RETURN_IF_ERROR(Exec(db,
                       "CREATE TABLE IF NOT EXISTS principals ("
                       " id TEXT PRIMARY KEY,"
                       " role TEXT NOT NULL CHECK (role IN ('admin','buyer')),"
                       " token_sha256 TEXT NOT NULL UNIQUE,"
                       " created_at INTEGER NOT NULL,"
                       " revoked INTEGER NOT NULL DEFAULT 0)"));
  RETURN_IF_ERROR(Exec(db,
                       "CREATE TABLE IF NOT EXISTS audit ("
                       " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
                       " time INTEGER NOT NULL,"
                       " actor TEXT NOT NULL,"
                       " action TEXT NOT NULL,"
                       " details TEXT NOT NULL)"));
  RETURN_IF_ERROR(store->LoadIndex());
  return store;
}

AccountsStore::~AccountsStore() {
  absl::MutexLock lock(&mu_);
  sqlite3_close(db_);
}

absl::Status AccountsStore::LoadIndex() {
  by_hash_.clear();
  Statement select(db_,
                   "SELECT id, role, token_sha256 FROM principals "
                   "WHERE revoked = 0");
  RETURN_IF_ERROR(select.status("loading principals"));
  int rc;
  while ((rc = select.Step()) == SQLITE_ROW) {
    by_hash_[select.Text(2)] = Principal{
        select.Text(0), select.Text(1) == "admin" ? Role::kAdmin : Role::kBuyer};
  }
  if (rc != SQLITE_DONE) return SqliteError(db_, "loading principals");
  return absl::OkStatus();
}

absl::StatusOr<Account> AccountsStore::Create(const std::string& id, Role role,
                                              const std::string& token_sha256) {
  absl::MutexLock lock(&mu_);
  Statement insert(db_,
                   "INSERT INTO principals (id, role, token_sha256, "
                   "created_at, revoked) VALUES (?1, ?2, ?3, ?4, 0) "
                   "ON CONFLICT (id) DO NOTHING");
  RETURN_IF_ERROR(insert.status("creating a principal"));
  const absl::Time now = absl::Now();
  insert.Bind(1, id);
  insert.Bind(2, std::string(RoleName(role)));
  insert.Bind(3, token_sha256);
  insert.Bind(4, absl::ToUnixMicros(now));
  if (insert.Step() != SQLITE_DONE) {
    return SqliteError(db_, absl::StrCat("creating '", id, "'"));
  }
  if (sqlite3_changes(db_) == 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("A principal named '", id, "' already exists."));
  }
  by_hash_[token_sha256] = Principal{id, role};
  return Account{id, role, absl::FromUnixMicros(absl::ToUnixMicros(now)),
                 false};
}

absl::Status AccountsStore::Revoke(const std::string& id) {
  absl::MutexLock lock(&mu_);
  Statement update(db_,
                   "UPDATE principals SET revoked = 1 WHERE id = ?1 "
                   "RETURNING token_sha256");
  RETURN_IF_ERROR(update.status("revoking a principal"));
  update.Bind(1, id);
  int rc = update.Step();
  if (rc == SQLITE_DONE) {
    return absl::NotFoundError(absl::StrCat("No buyer named '", id, "'."));
  }
  if (rc != SQLITE_ROW) {
    return SqliteError(db_, absl::StrCat("revoking '", id, "'"));
  }
  const std::string hash = update.Text(0);
  if (update.Step() != SQLITE_DONE) {
    return SqliteError(db_, absl::StrCat("revoking '", id, "'"));
  }
  by_hash_.erase(hash);
  return absl::OkStatus();
}

absl::StatusOr<Account> AccountsStore::Get(const std::string& id) const {
  absl::MutexLock lock(&mu_);
  Statement select(db_,
                   "SELECT id, role, created_at, revoked FROM principals "
                   "WHERE id = ?1");
  RETURN_IF_ERROR(select.status("reading a principal"));
  select.Bind(1, id);
  const int rc = select.Step();
  if (rc == SQLITE_DONE) {
    return absl::NotFoundError(absl::StrCat("No buyer named '", id, "'."));
  }
  if (rc != SQLITE_ROW) {
    return SqliteError(db_, absl::StrCat("reading '", id, "'"));
  }
  return AccountFromRow(select);
}

absl::StatusOr<std::vector<Account>> AccountsStore::List(Role role) const {
  absl::MutexLock lock(&mu_);
  Statement select(db_,
                   "SELECT id, role, created_at, revoked FROM principals "
                   "WHERE role = ?1 ORDER BY id");
  RETURN_IF_ERROR(select.status("listing principals"));
  select.Bind(1, std::string(RoleName(role)));
  std::vector<Account> accounts;
  int rc;
  while ((rc = select.Step()) == SQLITE_ROW) {
    accounts.push_back(AccountFromRow(select));
  }
  if (rc != SQLITE_DONE) return SqliteError(db_, "listing principals");
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
  Statement insert(db_,
                   "INSERT INTO audit (time, actor, action, details) "
                   "VALUES (?1, ?2, ?3, ?4)");
  RETURN_IF_ERROR(insert.status("writing the audit log"));
  insert.Bind(1, absl::ToUnixMicros(absl::Now()));
  insert.Bind(2, actor);
  insert.Bind(3, action);
  insert.Bind(4, details);
  if (insert.Step() != SQLITE_DONE) {
    return SqliteError(db_, "writing the audit log");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<AuditRecord>> AccountsStore::ListAudit(
    size_t limit) const {
  absl::MutexLock lock(&mu_);
  Statement select(db_,
                   "SELECT time, actor, action, details FROM audit "
                   "ORDER BY seq DESC LIMIT ?1");
  RETURN_IF_ERROR(select.status("reading the audit log"));
  select.Bind(1, static_cast<int64_t>(limit));
  std::vector<AuditRecord> records;
  int rc;
  while ((rc = select.Step()) == SQLITE_ROW) {
    records.push_back(AuditRecord{absl::FromUnixMicros(select.Int(0)),
                                  select.Text(1), select.Text(2),
                                  select.Text(3)});
  }
  if (rc != SQLITE_DONE) return SqliteError(db_, "reading the audit log");
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
          "'", token_path, "' exists but holds no dpq token, and the "
          "accounts database has no admin: remove the file to create a new "
          "admin token."));
    }
    RETURN_IF_ERROR(
        accounts.Create(kAdminId, Role::kAdmin, Sha256Hex(token)).status());
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
  const bool written =
      ::write(fd, line.data(), line.size()) ==
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
      accounts.Create(kAdminId, Role::kAdmin, Sha256Hex(token)).status());
  return true;
}

}  // namespace dpq::server::auth
