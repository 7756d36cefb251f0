#include "server/config.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/util/status_macros.h"

namespace dpq::server {
namespace {

template <typename T>
absl::Status ParseInteger(absl::string_view key, absl::string_view value,
                          T* out) {
  T parsed{};
  if (!absl::SimpleAtoi(value, &parsed)) {
    return absl::InvalidArgumentError(
        absl::StrCat(key, " must be an integer, but is '", value, "'."));
  }
  *out = parsed;
  return absl::OkStatus();
}

absl::Status ParseBool(absl::string_view key, absl::string_view value,
                       bool* out) {
  if (value == "true") {
    *out = true;
  } else if (value == "false") {
    *out = false;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(key, " must be true or false, but is '", value, "'."));
  }
  return absl::OkStatus();
}

// How one key sets its option.
using ApplyFn = std::function<absl::Status(absl::string_view key,
                                           absl::string_view value, Options*)>;

template <typename T>
ApplyFn Integer(T Options::*field) {
  return [field](absl::string_view key, absl::string_view value, Options* o) {
    return ParseInteger(key, value, &(o->*field));
  };
}

ApplyFn Text(std::string Options::*field) {
  return [field](absl::string_view, absl::string_view value, Options* o) {
    o->*field = std::string(value);
    return absl::OkStatus();
  };
}

ApplyFn Bool(bool Options::*field) {
  return [field](absl::string_view key, absl::string_view value, Options* o) {
    return ParseBool(key, value, &(o->*field));
  };
}

// Every setting, in the order of the documentation: the one list that
// ApplySetting, the unknown-key message, SettingKeys and the tests that
// check docs/operations.md and deploy/dpq-server.conf.example read.
const std::vector<std::pair<std::string, ApplyFn>>& Settings() {
  static const auto* const settings =
      new std::vector<std::pair<std::string, ApplyFn>>{
          {"listen", Text(&Options::listen)},
          {"data_dir", Text(&Options::data_dir)},
          {"import_dir", Text(&Options::import_dir)},
          {"tls_cert", Text(&Options::tls_cert)},
          {"tls_key", Text(&Options::tls_key)},
          {"client_ca", Text(&Options::client_ca)},
          {"insecure", Bool(&Options::insecure_for_local_dev)},
          {"reflection", Bool(&Options::reflection)},
          {"max_message_bytes", Integer(&Options::max_message_bytes)},
          {"max_upload_bytes", Integer(&Options::max_upload_bytes)},
          {"max_rows", Integer(&Options::max_rows)},
          {"max_edges", Integer(&Options::max_edges)},
          {"graph_threads", Integer(&Options::graph_threads)},
          {"graph_build_workers", Integer(&Options::graph_build_workers)},
          {"exact_repair_seconds", Integer(&Options::exact_repair_seconds)},
          {"max_heavy_jobs", Integer(&Options::max_heavy_jobs)},
          {"max_heavy_jobs_per_buyer",
           Integer(&Options::max_heavy_jobs_per_buyer)},
          {"max_heavy_releases", Integer(&Options::max_heavy_releases)},
          {"drain_seconds", Integer(&Options::drain_seconds)},
          {"database", Text(&Options::database)},
          {"database_file", Text(&Options::database_file)},
          {"replica_id", Text(&Options::replica_id)},
          {"replica_lease_seconds", Integer(&Options::replica_lease_seconds)},
          {"database_connections", Integer(&Options::database_connections)},
          {"admin_token_file", Text(&Options::admin_token_file)},
          {"metrics_listen", Text(&Options::metrics_listen)},
          {"http_listen", Text(&Options::http_listen)},
          {"http_cors_origins", Text(&Options::http_cors_origins)},
      };
  return *settings;
}

}  // namespace

std::vector<std::string> SettingKeys() {
  std::vector<std::string> keys;
  for (const auto& [key, apply] : Settings()) keys.push_back(key);
  return keys;
}

