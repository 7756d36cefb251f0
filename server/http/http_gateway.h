// dpq-server's HTTP listener (--http-listen HOST:PORT, docs/http.md): the
// dpq.v1 API as HTTP/JSON, transcoded by the routes of the services'
// google.api.http annotations (route_table.h) and called through the
// server's in-process gRPC channel (grpc_forwarder.h), and the web console
// (console_assets.h). Served by Debian's libmicrohttpd (a thread per
// connection), over TLS (GnuTLS) with the gRPC listener's certificate,
// key and client CA, or plaintext when gRPC is.
#ifndef DPQ_SERVER_HTTP_HTTP_GATEWAY_H_
#define DPQ_SERVER_HTTP_HTTP_GATEWAY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/channel.h"
#include "server/http/grpc_forwarder.h"
#include "server/http/http_response.h"
#include "server/http/route_table.h"
#include "server/http/web_policy.h"

struct MHD_Daemon;
struct MHD_Connection;

namespace dpq::server::http {

struct GatewayOptions {
  // A numeric HOST:PORT (IPv4, or [IPv6]:PORT); port 0 picks a free one
  // (see port()).
  std::string listen;
  // TLS (PEM contents, as the gRPC listener's); tls false: plaintext.
  bool tls = false;
  std::string tls_cert_pem;
  std::string tls_key_pem;
  std::string client_ca_pem;  // "": no client certificate asked for
  // The gRPC limit on one message: a JSON body (or one line of a streamed
  // upload) may be up to JsonBodyLimit of it, what base64 makes of a
  // message's bytes fields, so that every request gRPC takes fits; gRPC
  // then checks the message itself.
  int64_t max_message_bytes = int64_t{16} << 20;
  // Origins allowed to call the API from another origin's page.
  std::vector<std::string> cors_origins;
};

// The largest JSON body (or upload line) for a gRPC message limit: 4/3 of
// it plus 64 KiB.
int64_t JsonBodyLimit(int64_t max_message_bytes);

// kInvalidArgument naming http_listen or http_cors_origins.
absl::Status CheckGatewayOptions(const GatewayOptions& options);

class HttpGateway {
 public:
  // Listens and serves; `channel` reaches the server's own services.
  // kInvalidArgument for bad options or an annotation the route table
  // refuses; kUnavailable naming the address (and libmicrohttpd's reason)
  // if it cannot be bound or the TLS material is refused.
  static absl::StatusOr<std::unique_ptr<HttpGateway>> Start(
      const GatewayOptions& options, std::shared_ptr<grpc::Channel> channel);

  // Stops listening and waits for the requests in progress.
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  int port() const { return port_; }

 private:
  struct Request;
  HttpGateway(const GatewayOptions& options, RouteTable routes,
              std::shared_ptr<grpc::Channel> channel);

  // libmicrohttpd's callbacks (http_gateway.cc), with its own types.
  friend struct GatewayCallbacks;

  // The first call of a request: decides its route, or its whole answer.
  void Begin(MHD_Connection* connection, const std::string& url,
             const std::string& method, Request& request) const;
  void BeginApi(MHD_Connection* connection, const std::string& path,
                const std::string& method, Request& request) const;
  void ServeConsole(MHD_Connection* connection, const std::string& path,
                    const std::string& method, Request& request) const;
  // A piece of the body.
  void Receive(const char* data, size_t size, Request& request) const;
  void ReceiveLines(Request& request) const;
  // The body is complete: the call and its answer.
  void Complete(MHD_Connection* connection, Request& request) const;
  // Queues `response` (with the request's CORS headers) once.
  void Answer(MHD_Connection* connection, Request& request,
              Response response) const;
  bool ClientCertificateVerified(MHD_Connection* connection) const;

  const GatewayOptions options_;
  const RouteTable routes_;
  const GrpcForwarder forwarder_;
  const CorsPolicy cors_;
  std::string start_error_;
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
};

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_HTTP_GATEWAY_H_
