// PostgreSQL through libpq (Debian's libpq5): the only product code that
// includes libpq-fe.h. Used by the PostgreSQL stores of the shared-state mode
// (docs/operations.md): the ledger, the accounts and the dataset catalog of
// several dpq-server replicas live in one database.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<PgPool> pool, PgPool::Open(dsn, 8));
//   RETURN_IF_ERROR(ApplyMigrations(*pool, "ledger", kLedgerMigrations));
//   RETURN_IF_ERROR(pool->Transaction([&](PgConnection& c) -> absl::Status {
//     ASSIGN_OR_RETURN(PgResult r, c.Exec("SELECT spent FROM budgets WHERE "
//                                         "buyer_id = $1 FOR UPDATE",
//                                         {PgParam::Text(buyer)}));
//     ...
//   }));
//
// Errors. Every failure is an absl::Status whose message says what failed
// and never contains the DSN (it may hold a password):
//  - the server cannot be reached, the connection broke, or the server is
//    shutting down or starting (SQLSTATE class 08, 57P01..57P03, 53300 too
//    many connections): kUnavailable "PostgreSQL is unreachable: ...". The
//    connection is dropped; the next Acquire connects anew, so service
//    resumes by itself when the database is back.
//  - a serialization failure (40001) or deadlock (40P01): kAborted; the
//    Transaction helper retries these itself.
//  - any other SQL error: kInternal with the server's message, except the
//    constraint violations callers expect to map themselves (23505 unique,
//    23503 foreign key, 23514 check): kFailedPrecondition.
// Every error status carries the SQLSTATE as the payload kSqlStatePayload
// (read it with SqlStateOf) so callers can tell, e.g., a unique violation.
//
// Thread-safety: a PgConnection is used by one thread at a time (the pool
// hands it out); PgPool is thread-safe.
#ifndef DPQ_SERVER_STORAGE_POSTGRES_DATABASE_H_
#define DPQ_SERVER_STORAGE_POSTGRES_DATABASE_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

// libpq's types, so that this header does not include libpq-fe.h.
struct pg_conn;
struct pg_result;

namespace dpq::server::storage {

// The absl::Status payload URL that holds the SQLSTATE of a failed command.
inline constexpr char kSqlStatePayload[] = "dpq.postgresql/sqlstate";

// The SQLSTATE of `status` ("" if it carries none), e.g. "23505".
std::string SqlStateOf(const absl::Status& status);

// One parameter of a command ($1, $2, ... in order). Text parameters are
// sent as text (PostgreSQL converts them to the column type); Bytes as a
// binary bytea; Null as SQL NULL.
class PgParam {
 public:
  static PgParam Text(std::string value);
  static PgParam Int(int64_t value);
  static PgParam Bytes(std::string value);
  static PgParam Null();

  const std::optional<std::string>& value() const { return value_; }
  bool binary() const { return binary_; }

 private:
  std::optional<std::string> value_;
  bool binary_ = false;
};

// The rows of a successful command, owned (PQclear on destruction).
// Columns are read by index; text format, except bytea columns selected
// by a command run with binary results (Exec's `binary_results`).
class PgResult {
 public:
  PgResult() = default;
  explicit PgResult(pg_result* result);
  PgResult(PgResult&& other) noexcept;
  PgResult& operator=(PgResult&& other) noexcept;
  PgResult(const PgResult&) = delete;
  PgResult& operator=(const PgResult&) = delete;
  ~PgResult();

  int rows() const;
  int columns() const;
  // Rows changed by an INSERT/UPDATE/DELETE (PQcmdTuples), 0 otherwise.
  int64_t affected() const;
  bool IsNull(int row, int column) const;
  // The value as the server sent it ("" for NULL); valid while *this lives.
  absl::string_view Get(int row, int column) const;
  // Get parsed as a decimal int64; kInternal naming the column if it is
  // NULL or not an integer.
  absl::StatusOr<int64_t> GetInt64(int row, int column) const;
  // "t"/"f" -> bool; kInternal otherwise.
  absl::StatusOr<bool> GetBool(int row, int column) const;

 private:
  pg_result* result_ = nullptr;
};

class PgPool;

// One open connection (PQconnectdb). Each command is sent with
// PQexecParams (no SQL text is ever built from values).
class PgConnection {
 public:
  // Connects with `dsn` (a libpq connection string or postgresql:// URI;
  // empty = the PG* environment variables only), with a connect timeout
  // of `connect_timeout`. kUnavailable if the server cannot be reached
  // (message without the DSN); kInvalidArgument if libpq rejects the DSN
  // itself (malformed URI, unknown option).
  static absl::StatusOr<std::unique_ptr<PgConnection>> Connect(
      const std::string& dsn,
      absl::Duration connect_timeout = absl::Seconds(5));
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one command with parameters; errors as in the file comment.
  // `binary_results`: every column comes back in binary format (for bytea
  // columns; integers are then big-endian, so use it only for bytea).
  absl::StatusOr<PgResult> Exec(absl::string_view sql,
                                absl::Span<const PgParam> params = {},
                                bool binary_results = false);
  absl::StatusOr<PgResult> Exec(absl::string_view sql,
                                std::initializer_list<PgParam> params,
                                bool binary_results = false) {
    return Exec(sql, absl::MakeConstSpan(params.begin(), params.size()),
                binary_results);
  }
  // Runs several ;-separated commands without parameters (schema scripts).
  absl::Status ExecScript(absl::string_view sql);

