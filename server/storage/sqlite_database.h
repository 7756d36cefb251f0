// One SQLite connection as dpq's stores use it (the ledger and the
// accounts): the only code that talks to the SQLite C API.
//
// What every store gets from it:
//  - the file is created with mode 0600 before SQLite opens it, so it is
//    never readable by others, not even for a moment (SQLite creates its
//    -wal and -shm files with the database file's mode);
//  - WAL journal and synchronous=FULL: a transaction is on disk when its
//    COMMIT returns, and survives kill -9 and power loss;
//  - a busy timeout: a connection waits that long for another connection
//    (or process) holding the write lock, then fails with kUnavailable;
//  - every result code is checked: a failed bind, step or commit is an
//    absl::Status naming the database, the step and SQLite's message;
//    SQLITE_BUSY and SQLITE_LOCKED are kUnavailable (the caller may retry),
//    anything else kInternal;
//  - transactions that roll back unless committed, and prepared
//    statements that are finalised (or reset, when cached) on scope exit.
//
// Not thread-safe: a store serialises all use of its connection with its
// own mutex (the connection is opened without SQLite's mutexes).
#ifndef DPQ_SERVER_STORAGE_SQLITE_DATABASE_H_
#define DPQ_SERVER_STORAGE_SQLITE_DATABASE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

struct sqlite3;
struct sqlite3_stmt;

namespace dpq::server::storage {

class SqliteDatabase;

// The status of SQLite result code `rc` (not SQLITE_OK), for the step
// `what` (e.g. "binding a text parameter") on the database called `name`
// (e.g. "ledger database"): kUnavailable for SQLITE_BUSY and SQLITE_LOCKED
// (another connection held the database for longer than the busy timeout),
// kInternal otherwise. The message names the database, the step, SQLite's
// message (from `db` if not null) and the code.
absl::Status SqliteError(sqlite3* db, int rc, absl::string_view name,
                         absl::string_view what);

// A prepared statement. Parameters are numbered from 1, columns from 0.
// Made by SqliteDatabase::Prepare (finalised on destruction) or
// SqliteDatabase::Cached (reset and its bindings cleared on destruction,
// ready for the next use).
class SqliteStatement {
 public:
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  // Each bind returns the error SQLite reports (e.g. SQLITE_RANGE for an
  // index the statement has no parameter for). "" binds an empty text or
  // blob, never NULL.
  absl::Status BindText(int index, absl::string_view text);
  absl::Status BindBlob(int index, absl::string_view bytes);
  absl::Status BindDouble(int index, double value);
  absl::Status BindInt64(int index, int64_t value);

  // Advances: true if a row is ready, false when the statement is done.
  absl::StatusOr<bool> Step();
  // Runs a statement that returns no rows (one step).
  absl::Status Run();

  // The current row's columns (after Step returned true). Text and Blob
  // of NULL are "".
  bool IsNull(int column) const;
  double Double(int column) const;
  int64_t Int64(int column) const;
  std::string Text(int column) const;
  std::string Blob(int column) const;

 private:
  friend class SqliteDatabase;
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt, const std::string* name,
                  bool owned)
      : db_(db), stmt_(stmt), name_(name), owned_(owned) {}
  absl::Status Check(int rc, absl::string_view what) const;

  sqlite3* const db_;
  sqlite3_stmt* const stmt_;
  const std::string* const name_;  // the database's name, for messages
  const bool owned_;               // finalise (true) or reset (false)
};

// A transaction: rolled back on destruction unless committed.
class SqliteTransaction {
 public:
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  ~SqliteTransaction();

  // Durable (synchronous=FULL) once this returns OK.
  absl::Status Commit();

 private:
  friend class SqliteDatabase;
  explicit SqliteTransaction(SqliteDatabase* db) : db_(db) {}
  SqliteDatabase* const db_;
};

class SqliteDatabase {
 public:
  struct Options {
    // Names the database in messages: "Cannot create the <name> '<path>'",
    // "<Name> error while ...". E.g. "ledger database".
    std::string name = "database";
    // How long a statement waits for a lock held by another connection
    // before it fails with kUnavailable.
    absl::Duration busy_timeout = absl::Seconds(10);
  };

  // Opens the database at `path`, creating the file (mode 0600, before
  // SQLite opens it) if it does not exist; an existing file keeps its mode.
  // Switches it to WAL with synchronous=FULL. ":memory:" gives a private
  // in-memory database (tests only: not durable).
  // Errors: kInvalidArgument for an empty path; kFailedPrecondition naming
  // the path if the file cannot be created or opened, is not a SQLite
  // database, or cannot use WAL; kUnavailable if another connection keeps
  // it locked.
  static absl::StatusOr<std::unique_ptr<SqliteDatabase>> Open(
      const std::string& path, const Options& options);

  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;
  ~SqliteDatabase();

  const std::string& path() const { return path_; }

  // Runs SQL without parameters or results (several statements allowed);
  // `what` names the step in an error.
  absl::Status Exec(absl::string_view sql, absl::string_view what);

  // A statement finalised when the handle is destroyed.
  absl::StatusOr<std::unique_ptr<SqliteStatement>> Prepare(
      absl::string_view sql);
  // A statement prepared once per connection and kept (preparing costs
  // more than running most statements); the handle resets it when
  // destroyed. At most one handle per SQL text may be alive at a time.
  absl::StatusOr<std::unique_ptr<SqliteStatement>> Cached(
      absl::string_view sql);

  // Starts a transaction. `immediate` takes the write lock now (use it for
  // every transaction that writes), so that a concurrent writer makes this
  // one wait (busy timeout) before it starts instead of failing halfway.
  absl::StatusOr<std::unique_ptr<SqliteTransaction>> Begin(bool immediate);

  // True inside a transaction. SQLite rolls a transaction back by itself
  // on some errors (I/O, disk full): then this turns false.
  bool InTransaction() const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  int64_t Changes() const;
  // The rowid of the last INSERT.
  int64_t LastInsertRowId() const;
  // The status of the connection's last error (kInternal if it had none).
  absl::Status LastError(absl::string_view what) const;

 private:
  SqliteDatabase(std::string path, std::string name, sqlite3* db)
      : path_(std::move(path)), name_(std::move(name)), db_(db) {}
  // PRAGMA journal_mode = WAL, checking that it took; synchronous = FULL.
  absl::Status UseWalAndFullSync();

  const std::string path_;
  const std::string name_;
  sqlite3* const db_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_SQLITE_DATABASE_H_
