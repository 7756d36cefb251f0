#include "server/storage/sqlite_database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/util/status_macros.h"

namespace dpq::server::storage {
namespace {

constexpr char kInMemory[] = ":memory:";

// Creates `path` with mode 0600 (never wider, whatever the umask) if it does
// not exist, so that the database and the -wal and -shm files SQLite
// creates with the same mode are the server user's only, from the first
// moment: a chmod after SQLite created the file would leave a window in
// which others could open it.
absl::Status CreatePrivateFile(const std::string& path,
                               absl::string_view name) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0) return absl::OkStatus();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("Cannot create the ", name, " '", path,
                     "': ", std::strerror(errno), "."));
  }
  ::close(fd);
  return absl::OkStatus();
}

bool IsBusy(int rc) {
  const int primary = rc & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

}  // namespace

absl::Status SqliteError(sqlite3* db, int rc, absl::string_view name,
                         absl::string_view what) {
  std::string database(name);
  if (!database.empty()) database[0] = absl::ascii_toupper(database[0]);
  const std::string message =
      absl::StrCat(database, " error while ", what, ": ",
                   db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc),
                   " (SQLite code ", rc, ").");
  if (IsBusy(rc)) return absl::UnavailableError(message);
  // A full disk is the operator's to fix and passes once space is freed:
  // retryable (the ledger settles what it left, core/ledger/
  // settling_ledger_store.h).
  if ((rc & 0xff) == SQLITE_FULL) {
    return absl::UnavailableError(
        absl::StrCat(message, " The server's disk is full."));
  }
  return absl::InternalError(message);
}

// ---------------------------------------------------------------------------
// SqliteStatement

SqliteStatement::~SqliteStatement() {
  if (owned_) {
    sqlite3_finalize(stmt_);
  } else {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

absl::Status SqliteStatement::Check(int rc, absl::string_view what) const {
  if (rc == SQLITE_OK) return absl::OkStatus();
  return SqliteError(db_, rc, *name_, what);
}

absl::Status SqliteStatement::BindText(int index, absl::string_view text) {
  // A non-null pointer even for "", so that "" is bound as '' and not NULL.
  return Check(
      sqlite3_bind_text(stmt_, index, text.empty() ? "" : text.data(),
                        static_cast<int>(text.size()), SQLITE_TRANSIENT),
      absl::StrCat("binding text parameter ", index));
}

absl::Status SqliteStatement::BindBlob(int index, absl::string_view bytes) {
  return Check(
      sqlite3_bind_blob(stmt_, index, bytes.empty() ? "" : bytes.data(),
                        static_cast<int>(bytes.size()), SQLITE_TRANSIENT),
      absl::StrCat("binding blob parameter ", index));
}

absl::Status SqliteStatement::BindDouble(int index, double value) {
  return Check(sqlite3_bind_double(stmt_, index, value),
               absl::StrCat("binding real parameter ", index));
}

absl::Status SqliteStatement::BindInt64(int index, int64_t value) {
  return Check(sqlite3_bind_int64(stmt_, index, value),
               absl::StrCat("binding integer parameter ", index));
}

absl::StatusOr<bool> SqliteStatement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(db_, rc, *name_, "executing a statement");
}

absl::Status SqliteStatement::Run() {
  ASSIGN_OR_RETURN(const bool row, Step());
  (void)row;
  return absl::OkStatus();
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

double SqliteStatement::Double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

int64_t SqliteStatement::Int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(size));
}

