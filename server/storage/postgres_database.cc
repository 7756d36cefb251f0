#include "server/storage/postgres_database.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "core/util/diagnostic_log.h"
#include "core/util/status_macros.h"

namespace dpq::server::storage {
namespace {

// SQLSTATE given to a connection that could not be established (libpq
// reports none for it): "sqlclient unable to establish sqlconnection".
constexpr char kConnectFailedState[] = "08001";

// The session advisory lock key of ApplyMigrations: FNV-1a (64 bit) of
// "dpq.schema", fixed so that every replica and version takes the same lock.
constexpr int64_t SchemaLockKey() {
  uint64_t hash = 14695981039346656037ull;
  for (char c : std::string_view("dpq.schema")) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return static_cast<int64_t>(hash);
}

// libpq's messages end with a newline and may span lines (a hint on a
// second line): one line for a status message.
std::string OneLine(absl::string_view text) {
  std::string line = absl::StrReplaceAll(absl::StripAsciiWhitespace(text),
                                         {{"\n", " "}, {"\t", " "}});
  return line;
}

absl::Status WithSqlState(absl::Status status, absl::string_view sqlstate) {
  if (!sqlstate.empty()) {
    status.SetPayload(kSqlStatePayload, absl::Cord(sqlstate));
  }
  return status;
}

// Server states that mean "no usable server right now": connection
// exceptions (class 08), shutdown or start-up (57P01..57P03), too many
// connections (53300).
bool IsUnavailableState(absl::string_view sqlstate) {
  return absl::StartsWith(sqlstate, "08") || sqlstate == "57P01" ||
         sqlstate == "57P02" || sqlstate == "57P03" || sqlstate == "53300";
}

bool IsRetryableState(absl::string_view sqlstate) {
  return sqlstate == "40001" || sqlstate == "40P01";
}

// libpq's reason names the server's host, address, port, user or socket
// path: for the operator (the server's log, at most one line per
// kDetailLogInterval), not for the callers, who may be buyers.
constexpr absl::Duration kDetailLogInterval = absl::Seconds(10);

void LogUnreachableDetail(absl::string_view detail) {
  static absl::Mutex mu(absl::kConstInit);
  static absl::Time last = absl::InfinitePast();
  {
    absl::MutexLock lock(&mu);
    const absl::Time now = absl::Now();
    if (now - last < kDetailLogInterval) return;
    last = now;
  }
  core::util::LogInfo(
      absl::StrCat("PostgreSQL is unreachable: ", OneLine(detail)));
}

absl::Status Unreachable(absl::string_view detail, absl::string_view sqlstate) {
  LogUnreachableDetail(detail);
  return WithSqlState(
      absl::UnavailableError(
          "PostgreSQL is unreachable (the server's log has the reason); "
          "retry when the database is back."),
      sqlstate);
}

// Keepalive probes after 5 s idle, every 2 s, 3 lost = dead; unacknowledged
// data for 10 s = dead (libpq keywords).
constexpr std::pair<const char*, const char*> kTcpLivenessDefaults[] = {
    {"keepalives", "1"},
    {"keepalives_idle", "5"},
    {"keepalives_interval", "2"},
    {"keepalives_count", "3"},
    {"tcp_user_timeout", "10000"}};

// The keyword `keyword` of a parsed connection string, if it is set there.
bool DsnSets(const PQconninfoOption* options, absl::string_view keyword) {
  for (const PQconninfoOption* o = options;
       o != nullptr && o->keyword != nullptr; ++o) {
    if (keyword == o->keyword) return o->val != nullptr && o->val[0] != '\0';
  }
  return false;
}

std::string DsnValue(const PQconninfoOption* options,
                     absl::string_view keyword) {
  for (const PQconninfoOption* o = options;
       o != nullptr && o->keyword != nullptr; ++o) {
    if (keyword == o->keyword && o->val != nullptr) return o->val;
  }
  return "";
}

bool Succeeded(const pg_result* result) {
  if (result == nullptr) return false;
  const ExecStatusType status = PQresultStatus(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ||
         status == PGRES_EMPTY_QUERY;
}

// libpq prints NOTICEs ("relation already exists, skipping") to stderr by
// default; the stores have no use for them.
void IgnoreNotice(void*, const char*) {}

const char* IsolationSql(PgIsolation isolation) {
  switch (isolation) {
    case PgIsolation::kRepeatableRead:
      return "BEGIN ISOLATION LEVEL REPEATABLE READ";
    case PgIsolation::kSerializable:
      return "BEGIN ISOLATION LEVEL SERIALIZABLE";
    case PgIsolation::kReadCommitted:
      break;
  }
  return "BEGIN ISOLATION LEVEL READ COMMITTED";
}

// Runs `body` between `begin` and COMMIT on `conn`; ROLLBACK if it fails.
// `begin_failed` tells the caller that nothing ran (safe to retry on
// another connection).
absl::Status RunTransaction(PgConnection& conn, const char* begin,
                            absl::FunctionRef<absl::Status(PgConnection&)> body,
                            bool* begin_failed) {
  *begin_failed = false;
  if (absl::StatusOr<PgResult> r = conn.Exec(begin); !r.ok()) {
    *begin_failed = true;
    return r.status();
  }
  absl::Status status = body(conn);
  if (status.ok()) {
    absl::StatusOr<PgResult> commit = conn.Exec("COMMIT");
    if (commit.ok()) return absl::OkStatus();
    status = commit.status();
  }
  // After a failed COMMIT the transaction is over already; a ROLLBACK then
  // only warns. Its own failure changes nothing (a broken connection is
  // dropped, and the server aborts the transaction with it).
  if (conn.healthy()) conn.Exec("ROLLBACK").IgnoreError();
  return status;
}

}  // namespace

std::string SqlStateOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kSqlStatePayload);
  return payload.has_value() ? std::string(*payload) : std::string();
}

