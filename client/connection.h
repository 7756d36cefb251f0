// How `dpq` reaches the server: channel credentials (TLS by default, with an
// optional client certificate; plaintext only with --insecure), the bearer
// token, per-call deadlines, and the stubs the commands use. The stubs are
// held through their StubInterface so that tests can pass the generated
// gMock stubs instead (see CliEnv in client/cli.h).
#ifndef DPQ_CLIENT_CONNECTION_H_
#define DPQ_CLIENT_CONNECTION_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "grpc_health/v1/health.grpc.pb.h"
#include "grpcpp/client_context.h"

namespace dpq::client {

// Everything needed to open a channel. File contents, not paths: the CLI
// reads the files first, so that a missing file fails before any RPC.
struct ConnectionOptions {
  // host:port (or any gRPC target URI).
  std::string target;
  // Plaintext channel (no TLS).
  bool insecure = false;
  // The bearer token; empty: send none.
  std::string token;
  // PEM of the CA to trust; empty: gRPC's default (system) roots.
  std::string root_certs_pem;
  // mTLS client certificate chain and private key (PEM), both or neither.
  std::string client_cert_pem;
  std::string client_key_pem;
  // Overrides the name checked against the server certificate.
  std::string tls_server_name;
};

// The stubs of one connection.
struct Connection {
  std::shared_ptr<dpq::v1::BuyerService::StubInterface> buyer;
  std::shared_ptr<dpq::v1::AdminService::StubInterface> admin;
  std::shared_ptr<grpc::health::v1::Health::StubInterface> health;
};

// Opens a real channel. TLS: CompositeChannelCredentials(SslCredentials,
// MetadataCredentialsFromPlugin(bearer token)); the token is then sent by
// the call credentials. Insecure: InsecureChannelCredentials (call
// credentials need a secure channel), and the token is added to each call by
// PrepareContext. Channel creation is lazy and never fails for a
// well-formed target; kInvalidArgument for an empty target.
absl::StatusOr<Connection> ConnectGrpc(const ConnectionOptions& options);

// Per-call settings.
struct CallOptions {
  // Deadline of each call, from now.
  absl::Duration timeout = absl::Seconds(30);
  // Set only on plaintext channels: sent as "authorization: Bearer <token>"
  // metadata on every call.
  std::string plaintext_token;
};

// Applies `options` to a fresh context: deadline and, on plaintext
// channels, the authorization metadata.
void PrepareContext(const CallOptions& options, grpc::ClientContext* context);

// The `authorization` metadata value for `token`: "Bearer <token>".
std::string BearerValue(absl::string_view token);

// True if `target` (host:port, [v6]:port or a URI) names this machine:
// localhost, 127.0.0.0/8, ::1 or a unix socket.
bool IsLoopbackTarget(absl::string_view target);

// `server` with the default port 50051 appended if it has no port
// ("myhost" -> "myhost:50051"); targets with a scheme are kept.
std::string NormalizeTarget(absl::string_view server);

// Drops gRPC core's own log lines (e.g. "Handshake failed ..." on stderr)
// and protobuf's (e.g. "String field ... contains invalid UTF-8 data" for
// a reply that does not parse), unless GRPC_VERBOSITY is set in the
// environment: `dpq` reports each failure once, as its
// `dpq: <CODE>: <message>` line. Call once, first.
void QuietLibraryLogs();

}  // namespace dpq::client

#endif  // DPQ_CLIENT_CONNECTION_H_
