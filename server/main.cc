// dpq-server: flags -> Options -> Server::BuildAndStart -> wait for SIGTERM
// or SIGINT -> drain -> exit 0. With --import-sqlite DIR: copy DIR into the
// database (server/storage/sqlite_import.h), print what was copied, exit.
// With --backup DIR: snapshot the embedded state into DIR
// (server/storage/embedded_backup.h), exit.
#include <signal.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/memory_reuse.h"
#include "server/config.h"
#include "server/http/route_table.h"
#include "server/registry/registry_options.h"
#include "server/replica_identity.h"
#include "server/server.h"
#include "server/storage/embedded_backup.h"
#include "server/storage/postgres_database.h"
#include "server/storage/sqlite_import.h"

namespace {

// "1 budget", "2 budgets".
std::string Count(int64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

// --import-sqlite DIR: 0 when imported, 1 when the import failed, 2 for
// flags it cannot run with. Never prints the DSN.
int ImportSqlite(const std::string& dir, const dpq::server::Options& options) {
  if (options.database.empty() == options.database_file.empty()) {
    std::fprintf(stderr,
                 "dpq-server: --import-sqlite needs the database to copy "
                 "into: give --database DSN or --database-file F (one of "
                 "them). See dpq-server --help.\n");
    return 2;
  }
  absl::StatusOr<std::string> dsn =
      dpq::server::ResolveDatabaseDsn(options.database, options.database_file);
  if (!dsn.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n",
                 std::string(dsn.status().message()).c_str());
    return 2;
  }
  dpq::server::storage::PgPool::Options pool_options;
  pool_options.size = 2;
  absl::StatusOr<std::unique_ptr<dpq::server::storage::PgPool>> pool =
      dpq::server::storage::PgPool::Open(*dsn, pool_options);
  // The datasets must load on the replicas, which have these limits.
  dpq::server::registry::RegistryOptions limits;
  limits.max_csv_bytes = options.max_upload_bytes;
  limits.max_rows = static_cast<size_t>(options.max_rows);
  limits.max_edges = options.max_edges;
  limits.graph_threads = options.graph_threads;
  const absl::StatusOr<dpq::server::storage::SqliteImportSummary> summary =
      pool.ok() ? dpq::server::storage::ImportSqliteDataDir(
                      dir, std::move(*pool), limits)
                : absl::StatusOr<dpq::server::storage::SqliteImportSummary>(
                      pool.status());
  if (!summary.ok()) {
    std::fprintf(stderr, "dpq-server: --import-sqlite '%s' failed: %s\n",
                 dir.c_str(), summary.status().ToString().c_str());
    return 1;
  }
  const std::string unfinished =
      summary->charged_reservations == 0
          ? ""
          : absl::StrCat(
                " (",
                Count(summary->charged_reservations, "unfinished reservation",
                      "unfinished reservations"),
                " charged)");
  std::printf(
      "dpq-server: imported '%s' into PostgreSQL: %s%s (%lld revoked), %s; "
      "%s, %s, %s%s; %s.\n"
      "Start the replicas with the embedded server's admin token (%s/"
      "admin.token) in their --admin-token-file.\n",
      dir.c_str(), summary->admin ? "the admin and " : "",
      Count(summary->buyers, "buyer", "buyers").c_str(),
      static_cast<long long>(summary->revoked_buyers),
      Count(summary->audit_records, "audit record", "audit records").c_str(),
      Count(summary->budgets, "budget", "budgets").c_str(),
      Count(summary->capped_datasets, "dataset cap", "dataset caps").c_str(),
      Count(summary->entries, "ledger entry", "ledger entries").c_str(),
      unfinished.c_str(),
      Count(summary->datasets, "dataset", "datasets").c_str(), dir.c_str());
  return 0;
}

// --backup DIR: 0 when the snapshot is complete, 1 when it failed, 2 for
// flags it cannot run with.
int Backup(const std::string& dir, const dpq::server::Options& options) {
  if (!options.database.empty() || !options.database_file.empty()) {
    std::fprintf(stderr,
                 "dpq-server: --backup copies the embedded mode; back up the "
                 "PostgreSQL mode with pg_dump (docs/operations.md).\n");
    return 2;
  }
  if (options.data_dir.empty()) {
    std::fprintf(stderr,
                 "dpq-server: --backup needs --data-dir DIR, the data "
                 "directory to copy.\n");
    return 2;
  }
  const absl::StatusOr<dpq::server::storage::EmbeddedBackupSummary> summary =
      dpq::server::storage::BackupEmbeddedState(options.data_dir, dir);
  if (!summary.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n",
                 std::string(summary.status().message()).c_str());
    return summary.status().code() == absl::StatusCode::kInvalidArgument ? 2
                                                                         : 1;
  }
  std::printf(
      "dpq-server: backed up '%s' into '%s': %s, accounts, ledger (%lld "
      "bytes). Restoring it forgets what happens after now: see %s/"
      "BACKUP.txt.\n",
      options.data_dir.c_str(), dir.c_str(),
      Count(summary->datasets, "dataset", "datasets").c_str(),
      static_cast<long long>(summary->bytes), dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Registration loads tables and builds graphs in phases that free and
  // allocate hundreds of MB each; the registry returns the memory after
  // every build (BuildConflictGraphData).
  dpq::core::util::KeepFreedMemoryForReuse();
  absl::StatusOr<dpq::server::CommandLine> command_line =
      dpq::server::ParseCommandLine(argc, argv);
  if (!command_line.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n",
                 std::string(command_line.status().message()).c_str());
    return 2;
  }
  if (command_line->help) {
    std::fputs(dpq::server::Usage().c_str(), stdout);
    return 0;
  }
  if (command_line->print_http_routes) {
    absl::StatusOr<dpq::server::http::RouteTable> routes =
        dpq::server::http::RouteTable::ForDpqV1();
    if (!routes.ok()) {
      std::fprintf(stderr, "dpq-server: %s\n",
                   std::string(routes.status().message()).c_str());
      return 1;
    }
    std::fputs(routes->Markdown().c_str(), stdout);
    return 0;
  }
  const dpq::server::Options& options = command_line->options;
  if (!command_line->import_sqlite_dir.empty()) {
    return ImportSqlite(command_line->import_sqlite_dir, options);
  }
  if (!command_line->backup_dir.empty()) {
    return Backup(command_line->backup_dir, options);
  }
  if (absl::Status valid = dpq::server::ValidateOptions(options); !valid.ok()) {
    std::fprintf(stderr, "dpq-server: %s See dpq-server --help.\n",
                 std::string(valid.message()).c_str());
    return 2;
  }

  // Block the stop signals in every thread (gRPC's threads inherit the
  // mask), then wait for them synchronously below: no async handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  absl::StatusOr<std::unique_ptr<dpq::server::Server>> server =
      dpq::server::Server::BuildAndStart(options);
  if (!server.ok()) {
    std::fprintf(stderr, "dpq-server: %s\n",
                 server.status().ToString().c_str());
    return 1;
  }
  if ((*server)->created_admin_token()) {
    std::fprintf(stderr, "dpq-server: created admin token in %s\n",
                 (*server)->admin_token_path().c_str());
  }
  std::fprintf(stderr, "dpq-server listening on %s\n",
               (*server)->address().c_str());
  std::fflush(stderr);

  int signal_number = 0;
  while (sigwait(&stop_signals, &signal_number) != 0) {
  }
  std::fprintf(stderr, "dpq-server: %s received, draining for up to %llds\n",
               signal_number == SIGTERM ? "SIGTERM" : "SIGINT",
               static_cast<long long>(options.drain_seconds));
  (*server)->Shutdown(absl::Now() + absl::Seconds(options.drain_seconds));
  (*server)->Wait();
  server->reset();
  std::fprintf(stderr, "dpq-server: stopped\n");
  return 0;
}