// ---------------------------------------------------------------------------
// PgParam

PgParam PgParam::Text(std::string value) {
  PgParam p;
  p.value_ = std::move(value);
  return p;
}

PgParam PgParam::Int(int64_t value) { return Text(absl::StrCat(value)); }

PgParam PgParam::Bytes(std::string value) {
  PgParam p;
  p.value_ = std::move(value);
  p.binary_ = true;
  return p;
}

PgParam PgParam::Null() { return PgParam(); }

// ---------------------------------------------------------------------------
// PgResult

PgResult::PgResult(pg_result* result) : result_(result) {}

PgResult::PgResult(PgResult&& other) noexcept
    : result_(std::exchange(other.result_, nullptr)) {}

PgResult& PgResult::operator=(PgResult&& other) noexcept {
  if (this != &other) {
    if (result_ != nullptr) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}

PgResult::~PgResult() {
  if (result_ != nullptr) PQclear(result_);
}

int PgResult::rows() const {
  return result_ != nullptr ? PQntuples(result_) : 0;
}

int PgResult::columns() const {
  return result_ != nullptr ? PQnfields(result_) : 0;
}

int64_t PgResult::affected() const {
  if (result_ == nullptr) return 0;
  int64_t n = 0;
  return absl::SimpleAtoi(PQcmdTuples(result_), &n) ? n : 0;
}

bool PgResult::IsNull(int row, int column) const {
  return PQgetisnull(result_, row, column) != 0;
}

absl::string_view PgResult::Get(int row, int column) const {
  if (IsNull(row, column)) return "";
  return absl::string_view(PQgetvalue(result_, row, column),
                           PQgetlength(result_, row, column));
}

absl::StatusOr<int64_t> PgResult::GetInt64(int row, int column) const {
  int64_t value = 0;
  if (IsNull(row, column) || !absl::SimpleAtoi(Get(row, column), &value)) {
    return absl::InternalError(absl::StrCat(
        "PostgreSQL column '", PQfname(result_, column), "' of row ", row,
        " is not an integer: '", Get(row, column), "'."));
  }
  return value;
}

absl::StatusOr<bool> PgResult::GetBool(int row, int column) const {
  const absl::string_view v = Get(row, column);
  if (!IsNull(row, column) && v == "t") return true;
  if (!IsNull(row, column) && v == "f") return false;
  return absl::InternalError(
      absl::StrCat("PostgreSQL column '", PQfname(result_, column), "' of row ",
                   row, " is not a boolean: '", v, "'."));
}

// ---------------------------------------------------------------------------
// PgConnection

PgConnection::PgConnection(pg_conn* conn) : conn_(conn) {
  PQsetNoticeProcessor(conn_, IgnoreNotice, nullptr);
}

PgConnection::~PgConnection() {
  if (conn_ != nullptr) PQfinish(conn_);
}

absl::StatusOr<std::unique_ptr<PgConnection>> PgConnection::Connect(
    const std::string& dsn, absl::Duration connect_timeout) {
  // Parsed first, so that a malformed DSN is kInvalidArgument and our
  // defaults below yield to whatever the DSN sets.
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(dsn.c_str(), &parse_error);
  if (parsed == nullptr) {
    // libpq's reason quotes the unparsable part, which may be (or hold)
    // the password: it is never shown.
    PQfreemem(parse_error);
    return absl::InvalidArgumentError(
        "The PostgreSQL connection string (database) is malformed: libpq "
        "cannot parse it (its reason is not shown, as it may quote the "
        "password). Use 'key=value ...' pairs or a postgresql:// URI with "
        "special characters percent-encoded.");
  }
  const bool sets_app_name = DsnSets(parsed, "application_name") ||
                             std::getenv("PGAPPNAME") != nullptr;
  const bool sets_timeout = DsnSets(parsed, "connect_timeout") ||
                            std::getenv("PGCONNECT_TIMEOUT") != nullptr;
  const bool sets_keepalives =
      DsnSets(parsed, "keepalives_idle") || DsnSets(parsed, "tcp_user_timeout");
  const std::string password = DsnValue(parsed, "password");
  PQconninfoFree(parsed);

  // Defaults come before "dbname": expand_dbname expands the DSN in its
  // place, so the DSN's own values override them.
  const std::string timeout_seconds = absl::StrCat(std::max<int64_t>(
      2, absl::ToInt64Seconds(absl::Ceil(connect_timeout, absl::Seconds(1)))));
  std::vector<const char*> keys;
  std::vector<const char*> values;
  if (!sets_app_name) {
    keys.push_back("application_name");
    values.push_back("dpq-server");
  }
  if (!sets_timeout) {
    keys.push_back("connect_timeout");
    values.push_back(timeout_seconds.c_str());
  }
  // A database host that vanishes without closing the connection (a
  // crash, a partition) would otherwise block every command for the
  // kernel's retransmission timeout (about 15 minutes): TCP keepalives and
  // a user timeout turn it into kUnavailable within about 10 s. (No effect
  // on Unix sockets.)
  if (!sets_keepalives) {
    for (const auto& [key, value] : kTcpLivenessDefaults) {
      keys.push_back(key);
      values.push_back(value);
    }
  }
  keys.push_back("dbname");
  values.push_back(dsn.c_str());
  keys.push_back(nullptr);
  values.push_back(nullptr);

  pg_conn* conn = PQconnectdbParams(keys.data(), values.data(),
                                    /*expand_dbname=*/1);
  if (conn == nullptr) {
    return absl::ResourceExhaustedError(
        "Cannot allocate a PostgreSQL connection: out of memory.");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string detail = OneLine(PQerrorMessage(conn));
    PQfinish(conn);
    if (!password.empty()) {
      absl::StrReplaceAll({{password, "<redacted>"}}, &detail);
    }
    return Unreachable(detail, kConnectFailedState);
  }
  return std::unique_ptr<PgConnection>(new PgConnection(conn));
}

absl::Status PgConnection::Error(pg_result* result, absl::string_view sql) {
  const char* state = result != nullptr
                          ? PQresultErrorField(result, PG_DIAG_SQLSTATE)
                          : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  if (PQstatus(conn_) == CONNECTION_BAD || sqlstate.empty() ||
      IsUnavailableState(sqlstate)) {
    broken_ = true;
    const char* detail = result != nullptr ? PQresultErrorMessage(result) : "";
    if (detail == nullptr || detail[0] == '\0') detail = PQerrorMessage(conn_);
    return Unreachable(detail, sqlstate.empty() ? "08006" : sqlstate);
  }
  const char* primary = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
  const char* detail = PQresultErrorField(result, PG_DIAG_MESSAGE_DETAIL);
  // The first line of the command says which one failed (never values:
  // those travel as parameters).
  const absl::string_view command =
      sql.substr(0, std::min<size_t>(sql.find('\n'), 80));
  const std::string message = absl::StrCat(
      "PostgreSQL error ", sqlstate, ": ",
      primary != nullptr ? primary : "(no message)",
      detail != nullptr ? absl::StrCat(" (", OneLine(detail), ")") : "",
      " in '", command, "'.");
  if (IsRetryableState(sqlstate)) {
    return WithSqlState(absl::AbortedError(message), sqlstate);
  }
  if (sqlstate == "23505" || sqlstate == "23503" || sqlstate == "23514") {
    return WithSqlState(absl::FailedPreconditionError(message), sqlstate);
  }
  return WithSqlState(absl::InternalError(message), sqlstate);
}

absl::StatusOr<PgResult> PgConnection::Exec(absl::string_view sql,
                                            absl::Span<const PgParam> params,
                                            bool binary_results) {
  if (broken_) {
    return Unreachable("the connection broke earlier", "08006");
  }
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size());
  std::vector<int> formats(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const std::optional<std::string>& v = params[i].value();
    values[i] = v.has_value() ? v->data() : nullptr;
    lengths[i] = v.has_value() ? static_cast<int>(v->size()) : 0;
    formats[i] = params[i].binary() ? 1 : 0;
  }
  const std::string command(sql);
  pg_result* result =
      PQexecParams(conn_, command.c_str(), static_cast<int>(params.size()),
                   /*paramTypes=*/nullptr, values.data(), lengths.data(),
                   formats.data(), binary_results ? 1 : 0);
  if (Succeeded(result)) return PgResult(result);
  absl::Status status = Error(result, sql);
  PQclear(result);
  return status;
}

