#include "server/server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "core/ledger/ledger.h"
#include "core/ledger/settling_ledger_store.h"
#include "core/util/diagnostic_log.h"
#include "core/util/status_macros.h"
#include "core/util/validate.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server_builder.h"
#include "server/admin/admin_service_impl.h"
#include "server/auth/accounts_store.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/http/http_gateway.h"
#include "server/metrics/metered_ledger_store.h"
#include "server/metrics/metrics_http_server.h"
#include "server/metrics/server_metrics.h"
#include "server/reflection/reflection_option.h"
#include "server/registry/dataset_registry.h"
#include "server/replica_identity.h"
#include "server/request_log.h"
#include "server/state_stores.h"
#include "server/text_repair_interceptor.h"

namespace dpq::server {
namespace {

// How often the health service re-reads the durable state's health.
constexpr absl::Duration kHealthInterval = absl::Milliseconds(250);

// Polling threads of the sync gRPC server (see Server::Start).
constexpr int kMinPollers = 4;
constexpr int kMaxPollers = 64;

// The services whose health is reported, besides the overall "".
constexpr const char* kServiceNames[] = {"dpq.v1.BuyerService",
                                         "dpq.v1.AdminService"};

// Splits "HOST:PORT" at the last colon (so "[::1]:0" works).
absl::Status SplitListen(const std::string& listen, std::string* host,
                         int* port) {
  const std::string::size_type colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("listen must be HOST:PORT (e.g. 0.0.0.0:", kDefaultPort,
                     "), but is '", listen, "'."));
  }
  int value = -1;
  if (!absl::SimpleAtoi(listen.substr(colon + 1), &value) || value < 0 ||
      value > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "listen must end in a port 0..65535, but is '", listen, "'."));
  }
  *host = listen.substr(0, colon);
  *port = value;
  return absl::OkStatus();
}

absl::Status MakeDataDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return absl::OkStatus();
  if (errno != EEXIST) {
    return absl::InvalidArgumentError(absl::StrCat(
        "data_dir '", dir, "' cannot be created: ", std::strerror(errno)));
  }
  struct stat info;
  if (::stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("data_dir '", dir, "' exists but is not a directory."));
  }
  if (::access(dir.c_str(), R_OK | W_OK | X_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("data_dir '", dir,
                     "' is not writable by this user: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// import_dir, if set, must be an existing directory that is neither the
// data directory nor inside it (whose files are never imported anyway).
absl::Status CheckImportDir(const std::string& import_dir,
                            const std::string& data_dir) {
  if (import_dir.empty()) return absl::OkStatus();
  char* real_import = ::realpath(import_dir.c_str(), nullptr);
  if (real_import == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("import_dir '", import_dir,
                     "' cannot be resolved: ", std::strerror(errno), "."));
  }
  const std::string import_real = real_import;
  std::free(real_import);
  struct stat info;
  if (::stat(import_real.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("import_dir '", import_dir, "' is not a directory."));
  }
  char* real_data = ::realpath(data_dir.c_str(), nullptr);
  if (real_data != nullptr) {
    const std::string data_real = real_data;
    std::free(real_data);
    if (import_real == data_real ||
        absl::StartsWith(import_real, data_real + "/")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "import_dir '", import_dir,
          "' is the data directory or inside "
          "it, whose files are never imported: choose another directory."));
    }
  }
  return absl::OkStatus();
}

void LogLine(const std::string& line) { core::util::LogInfo(line); }

// The HTTP listener's options from the server's: the address, the message
// limit and the origins (StartHttp adds the TLS files the gRPC listener
// read).
http::GatewayOptions GatewayOptionsOf(const Options& options) {
  http::GatewayOptions gateway;
  gateway.listen = options.http_listen;
  gateway.tls = !options.insecure_for_local_dev;
  gateway.max_message_bytes = options.max_message_bytes;
  for (absl::string_view origin :
       absl::StrSplit(options.http_cors_origins, ',', absl::SkipWhitespace())) {
    gateway.cors_origins.emplace_back(absl::StripAsciiWhitespace(origin));
  }
  return gateway;
}

}  // namespace

