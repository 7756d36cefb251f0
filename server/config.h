// dpq-server's configuration: an optional file (`--config F`) of
// `key = value` lines with `#` comments, overridden by command-line flags.
// Keys (flags use dashes: --data-dir): listen, data_dir, import_dir,
// tls_cert, tls_key,
// client_ca, insecure (true/false), reflection (true/false),
// max_message_bytes, max_upload_bytes,
// max_rows, max_edges, graph_threads, graph_build_workers,
// exact_repair_seconds, max_heavy_jobs, max_heavy_jobs_per_buyer,
// max_heavy_releases,
// drain_seconds, database, database_file, replica_id, replica_lease_seconds,
// database_connections, admin_token_file, metrics_listen, http_listen,
// http_cors_origins.
#ifndef DPQ_SERVER_CONFIG_H_
#define DPQ_SERVER_CONFIG_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "server/server.h"

namespace dpq::server {

// Every key ApplySetting knows, in the documentation's order
// (docs/operations.md and deploy/dpq-server.conf.example are checked against
// it).
std::vector<std::string> SettingKeys();

// Sets one option. kInvalidArgument naming the key (and the value) for an
// unknown key or a bad value.
absl::Status ApplySetting(absl::string_view key, absl::string_view value,
                          Options* options);

// Applies every `key = value` line of a config text; `source` (the file
// name) and the line number prefix every error.
absl::Status ApplyConfigText(absl::string_view text, absl::string_view source,
                             Options* options);

// Reads `path` and applies it. kInvalidArgument if it cannot be read.
absl::Status ApplyConfigFile(const std::string& path, Options* options);

// What the command line asked for.
struct CommandLine {
  bool help = false;
  // --print-http-routes: print the HTTP routes of the API and exit.
  bool print_http_routes = false;
  // --import-sqlite DIR: copy the embedded data directory DIR into the
  // (empty) PostgreSQL database of --database, then exit.
  std::string import_sqlite_dir;
  // --backup DIR: copy the embedded state of --data-dir into the new
  // directory DIR (server/storage/embedded_backup.h), then exit.
  std::string backup_dir;
  Options options;
};

// Parses dpq-server's arguments: defaults, then the --config file, then the
// other flags (`--key value` or `--key=value`; `--insecure` alone means
// true). kInvalidArgument naming the flag for an unknown flag, a missing
// value or a stray argument. Does not validate option combinations (see
// ValidateOptions).
absl::StatusOr<CommandLine> ParseCommandLine(int argc, const char* const* argv);

// The --help text.
std::string Usage();

}  // namespace dpq::server

#endif  // DPQ_SERVER_CONFIG_H_