absl::Status PgConnection::ExecScript(absl::string_view sql) {
  if (broken_) {
    return Unreachable("the connection broke earlier", "08006");
  }
  const std::string script(sql);
  pg_result* result = PQexec(conn_, script.c_str());
  absl::Status status =
      Succeeded(result) ? absl::OkStatus() : Error(result, sql);
  PQclear(result);
  return status;
}

bool PgConnection::healthy() const {
  return !broken_ && PQstatus(conn_) == CONNECTION_OK;
}

bool PgConnection::StillAlive() {
  if (!healthy()) return false;
  // Non-blocking: reads only what is already there. A server that shut
  // down sent a FATAL and closed the socket; the first read returns the
  // message, the second the end of the stream, which marks the connection
  // bad.
  for (int read = 0; read < 2; ++read) {
    if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK) {
      broken_ = true;
      return false;
    }
  }
  return true;
}

bool PgConnection::InTransaction() const {
  return PQtransactionStatus(conn_) != PQTRANS_IDLE;
}

// ---------------------------------------------------------------------------
// PgPool

PgPool::PgPool(std::string dsn, Options options)
    : dsn_(std::move(dsn)), options_(options) {}

PgPool::~PgPool() = default;

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Open(const std::string& dsn,
                                                     Options options) {
  if (options.size < 1 || options.size > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("The PostgreSQL pool size must be in 1..64, but is ",
                     options.size, "."));
  }
  if (options.max_attempts < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The PostgreSQL transaction attempts must be at least 1, but are ",
        options.max_attempts, "."));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> first,
                   PgConnection::Connect(dsn, options.connect_timeout));
  std::unique_ptr<PgPool> pool(new PgPool(dsn, options));
  absl::MutexLock lock(&pool->mu_);
  pool->idle_.push_back(std::move(first));
  pool->open_ = 1;
  return pool;
}