absl::Status ValidateOptions(const Options& options) {
  std::string host;
  int port = 0;
  RETURN_IF_ERROR(SplitListen(options.listen, &host, &port));
  if (options.data_dir.empty()) {
    return absl::InvalidArgumentError(
        "data_dir is required (--data-dir DIR): datasets, the ledger and "
        "the accounts live there.");
  }
  if (options.insecure_for_local_dev) {
    for (const auto& [name, value] :
         {std::pair<const char*, const std::string*>{"tls_cert",
                                                     &options.tls_cert},
          {"tls_key", &options.tls_key},
          {"client_ca", &options.client_ca}}) {
      if (!value->empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("insecure excludes TLS, but ", name, " is set to '",
                         *value, "': drop --insecure or the TLS files."));
      }
    }
  } else if (options.tls_cert.empty() || options.tls_key.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TLS needs both tls_cert and tls_key (",
        options.tls_cert.empty() ? "tls_cert" : "tls_key",
        " is missing); for a local plaintext demo pass --insecure."));
  }
  RETURN_IF_ERROR(core::util::ValidateInRange(options.max_message_bytes, 1024,
                                              INT_MAX, "max_message_bytes"));
  RETURN_IF_ERROR(core::util::ValidatePositive(options.max_upload_bytes,
                                               "max_upload_bytes"));
  RETURN_IF_ERROR(core::util::ValidatePositive(options.max_rows, "max_rows"));
  RETURN_IF_ERROR(core::util::ValidatePositive(options.max_edges, "max_edges"));
  RETURN_IF_ERROR(core::util::ValidateAtLeast(
      options.graph_threads, 0, "graph_threads", " (0 = one per core)"));
  RETURN_IF_ERROR(core::util::ValidateInRange(options.exact_repair_seconds, 1,
                                              3600, "exact_repair_seconds"));
  RETURN_IF_ERROR(core::util::ValidateInRange(options.graph_build_workers, 1,
                                              16, "graph_build_workers"));
  RETURN_IF_ERROR(core::util::ValidateInRange(options.max_heavy_jobs, 1, 64,
                                              "max_heavy_jobs"));
  RETURN_IF_ERROR(core::util::ValidateInRange(options.max_heavy_releases, 1, 64,
                                              "max_heavy_releases"));
  // 0 = the default (buyer::DefaultMaxHeavyJobsPerBuyer).
  if (options.max_heavy_jobs_per_buyer < 0 ||
      options.max_heavy_jobs_per_buyer > options.max_heavy_jobs) {
    return absl::InvalidArgumentError(absl::StrCat(
        "max_heavy_jobs_per_buyer must be in [1, max_heavy_jobs = ",
        options.max_heavy_jobs,
        "] (0 = half of max_heavy_jobs, at least 1), "
        "but is ",
        options.max_heavy_jobs_per_buyer, "."));
  }
  RETURN_IF_ERROR(
      core::util::ValidateAtLeast(options.drain_seconds, 0, "drain_seconds"));
  if (!options.database.empty() && !options.database_file.empty()) {
    return absl::InvalidArgumentError(
        "database and database_file are both set: give the DSN once.");
  }
  RETURN_IF_ERROR(core::util::ValidateInRange(options.replica_lease_seconds, 2,
                                              3600, "replica_lease_seconds"));
  RETURN_IF_ERROR(core::util::ValidateInRange(options.database_connections, 2,
                                              64, "database_connections"));
  if (!options.replica_id.empty() && !IsValidReplicaId(options.replica_id)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "replica_id must be 1-64 letters, digits, '.', '_' or '-', but is '",
        options.replica_id, "'."));
  }
  if (!options.http_listen.empty()) {
    RETURN_IF_ERROR(http::CheckGatewayOptions(GatewayOptionsOf(options)));
  } else if (!options.http_cors_origins.empty()) {
    return absl::InvalidArgumentError(
        "http_cors_origins is set but http_listen is not: the origins are "
        "for the HTTP listener (--http-listen HOST:PORT).");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const char* option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        option, " '", path, "' cannot be read: ", std::strerror(errno)));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return absl::InvalidArgumentError(
        absl::StrCat(option, " '", path, "' cannot be read."));
  }
  std::string pem = text.str();
  if (!absl::StrContains(pem, "-----BEGIN ")) {
    return absl::InvalidArgumentError(absl::StrCat(
        option, " '", path, "' is not a PEM file (no '-----BEGIN' line)."));
  }
  return pem;
}

