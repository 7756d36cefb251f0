// dpq-server's bootstrap (docs/architecture.md 2, server/): Options, their
// validation, and a running Server with the BuyerService, the AdminService,
// gRPC health checking and server reflection, behind TLS (or, only when asked
// for, plaintext) and bearer-token authentication.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<Server> server, Server::BuildAndStart(o));
//   ... server->Shutdown(absl::Now() + absl::Seconds(o.drain_seconds));
//   server->Wait();
#ifndef DPQ_SERVER_SERVER_H_
#define DPQ_SERVER_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/graph/conflict_graph_builder.h"
#include "grpcpp/server.h"

namespace grpc {
struct SslServerCredentialsOptions;
}  // namespace grpc

namespace dpq::core::ledger {
class LedgerStore;
}  // namespace dpq::core::ledger

namespace dpq::server {

namespace admin {
class AdminServiceImpl;
}  // namespace admin
namespace auth {
class AccountsStore;
}  // namespace auth
namespace buyer {
class BuyerServiceImpl;
}  // namespace buyer
namespace http {
class HttpGateway;
}  // namespace http
namespace metrics {
class MetricsHttpServer;
class ServerMetrics;
}  // namespace metrics
namespace registry {
class DatasetRegistry;
}  // namespace registry

// The default port of dpq-server.
inline constexpr int kDefaultPort = 50051;

struct Options {
  // HOST:PORT to listen on; port 0 picks a free port (see Server::port()).
  std::string listen = "0.0.0.0:50051";
  // Datasets, ledger.db, accounts.db and admin.token live here. Required;
  // created with mode 0700 if absent.
  std::string data_dir;
  // AdminService uploads by server_path read only regular files inside
  // this existing directory (never the data directory's); "" (the
  // default) refuses them with FAILED_PRECONDITION.
  std::string import_dir;
  // TLS: PEM server certificate chain and private key (both required
  // unless insecure_for_local_dev).
  std::string tls_cert;
  std::string tls_key;
  // mTLS: if set, clients must present a certificate signed by this CA.
  std::string client_ca;
  // Plaintext gRPC (local demos only); excludes every TLS file.
  bool insecure_for_local_dev = false;
  // Serve gRPC server reflection, grpc.reflection.v1 and v1alpha (no token
  // needed; it describes the API, never data). false: neither is served
  // (docs/reflection.md).
  bool reflection = true;
  // Largest gRPC message received or sent, in bytes (1 KiB .. 2 GiB - 1).
  int64_t max_message_bytes = int64_t{16} << 20;
  // Largest CSV upload (RegisterDataset/ReplaceDataset), in bytes.
  uint64_t max_upload_bytes = uint64_t{1} << 30;
  // Largest dataset, in rows.
  uint64_t max_rows = 10'000'000;
  // Largest conflict graph, in edges: a registration whose graph is larger
  // fails (for the owner to see), and a stored dataset above it is not
  // loaded. Bounds a registration's memory (about 32 bytes per edge).
  uint64_t max_edges = core::graph::kDefaultMaxConflictGraphEdges;
  // Threads per conflict-graph build; 0 = one per core.
  int graph_threads = 0;
  // Conflict graphs built at once by the background workers (1..16).
  int64_t graph_build_workers = 1;
  // Time a registration with exact_repair may spend proving the exact
  // minimum cover (1..3600 s); beyond it the registration fails.
  int64_t exact_repair_seconds = 60;
  // TrainDecisionTree / SelectInfluentialNodes computations at once
  // (1..64); more are refused with UNAVAILABLE before any budget is
  // reserved.
  int64_t max_heavy_jobs = 2;
  // Of those, how many one buyer may run at once (1..max_heavy_jobs); 0 =
  // half of max_heavy_jobs, at least 1 (1 with the default 2, so one buyer
  // always leaves a slot to the others; buyer::DefaultMaxHeavyJobsPerBuyer).
  int64_t max_heavy_jobs_per_buyer = 0;
  // Measure computations on heavy datasets (more than 1,000,000 conflict
  // edges, DatasetStats.release_cost) at once (1..64); more wait in a queue
  // fair across buyers, after their charge (buyer::HeavyReleaseQueue).
  int64_t max_heavy_releases = 1;
  // On shutdown (SIGTERM), how long in-flight calls may take to finish
  // before they are cancelled.
  int64_t drain_seconds = 30;