PgPool::Lease::Lease(PgPool* pool, std::unique_ptr<PgConnection> conn)
    : pool_(pool), conn_(std::move(conn)) {}

PgPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), conn_(std::move(other.conn_)) {}

PgPool::Lease::~Lease() {
  if (conn_ != nullptr) pool_->Return(std::move(conn_));
}

absl::StatusOr<PgPool::Lease> PgPool::Acquire() {
  const absl::Time deadline = absl::Now() + options_.acquire_timeout;
  while (true) {
    std::unique_ptr<PgConnection> conn;
    bool connect = false;
    {
      absl::MutexLock lock(&mu_);
      while (idle_.empty() && open_ >= options_.size) {
        if (returned_.WaitWithDeadline(&mu_, deadline) && idle_.empty() &&
            open_ >= options_.size) {
          return absl::UnavailableError(absl::StrCat(
              "All ", options_.size, " PostgreSQL connections stayed busy for ",
              absl::FormatDuration(options_.acquire_timeout),
              "; retry, or raise the pool size."));
        }
      }
      if (!idle_.empty()) {
        conn = std::move(idle_.back());
        idle_.pop_back();
      } else {
        ++open_;
        connect = true;
      }
    }
    if (connect) {
      absl::StatusOr<std::unique_ptr<PgConnection>> fresh =
          PgConnection::Connect(dsn_, options_.connect_timeout);
      if (!fresh.ok()) {
        absl::MutexLock lock(&mu_);
        --open_;
        returned_.Signal();
        return fresh.status();
      }
      return Lease(this, *std::move(fresh));
    }
    // An idle connection the server closed (it restarted) is dropped, and
    // the next one tried, so that a restart costs no failed call.
    if (conn->StillAlive()) return Lease(this, std::move(conn));
    Return(std::move(conn));
  }
}