Server::Server() = default;

absl::StatusOr<std::unique_ptr<Server>> Server::BuildAndStart(
    const Options& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  std::string host;
  int requested_port = 0;
  RETURN_IF_ERROR(SplitListen(options.listen, &host, &requested_port));

  // Credentials first: a bad file is reported before anything is created.
  std::shared_ptr<grpc::ServerCredentials> credentials;
  grpc::SslServerCredentialsOptions ssl_options;
  if (!options.insecure_for_local_dev) {
    ASSIGN_OR_RETURN(std::string cert,
                     ReadPemFile(options.tls_cert, "tls_cert"));
    ASSIGN_OR_RETURN(std::string key, ReadPemFile(options.tls_key, "tls_key"));
    if (!options.client_ca.empty()) {
      ASSIGN_OR_RETURN(ssl_options.pem_root_certs,
                       ReadPemFile(options.client_ca, "client_ca"));
      ssl_options.client_certificate_request =
          GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    ssl_options.pem_key_cert_pairs.push_back({std::move(key), std::move(cert)});
  }

  std::unique_ptr<Server> server(new Server());
  // First, so that the metrics' start time is the server's. The listener
  // starts only once every setting has been checked and the state opened
  // (below): a configuration that stops the server never listens.
  metrics::ServerMetrics& metrics = metrics::ServerMetrics::Default();
  if (!options.metrics_listen.empty()) {
    RETURN_IF_ERROR(metrics::CheckMetricsListen(options.metrics_listen));
    metrics.EnableRecording();  // from the start: graph builds, the ledger
  }
  RETURN_IF_ERROR(MakeDataDir(options.data_dir));
  RETURN_IF_ERROR(CheckImportDir(options.import_dir, options.data_dir));
  const std::string dir = options.data_dir;

  ASSIGN_OR_RETURN(StateStores state, UsesPostgres(options)
                                          ? OpenPostgresState(options)
                                          : OpenEmbeddedState(dir));
  server->ledger_ = std::move(state.ledger);
  if (metrics.recording()) {
    server->ledger_ = std::make_unique<metrics::MeteredLedgerStore>(
        std::move(server->ledger_),
        UsesPostgres(options) ? "postgresql" : "sqlite", &metrics);
  }
  // Settles the reservations a failed write left reserved, and reports the
  // ledger unhealthy while it cannot write (core/ledger/
  // settling_ledger_store.h). The probe: a write in the data directory
  // (embedded; a full disk). With PostgreSQL the health below checks the
  // lease's renewal first, so the settlements themselves are the probe.
  std::function<absl::Status()> lease = std::move(state.health);
  std::function<absl::Status()> probe;
  if (!lease) probe = [dir] { return ProbeDataDirWrite(dir); };
  auto settling = std::make_unique<core::ledger::SettlingLedgerStore>(
      std::move(server->ledger_), std::move(probe));
  core::ledger::SettlingLedgerStore* ledger_health = settling.get();
  server->ledger_ = std::move(settling);
  server->accounts_ = std::move(state.accounts);
  server->state_health_ = [lease, ledger_health]() -> absl::Status {
    if (lease) RETURN_IF_ERROR(lease());
    return ledger_health->WriteHealth();
  };
  ASSIGN_OR_RETURN(server->recovered_reservations_,
                   server->ledger_->RecoverPending());
  LogLine(absl::StrCat("ledger in ", state.description, ": charged ",
                       server->recovered_reservations_,
                       " reservation(s) left unfinished by an earlier stop "
                       "(the charge stands; retries with their request ids "
                       "get the answers)"));

  server->admin_token_path_ = options.admin_token_file.empty()
                                  ? dir + "/admin.token"
                                  : options.admin_token_file;
  ASSIGN_OR_RETURN(
      server->created_admin_token_,
      auth::EnsureAdminToken(*server->accounts_, server->admin_token_path_));

  registry::DatasetRegistry::Options registry_options;
  registry_options.data_dir = dir;
  registry_options.import_dir = options.import_dir;
  registry_options.max_csv_bytes = options.max_upload_bytes;
  registry_options.max_rows = static_cast<size_t>(options.max_rows);
  registry_options.max_edges = options.max_edges;
  registry_options.graph_threads = options.graph_threads;
  registry_options.graph_build_workers =
      static_cast<int>(options.graph_build_workers);
  registry_options.exact_repair_time_limit =
      absl::Seconds(options.exact_repair_seconds);
  registry_options.catalog = state.catalog;
  ASSIGN_OR_RETURN(server->registry_,
                   registry::DatasetRegistry::Open(registry_options));
  if (!options.metrics_listen.empty()) {
    RETURN_IF_ERROR(server->StartMetrics(options.metrics_listen, metrics));
  }

  server->buyer_service_ = std::make_unique<buyer::BuyerServiceImpl>(
      server->registry_.get(), server->ledger_.get(), server->accounts_.get(),
      static_cast<int>(options.max_heavy_jobs),
      static_cast<int>(options.max_heavy_jobs_per_buyer), nullptr,
      static_cast<int>(options.max_heavy_releases));
  server->admin_service_ = std::make_unique<admin::AdminServiceImpl>(
      server->registry_.get(), server->ledger_.get(), server->accounts_.get(),
      options.max_upload_bytes);

  // No AuthMetadataProcessor: each call's bearer token is checked by the
  // handler skeleton (server/call_handler.h), so that nothing is bound to
  // the connection.
  if (options.insecure_for_local_dev) {
    LogLine(
        "WARNING: serving plaintext gRPC (--insecure): tokens and answers "
        "cross the network unencrypted. Local development only.");
    credentials = grpc::InsecureServerCredentials();
  } else {
    credentials = grpc::SslServerCredentials(ssl_options);
  }

  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  // Reflection v1 and v1alpha together, or neither (docs/reflection.md).
  builder.SetOption(reflection::MakeReflectionOption(options.reflection));
  builder.AddListeningPort(options.listen, credentials, &server->port_);
  // No SO_REUSEPORT: a second server on the same port must fail, not share
  // the port (and the callers) with this one.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(static_cast<int>(options.max_message_bytes));
  builder.SetMaxSendMessageSize(static_cast<int>(options.max_message_bytes));
  // Handlers refuse what gRPC would fail to send (request_log.h).
  SetMaxResponseBytes(options.max_message_bytes);
  // Keep a pool of polling threads alive: with the default (1..2 pollers)
  // the sync server creates and ends a thread for almost every call under
  // concurrent load, which cost ~5% of CPU in the 64-client benchmark
  // (docs/performance.md).
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, kMinPollers);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, kMaxPollers);
  builder.RegisterService(server->buyer_service_.get());
  builder.RegisterService(server->admin_service_.get());
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(MakeTextRepairInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    if (server->server_ != nullptr) {
      server->server_->Shutdown();
      server->server_->Wait();
      server->server_.reset();
    }
    return absl::UnavailableError(absl::StrCat(
        "Cannot listen on '", options.listen,
        "': the address is in use or invalid, or gRPC rejected the TLS "
        "certificate or key (see the messages above)."));
  }
  server->address_ = absl::StrCat(host, ":", server->port_);
  if (!options.http_listen.empty()) {
    RETURN_IF_ERROR(server->StartHttp(options, ssl_options));
  }

  grpc::HealthCheckServiceInterface* health =
      server->server_->GetHealthCheckService();
  if (health != nullptr) {
    health->SetServingStatus(true);
    for (const char* name : kServiceNames) {
      health->SetServingStatus(name, true);
    }
    if (server->state_health_) {
      server->health_monitor_ =
          std::thread([s = server.get()] { s->MonitorHealth(); });
    }
  }
  return server;
}