  // The shared-state mode (docs/operations.md): with either of these set,
  // the ledger, the accounts and the dataset catalog live in PostgreSQL and
  // data_dir is this replica's local cache. `database` is a libpq
  // connection string or postgresql:// URI; `database_file` a file holding
  // one (e.g. a mounted Secret). The standard PG* environment variables
  // supply what the DSN leaves out. Never printed.
  std::string database;
  std::string database_file;
  // This replica's name in the ledger's leases; "" = a random id kept in
  // DATA_DIR/replica.id, so a restarted replica settles only its own
  // reservations.
  std::string replica_id;
  // How long a replica's reservations survive it when it dies (its lease,
  // 2..3600 s), before another replica charges them.
  int64_t replica_lease_seconds = 15;
  // Connections to PostgreSQL per replica (2..64).
  int64_t database_connections = 16;
  // The admin token's file; "" = DATA_DIR/admin.token. Replicas share one
  // (e.g. a Secret): the first to start creates the admin from it.
  std::string admin_token_file;
  // HOST:PORT (numeric) of the metrics listener (docs/operations.md,
  // "Metrics"): plain HTTP serving GET /metrics; port 0 picks a free port
  // (logged, see Server::metrics_port()). "" (the default): no listener and
  // no recording.
  std::string metrics_listen;
  // HOST:PORT (numeric) of the HTTP/JSON listener and the web console
  // (docs/http.md): the API transcoded from the google.api.http
  // annotations, over TLS with tls_cert, tls_key and client_ca as gRPC
  // (plaintext only with insecure_for_local_dev); port 0 picks a free port
  // (logged, see Server::http_port()). "" (the default): no listener.
  std::string http_listen;
  // Origins (scheme://host[:port], comma-separated) whose pages may call
  // the HTTP API across origins; "" (the default): none, same-origin only.
  std::string http_cors_origins;
};

// kInvalidArgument naming the option for a bad value or combination: TLS
// needs tls_cert and tls_key unless insecure; insecure excludes every TLS
// file; data_dir is required; listen must be HOST:PORT; limits positive.
absl::Status ValidateOptions(const Options& options);

// The contents of a PEM file; kInvalidArgument naming `option` and the path
// if it cannot be read or holds no PEM block.
absl::StatusOr<std::string> ReadPemFile(const std::string& path,
                                        const char* option);

class Server {
 public:
  // Validates the options, opens DATA_DIR (ledger.db with RecoverPending,
  // accounts.db, datasets/), creates DATA_DIR/admin.token on first start,
  // and starts serving. Datasets are loaded (parsed and validated) before
  // the server reports SERVING; their conflict graphs are built in the
  // background afterwards, and the releases that need one wait for it.
  // kInvalidArgument for bad options or unreadable PEM files; kUnavailable if
  // the address cannot be bound; other errors of the stores as they are.
  static absl::StatusOr<std::unique_ptr<Server>> BuildAndStart(
      const Options& options);

  // Shuts down with a zero drain if still running.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The port actually bound (useful with listen port 0).
  int port() const { return port_; }
  // HOST:PORT with the real port, e.g. "127.0.0.1:43521".
  const std::string& address() const { return address_; }
  // The metrics listener's port; 0 without --metrics-listen.
  int metrics_port() const { return metrics_port_; }
  // The HTTP listener's port; 0 without --http-listen.
  int http_port() const { return http_port_; }
  // True if this start created DATA_DIR/admin.token.
  bool created_admin_token() const { return created_admin_token_; }
  // DATA_DIR/admin.token.
  const std::string& admin_token_path() const { return admin_token_path_; }
  // How many reservations RecoverPending refunded at start-up.
  int64_t recovered_reservations() const { return recovered_reservations_; }

  // Sets every health status to NOT_SERVING, stops accepting calls, and
  // waits until in-flight calls finish or `deadline` passes (then cancels
  // them). Idempotent; thread-safe.
  void Shutdown(absl::Time deadline) ABSL_LOCKS_EXCLUDED(shutdown_mu_);
  // Blocks until the server has shut down.
  void Wait();

  // For tests.
  auth::AccountsStore& accounts() { return *accounts_; }
  registry::DatasetRegistry& registry() { return *registry_; }
  core::ledger::LedgerStore& ledger() { return *ledger_; }

 private:
  Server();
  // Serves `metrics` on `listen` (Options::metrics_listen), turns their
  // recording on, and logs "metrics on HOST:PORT".
  absl::Status StartMetrics(const std::string& listen,
                            metrics::ServerMetrics& metrics);
  // Serves the HTTP/JSON API and the console on options.http_listen over
  // the server's in-process channel, with `tls`'s PEM contents (the gRPC
  // listener's, read once) unless insecure, and logs "http on HOST:PORT".
  absl::Status StartHttp(const Options& options,
                         const grpc::SslServerCredentialsOptions& tls);
  // Sets every health status to NOT_SERVING while the durable state is
  // unreachable (a PostgreSQL outage) and back to SERVING when it answers
  // again, until Shutdown. Runs only in the shared-state mode.
  void MonitorHealth() ABSL_LOCKS_EXCLUDED(shutdown_mu_);

  std::unique_ptr<core::ledger::LedgerStore> ledger_;
  std::unique_ptr<auth::AccountsStore> accounts_;
  std::unique_ptr<registry::DatasetRegistry> registry_;
  std::unique_ptr<buyer::BuyerServiceImpl> buyer_service_;
  std::unique_ptr<admin::AdminServiceImpl> admin_service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::unique_ptr<metrics::MetricsHttpServer> metrics_http_;
  int metrics_port_ = 0;
  std::unique_ptr<http::HttpGateway> http_;
  int http_port_ = 0;
  std::string address_;
  std::string admin_token_path_;
  bool created_admin_token_ = false;
  int64_t recovered_reservations_ = 0;
  std::function<absl::Status()> state_health_;
  std::thread health_monitor_;
  absl::Mutex shutdown_mu_;
  bool shut_down_ ABSL_GUARDED_BY(shutdown_mu_) = false;
};

}  // namespace dpq::server

#endif  // DPQ_SERVER_SERVER_H_