std::string SqliteStatement::Blob(int column) const {
  const void* bytes = sqlite3_column_blob(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (bytes == nullptr) return "";
  return std::string(static_cast<const char*>(bytes),
                     static_cast<size_t>(size));
}

// ---------------------------------------------------------------------------
// SqliteTransaction

SqliteTransaction::~SqliteTransaction() {
  if (db_->InTransaction()) {
    // Nothing to report to: the transaction's error was returned already.
    (void)db_->Exec("ROLLBACK", "rolling back a transaction");
  }
}

absl::Status SqliteTransaction::Commit() {
  return db_->Exec("COMMIT", "committing a transaction");
}

// ---------------------------------------------------------------------------
// SqliteDatabase

absl::StatusOr<std::unique_ptr<SqliteDatabase>> SqliteDatabase::Open(
    const std::string& path, const Options& options) {
  if (path.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The ", options.name, " path must not be empty."));
  }
  const bool in_memory = path == kInMemory;
  if (!in_memory) RETURN_IF_ERROR(CreatePrivateFile(path, options.name));
  sqlite3* raw = nullptr;
  // NOMUTEX: the owning store's mutex serialises all use of the connection.
  const int rc = sqlite3_open_v2(
      path.c_str(), &raw,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
      nullptr);
  if (rc != SQLITE_OK) {
    const std::string message =
        raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    sqlite3_close_v2(raw);
    return absl::FailedPreconditionError(absl::StrCat(
        "Cannot open the ", options.name, " '", path, "': ", message, "."));
  }
  std::unique_ptr<SqliteDatabase> db(
      new SqliteDatabase(path, options.name, raw));
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(
      raw, static_cast<int>(absl::ToInt64Milliseconds(options.busy_timeout)));
  RETURN_IF_ERROR(db->UseWalAndFullSync());
  return db;
}

absl::Status SqliteDatabase::UseWalAndFullSync() {
  {
    // The first read of a file that is not a database fails here.
    absl::StatusOr<std::unique_ptr<SqliteStatement>> mode =
        Prepare("PRAGMA journal_mode = WAL");
    absl::StatusOr<bool> row = false;
    if (mode.ok()) row = (*mode)->Step();
    const absl::Status status = mode.ok() ? row.status() : mode.status();
    if (absl::IsUnavailable(status)) return status;
    if (!status.ok() || !*row) {
      return absl::FailedPreconditionError(
          absl::StrCat("Cannot use '", path_, "' as the ", name_, ": ",
                       sqlite3_errmsg(db_), "."));
    }
    const std::string journal = (*mode)->Text(0);
    if (journal != "wal" && !(path_ == kInMemory && journal == "memory")) {
      return absl::FailedPreconditionError(
          absl::StrCat("Cannot switch the ", name_, " '", path_,
                       "' to WAL mode (journal mode is '", journal, "')."));
    }
  }
  return Exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
}

SqliteDatabase::~SqliteDatabase() {
  // Statements must be finalised before the connection closes.
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

absl::Status SqliteDatabase::Exec(absl::string_view sql,
                                  absl::string_view what) {
  const std::string text(sql);  // sqlite3_exec needs a terminating NUL
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  sqlite3_free(error);  // sqlite3_errmsg has the same message
  if (rc != SQLITE_OK) return SqliteError(db_, rc, name_, what);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<SqliteStatement>> SqliteDatabase::Prepare(
    absl::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v2(
      db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return SqliteError(db_, rc, name_, "preparing a statement");
  }
  if (stmt == nullptr) {
    return absl::InternalError(absl::StrCat(
        "No SQL statement to prepare for the ", name_, ": '", sql, "'."));
  }
  return std::unique_ptr<SqliteStatement>(
      new SqliteStatement(db_, stmt, &name_, /*owned=*/true));
}

absl::StatusOr<std::unique_ptr<SqliteStatement>> SqliteDatabase::Cached(
    absl::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it == cache_.end()) {
    sqlite3_stmt* stmt = nullptr;
    const int rc =
        sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                           SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return SqliteError(db_, rc, name_, "preparing a statement");
    }
    if (stmt == nullptr) {
      return absl::InternalError(absl::StrCat(
          "No SQL statement to prepare for the ", name_, ": '", sql, "'."));
    }
    it = cache_.emplace(std::string(sql), stmt).first;
  }
  return std::unique_ptr<SqliteStatement>(
      new SqliteStatement(db_, it->second, &name_, /*owned=*/false));
}

absl::StatusOr<std::unique_ptr<SqliteTransaction>> SqliteDatabase::Begin(
    bool immediate) {
  RETURN_IF_ERROR(
      Exec(immediate ? "BEGIN IMMEDIATE" : "BEGIN", "starting a transaction"));
  return std::unique_ptr<SqliteTransaction>(new SqliteTransaction(this));
}

bool SqliteDatabase::InTransaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

int64_t SqliteDatabase::Changes() const { return sqlite3_changes64(db_); }

int64_t SqliteDatabase::LastInsertRowId() const {
  return sqlite3_last_insert_rowid(db_);
}

absl::Status SqliteDatabase::LastError(absl::string_view what) const {
  return SqliteError(db_, sqlite3_extended_errcode(db_), name_, what);
}

}  // namespace dpq::server::storage