void PgPool::Return(std::unique_ptr<PgConnection> conn) {
  std::vector<std::unique_ptr<PgConnection>> dropped;
  {
    absl::MutexLock lock(&mu_);
    if (conn->healthy() && !conn->InTransaction()) {
      idle_.push_back(std::move(conn));
    } else {
      // A broken connection most likely means the server went away: the
      // idle ones are stale too, so they are dropped with it and the next
      // Acquire connects anew.
      dropped.push_back(std::move(conn));
      if (!dropped.back()->healthy()) {
        for (auto& c : idle_) dropped.push_back(std::move(c));
        idle_.clear();
      }
      open_ -= static_cast<int>(dropped.size());
    }
    returned_.SignalAll();
  }
  // `dropped` closes its connections here, outside the lock.
}

absl::Status PgPool::Transaction(
    absl::FunctionRef<absl::Status(PgConnection&)> body,
    PgIsolation isolation) {
  absl::BitGen jitter;  // back-off jitter only, not a privacy mechanism
  bool retried_begin = false;
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(Lease lease, Acquire());
    bool begin_failed = false;
    const absl::Status status =
        RunTransaction(*lease, IsolationSql(isolation), body, &begin_failed);
    if (status.ok()) return status;
    // A connection that broke before BEGIN ran nothing: one more try on a
    // fresh connection is safe.
    if (begin_failed && status.code() == absl::StatusCode::kUnavailable &&
        !retried_begin) {
      retried_begin = true;
      --attempt;
      continue;
    }
    if (!IsRetryableState(SqlStateOf(status)) ||
        attempt >= options_.max_attempts) {
      return status;
    }
    // Exponential back-off capped at 50 ms, randomized so that the
    // conflicting transactions do not collide again in lockstep.
    const int64_t cap_us =
        std::min<int64_t>(50'000, 500ll << std::min(attempt, 7));
    absl::SleepFor(
        absl::Microseconds(absl::Uniform<int64_t>(jitter, 0, cap_us)));
  }
}