absl::Status Server::StartMetrics(const std::string& listen,
                                  metrics::ServerMetrics& metrics) {
  ASSIGN_OR_RETURN(metrics_http_,
                   metrics::MetricsHttpServer::Start(
                       listen, [&metrics] { return metrics.Render(); }));
  metrics_port_ = metrics_http_->port();
  const std::string host = listen.substr(0, listen.rfind(':'));
  LogLine(absl::StrCat("metrics on ", host, ":", metrics_port_,
                       " (plain HTTP, GET /metrics; no private data, but "
                       "unauthenticated: keep it on a private interface)"));
  return absl::OkStatus();
}

absl::Status Server::StartHttp(const Options& options,
                               const grpc::SslServerCredentialsOptions& tls) {
  // The in-process channel takes the listener's limits, so an HTTP call
  // meets the same ones as a gRPC call.
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(
      static_cast<int>(options.max_message_bytes));
  arguments.SetMaxSendMessageSize(static_cast<int>(options.max_message_bytes));
  http::GatewayOptions gateway = GatewayOptionsOf(options);
  if (gateway.tls) {  // the PEM files as the gRPC listener read them
    gateway.tls_cert_pem = tls.pem_key_cert_pairs.front().cert_chain;
    gateway.tls_key_pem = tls.pem_key_cert_pairs.front().private_key;
    gateway.client_ca_pem = tls.pem_root_certs;
  }
  ASSIGN_OR_RETURN(http_, http::HttpGateway::Start(
                              gateway, server_->InProcessChannel(arguments)));
  http_port_ = http_->port();
  const std::string host =
      options.http_listen.substr(0, options.http_listen.rfind(':'));
  LogLine(absl::StrCat(
      "http on ", host, ":", http_port_,
      options.insecure_for_local_dev
          ? " (plaintext: local development only)"
          : " (TLS, the gRPC listener's certificate)",
      ": the JSON API under /v1/ (docs/http.md), the console at /"));
  return absl::OkStatus();
}