  // False once the connection broke (a command failed with kUnavailable).
  bool healthy() const;

 private:
  friend class PgPool;
  friend absl::Status ApplyMigrations(PgPool&, absl::string_view,
                                      absl::Span<const absl::string_view>);

  explicit PgConnection(pg_conn* conn);
  // The status for a failed command or a broken connection; marks the
  // connection broken when the failure means it is unusable.
  absl::Status Error(pg_result* result, absl::string_view sql);
  // Reads whatever the server sent while the connection sat idle (without
  // blocking): false if it closed the connection meanwhile (a restart).
  bool StillAlive();
  // True between BEGIN and COMMIT/ROLLBACK (also when the transaction
  // failed): such a connection must not go back to the pool.
  bool InTransaction() const;
  void MarkBroken() { broken_ = true; }

  pg_conn* conn_ = nullptr;
  bool broken_ = false;
};

// How PgPool::Transaction isolates.
enum class PgIsolation { kReadCommitted, kRepeatableRead, kSerializable };

// A fixed-size pool of connections to one database.
class PgPool {
 public:
  struct Options {
    // Connections kept at most (1..64).
    int size = 8;
    // How long Acquire waits for a free connection before kUnavailable.
    absl::Duration acquire_timeout = absl::Seconds(10);
    absl::Duration connect_timeout = absl::Seconds(5);
    // Transaction: attempts for serialization failures and deadlocks.
    int max_attempts = 20;
  };

  // Connects once (so that a wrong DSN or an unreachable server is an
  // error at start-up) and keeps that connection. Errors as Connect.
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(const std::string& dsn,
                                                      Options options);
  static absl::StatusOr<std::unique_ptr<PgPool>> Open(const std::string& dsn) {
    return Open(dsn, Options());
  }
  ~PgPool();
  PgPool(const PgPool&) = delete;
  PgPool& operator=(const PgPool&) = delete;

  // A connection for the caller's exclusive use, returned to the pool when
  // the lease is destroyed (dropped instead if it broke).
  class Lease {
   public:
    Lease(PgPool* pool, std::unique_ptr<PgConnection> conn);
    Lease(Lease&&) noexcept;
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    PgConnection& operator*() const { return *conn_; }
    PgConnection* operator->() const { return conn_.get(); }

   private:
    PgPool* pool_;
    std::unique_ptr<PgConnection> conn_;
  };

  // An idle connection, a new one (up to size), or, when all are in use,
  // the first one returned within acquire_timeout (else kUnavailable).
  absl::StatusOr<Lease> Acquire() ABSL_LOCKS_EXCLUDED(mu_);

  // Runs `body` inside BEGIN ISOLATION LEVEL ... / COMMIT on one leased
  // connection; ROLLBACK if `body` fails. Retries the whole transaction
  // (body included: it must have no effects outside the database) on
  // kAborted from a serialization failure or deadlock, up to
  // max_attempts, with a short random back-off. kUnavailable if the
  // connection breaks (also during COMMIT: the caller cannot tell whether
  // it committed, and must be written so that either outcome is safe).
  absl::Status Transaction(absl::FunctionRef<absl::Status(PgConnection&)> body,
                           PgIsolation isolation = PgIsolation::kReadCommitted);

  // Runs one command outside an explicit transaction (autocommit).
  absl::StatusOr<PgResult> Exec(absl::string_view sql,
                                std::initializer_list<PgParam> params = {},
                                bool binary_results = false);

 private:
  PgPool(std::string dsn, Options options);
  void Return(std::unique_ptr<PgConnection> conn) ABSL_LOCKS_EXCLUDED(mu_);

  const std::string dsn_;
  const Options options_;
  absl::Mutex mu_;
  absl::CondVar returned_;  // signalled when a connection is returned
  std::vector<std::unique_ptr<PgConnection>> idle_ ABSL_GUARDED_BY(mu_);
  int open_ ABSL_GUARDED_BY(mu_) = 0;  // idle + leased
};

// Brings one component's tables ("ledger", "accounts", "catalog") to the
// newest version: steps[i] is the SQL script from version i to i + 1. The
// version of each component is kept in the table dpq_schema(component,
// version); the whole run holds a session advisory lock
// (pg_advisory_lock), so that replicas starting together apply each step
// once, and each step runs in its own transaction with the version update.
// kFailedPrecondition if the database has a newer version than
// steps.size() (a newer dpq-server wrote it: upgrade this one).
absl::Status ApplyMigrations(PgPool& pool, absl::string_view component,
                             absl::Span<const absl::string_view> steps);

}  // namespace dpq::server::storage

#endif  // DPQ_SERVER_STORAGE_POSTGRES_DATABASE_H_