absl::Status ApplySetting(absl::string_view key, absl::string_view value,
                          Options* options) {
  for (const auto& [name, apply] : Settings()) {
    if (name == key) return apply(key, value, options);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("Unknown setting '", key,
                   "'; known: ", absl::StrJoin(SettingKeys(), ", "), "."));
}

absl::Status ApplyConfigText(absl::string_view text, absl::string_view source,
                             Options* options) {
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    if (const size_t hash = line.find('#'); hash != absl::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    const size_t equals = line.find('=');
    if (equals == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, " line ", line_number,
                       ": expected 'key = value', got '", line, "'."));
    }
    const absl::string_view key =
        absl::StripAsciiWhitespace(line.substr(0, equals));
    const absl::string_view value =
        absl::StripAsciiWhitespace(line.substr(equals + 1));
    if (absl::Status status = ApplySetting(key, value, options); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, " line ", line_number, ": ", status.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status ApplyConfigFile(const std::string& path, Options* options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        "config file '", path, "' cannot be read: ", std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  return ApplyConfigText(text.str(), path, options);
}

absl::StatusOr<CommandLine> ParseCommandLine(int argc,
                                             const char* const* argv) {
  CommandLine result;
  std::string config_path;
  std::vector<std::pair<std::string, std::string>> settings;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      result.help = true;
      return result;
    }
    if (arg == "--print-http-routes") {
      result.print_http_routes = true;
      continue;
    }
    if (!absl::StartsWith(arg, "--") || arg.size() == 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Unexpected argument '", arg, "'; see dpq-server --help."));
    }
    arg.remove_prefix(2);
    std::string name;
    std::string value;
    bool has_value = false;
    if (const size_t equals = arg.find('=');
        equals != absl::string_view::npos) {
      name = std::string(arg.substr(0, equals));
      value = std::string(arg.substr(equals + 1));
      has_value = true;
    } else {
      name = std::string(arg);
    }
    const std::string key = absl::StrReplaceAll(name, {{"-", "_"}});
    if (key == "insecure" && !has_value) {
      value = "true";
      has_value = true;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError(
            absl::StrCat("Flag --", name, " needs a value."));
      }
      value = argv[++i];
    }
    if (key == "config") {
      config_path = value;
      continue;
    }
    if (key == "import_sqlite") {
      result.import_sqlite_dir = value;
      continue;
    }
    if (key == "backup") {
      result.backup_dir = value;
      continue;
    }
    // Check the flag now, so the error names the flag, not a file line.
    Options scratch;
    if (absl::Status status = ApplySetting(key, value, &scratch);
        !status.ok()) {
      if (absl::StartsWith(status.message(), "Unknown setting")) {
        return absl::InvalidArgumentError(
            absl::StrCat("Unknown flag --", name, "; see dpq-server --help."));
      }
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, ": ", status.message()));
    }
    settings.emplace_back(key, value);
  }
  if (!config_path.empty()) {
    RETURN_IF_ERROR(ApplyConfigFile(config_path, &result.options));
  }
  for (const auto& [key, value] : settings) {
    RETURN_IF_ERROR(ApplySetting(key, value, &result.options));
  }
  return result;
}