absl::StatusOr<PgResult> PgPool::Exec(absl::string_view sql,
                                      std::initializer_list<PgParam> params,
                                      bool binary_results) {
  ASSIGN_OR_RETURN(Lease lease, Acquire());
  return lease->Exec(sql, params, binary_results);
}

// ---------------------------------------------------------------------------
// ApplyMigrations

namespace {

absl::StatusOr<int64_t> SchemaVersion(PgConnection& conn,
                                      absl::string_view component) {
  RETURN_IF_ERROR(
      conn.ExecScript("CREATE TABLE IF NOT EXISTS dpq_schema ("
                      "component TEXT PRIMARY KEY, version INT NOT NULL)"));
  ASSIGN_OR_RETURN(
      PgResult r,
      conn.Exec("SELECT version FROM dpq_schema WHERE component = $1",
                {PgParam::Text(std::string(component))}));
  if (r.rows() == 0) return 0;
  return r.GetInt64(0, 0);
}

absl::Status MigrateLocked(PgConnection& conn, absl::string_view component,
                           absl::Span<const absl::string_view> steps) {
  ASSIGN_OR_RETURN(const int64_t version, SchemaVersion(conn, component));
  const int64_t newest = static_cast<int64_t>(steps.size());
  if (version > newest) {
    return absl::FailedPreconditionError(absl::StrCat(
        "The PostgreSQL database holds version ", version, " of the ",
        component, " tables, newer than this dpq-server knows (", newest,
        "): a newer dpq-server wrote it; upgrade this one."));
  }
  for (int64_t step = version; step < newest; ++step) {
    bool begin_failed = false;
    const absl::Status status = RunTransaction(
        conn, "BEGIN",
        [&](PgConnection& c) -> absl::Status {
          RETURN_IF_ERROR(c.ExecScript(steps[step]));
          return c
              .Exec(
                  "INSERT INTO dpq_schema (component, version) "
                  "VALUES ($1, $2) ON CONFLICT (component) "
                  "DO UPDATE SET version = EXCLUDED.version",
                  {PgParam::Text(std::string(component)),
                   PgParam::Int(step + 1)})
              .status();
        },
        &begin_failed);
    if (!status.ok()) {
      return absl::Status(
          status.code(),
          absl::StrCat("Migrating the ", component, " tables to version ",
                       step + 1, " failed: ", status.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ApplyMigrations(PgPool& pool, absl::string_view component,
                             absl::Span<const absl::string_view> steps) {
  ASSIGN_OR_RETURN(PgPool::Lease lease, pool.Acquire());
  PgConnection& conn = *lease;
  constexpr int64_t kKey = SchemaLockKey();
  RETURN_IF_ERROR(
      conn.Exec("SELECT pg_advisory_lock($1)", {PgParam::Int(kKey)}).status());
  absl::Status status = MigrateLocked(conn, component, steps);
  // The lock is the session's: released here, or by the server when the
  // connection closes. A connection still holding it never goes back to
  // the pool (it would block every other replica's start).
  absl::StatusOr<PgResult> unlock =
      conn.Exec("SELECT pg_advisory_unlock($1)", {PgParam::Int(kKey)});
  if (!unlock.ok()) {
    conn.MarkBroken();
    if (status.ok()) status = unlock.status();
  }
  return status;
}

}  // namespace dpq::server::storage