void Server::MonitorHealth() {
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  bool serving = true;
  absl::MutexLock lock(&shutdown_mu_);
  while (!shut_down_) {
    shutdown_mu_.AwaitWithTimeout(absl::Condition(&shut_down_),
                                  kHealthInterval);
    if (shut_down_) break;
    const absl::Status state = state_health_();
    if (state.ok() == serving) continue;
    serving = state.ok();
    // After Shutdown() the health service ignores changes; it cannot run
    // concurrently with this, which holds shutdown_mu_.
    health->SetServingStatus(serving);
    for (const char* name : kServiceNames) {
      health->SetServingStatus(name, serving);
    }
    LogLine(serving ? std::string("durable state reachable again: SERVING")
                    : absl::StrCat("durable state unreachable, NOT_SERVING "
                                   "until it is back: ",
                                   state.message()));
  }
}

void Server::Shutdown(absl::Time deadline) {
  {
    absl::MutexLock lock(&shutdown_mu_);
    if (shut_down_) return;
    shut_down_ = true;
  }
  if (health_monitor_.joinable()) health_monitor_.join();
  if (server_ == nullptr) return;
  if (grpc::HealthCheckServiceInterface* health =
          server_->GetHealthCheckService();
      health != nullptr) {
    // NOT_SERVING for every service, and ignore later changes.
    health->Shutdown();
  }
  server_->Shutdown(absl::ToChronoTime(deadline));
  // After the drain: the HTTP calls in flight were gRPC calls, finished or
  // cancelled by now; later HTTP requests got UNAVAILABLE.
  http_.reset();
}

void Server::Wait() {
  if (server_ != nullptr) server_->Wait();
}

Server::~Server() {
  Shutdown(absl::Now());
  Wait();
}

}  // namespace dpq::server