std::string Usage() {
  return absl::StrCat(
      "Usage: dpq-server --data-dir DIR --listen HOST:PORT\n"
      "                  (--tls-cert F --tls-key F [--client-ca F] | "
      "--insecure)\n"
      "                  [--config F] [limits]\n"
      "       dpq-server --import-sqlite DIR (--database DSN | "
      "--database-file F)\n"
      "       dpq-server --backup NEW_DIR --data-dir DIR\n"
      "\n"
      "Serves dpq.v1.BuyerService and dpq.v1.AdminService (plus gRPC health "
      "and\n"
      "reflection). On first start it creates an admin token in "
      "DIR/admin.token.\n"
      "SIGTERM or SIGINT drains in-flight requests and exits 0.\n"
      "\n"
      "  --data-dir DIR           datasets, ledger.db, accounts.db (required)\n"
      "  --import-dir DIR         let admins register CSVs by --server-path "
      "from this\n"
      "                           directory only (default: off)\n"
      "  --listen HOST:PORT       address (default 0.0.0.0:",
      kDefaultPort,
      "; port 0 = any free)\n"
      "  --tls-cert F, --tls-key F  PEM server certificate chain and key\n"
      "  --client-ca F            require client certificates signed by "
      "this CA\n"
      "  --insecure               plaintext gRPC, local development only\n"
      "  --reflection BOOL        serve gRPC server reflection v1 and "
      "v1alpha (default\n"
      "                           true; false turns both off)\n"
      "  --config F               `key = value` file; flags override it\n"
      "  --max-message-bytes N    largest gRPC message (default 16 MiB)\n"
      "  --max-upload-bytes N     largest CSV upload (default 1 GiB)\n"
      "  --max-rows N             largest dataset in rows (default "
      "10000000)\n"
      "  --max-edges N            largest conflict graph in edges; a "
      "registration above it\n"
      "                           fails (default ",
      core::graph::kDefaultMaxConflictGraphEdges,
      ")\n"
      "  --graph-threads N        threads per conflict graph (0 = cores)\n"
      "  --graph-build-workers N  conflict graphs rebuilt at once in the "
      "background after a start (1-16, default 1)\n"
      "  --exact-repair-seconds N time to prove an exact_repair registration's "
      "minimum cover (1-3600, default 60)\n"
      "  --max-heavy-jobs N       tree trainings and node selections run at "
      "once (1-64, default 2)\n"
      "  --max-heavy-jobs-per-buyer N\n"
      "                           of those, run at once by one buyer "
      "(1 to max-heavy-jobs; default half of them, at least 1, so 1 of the "
      "default 2: a buyer leaves a slot to the others)\n"
      "  --max-heavy-releases N   measure computations on heavy datasets "
      "(over 1,000,000\n"
      "                           conflict edges) run at once (1-64, default "
      "1); more queue\n"
      "                           after their charge, round robin across "
      "buyers\n"
      "  --drain-seconds N        grace period on SIGTERM (default 30)\n"
      "  --admin-token-file F     the admin token (default DIR/admin.token)\n"
      "  --metrics-listen HOST:PORT  serve GET /metrics (Prometheus text, "
      "plain HTTP,\n"
      "                           no private data: bind a private "
      "interface; port 0 =\n"
      "                           any free; default: off)\n"
      "  --http-listen HOST:PORT  serve the API as HTTP/JSON and the web "
      "console (docs/http.md),\n"
      "                           over TLS with the files above (plaintext "
      "with --insecure);\n"
      "                           port 0 = any free; default: off\n"
      "  --http-cors-origins LIST origins (https://host[:port], "
      "comma-separated) whose pages\n"
      "                           may call the HTTP API; default: none\n"
      "  --print-http-routes      print the HTTP routes (Markdown) and "
      "exit\n"
      "\n"
      "Several replicas on one PostgreSQL (docs/operations.md):\n"
      "  --database DSN           keep the ledger, accounts and datasets in "
      "PostgreSQL\n"
      "                           (postgresql://... or 'host=... dbname=...'; "
      "PG* environment\n"
      "                           variables fill in the rest); DIR is then "
      "a local cache\n"
      "  --database-file F        the DSN, read from a file (e.g. a Secret)\n"
      "  --replica-id ID          this replica's name (default: kept in "
      "DIR/replica.id)\n"
      "  --replica-lease-seconds N  a dead replica's reservations are "
      "charged after this\n"
      "                           (2-3600, default 15)\n"
      "  --database-connections N connections per replica (2-64, default "
      "16)\n"
      "  --import-sqlite DIR      copy the embedded data directory DIR "
      "(ledger, accounts,\n"
      "                           datasets) into the empty database once, "
      "then exit;\n"
      "                           no --data-dir needed (docs/operations.md)"
      "\n"
      "  --backup NEW_DIR         snapshot the embedded state of --data-dir "
      "(datasets,\n"
      "                           accounts, ledger, admin token; files 0600) "
      "into\n"
      "                           NEW_DIR, also while the server runs, then "
      "exit\n"
      "  --help                   this text\n");
}

}  // namespace dpq::server
