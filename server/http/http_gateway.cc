#include "server/http/http_gateway.h"

#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cstring>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/util/status_macros.h"
#include "server/http/console_assets.h"
#include "server/http/http_error.h"
#include "server/http/http_response.h"
#include "server/http/json_transcoder.h"
#include "server/http/line_splitter.h"

namespace dpq::server::http {
namespace {

// libmicrohttpd gives each connection a thread; at most this many
// connections are open at once (more are refused at accept), and one
// that is idle this long (a stalled read or write) is closed.
constexpr unsigned int kMaxConnections = 64;
constexpr unsigned int kIdleTimeoutSeconds = 30;
// GnuTLS: TLS 1.2 and 1.3 only, as the gRPC listener.
constexpr char kTlsPriorities[] = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";

absl::Status InvalidListen(const std::string& listen) {
  return absl::InvalidArgumentError(absl::StrCat(
      "http_listen must be a numeric HOST:PORT (e.g. 127.0.0.1:8443, "
      "0.0.0.0:8443 or [::1]:8443; port 0 picks one), but is '",
      listen, "'."));
}

// The socket address of a numeric HOST:PORT, by getaddrinfo.
absl::StatusOr<sockaddr_storage> ParseListen(const std::string& listen,
                                             bool* ipv6) {
  const std::string::size_type colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return InvalidListen(listen);
  std::string host = listen.substr(0, colon);
  const std::string port = listen.substr(colon + 1);
  int port_number = -1;
  if (!absl::SimpleAtoi(port, &port_number) || port_number < 0 ||
      port_number > 65535) {
    return InvalidListen(listen);
  }
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints;
  std::memset(&hints, 0, sizeof(hints));
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 ||
      found == nullptr) {
    return InvalidListen(listen);
  }
  sockaddr_storage address;
  std::memset(&address, 0, sizeof(address));
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  *ipv6 = found->ai_family == AF_INET6;
  freeaddrinfo(found);
  return address;
}

// Printable ASCII only: what gRPC metadata takes.
bool IsHeaderText(const std::string& value) {
  for (char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

Response Error(absl::StatusCode code, absl::string_view message,
               int http_status = 0) {
  return ErrorResponse(ErrorOf(code, message, http_status));
}

// The query string's parameters, decoded by libmicrohttpd, in order.
MHD_Result AddParameter(void* out, MHD_ValueKind, const char* key,
                        const char* value) {
  static_cast<std::vector<QueryParameter>*>(out)->emplace_back(
      key, value == nullptr ? "" : value);
  return MHD_YES;
}

}  // namespace

// What one HTTP request holds between libmicrohttpd's calls.
struct HttpGateway::Request {
  bool answered = false;
  std::vector<Header> cors;
  std::optional<RouteMatch> match;
  CallMetadata metadata;
  std::vector<QueryParameter> query;
  std::string body;                       // unary routes
  std::unique_ptr<StreamingCall> stream;  // client-streaming routes
  std::unique_ptr<LineSplitter> lines;
  std::unique_ptr<google::protobuf::Message> message;
  // The server ended the streamed call (a bad header, an existing id): the
  // rest of the body is dropped unparsed and Finish says why.
  bool stream_ended = false;
  // What was wrong with the body (too large, a bad line), answered once it
  // has ended.
  absl::Status body_error;
};

struct GatewayCallbacks {
  static MHD_Result Handle(void* self, MHD_Connection* connection,
                           const char* url, const char* method,
                           const char* /*version*/, const char* upload_data,
                           size_t* upload_data_size, void** state) {
    const auto* gateway = static_cast<const HttpGateway*>(self);
    auto* request = static_cast<HttpGateway::Request*>(*state);
    if (request == nullptr) {
      request = new HttpGateway::Request();
      *state = request;
      gateway->Begin(connection, url, method, *request);
      return MHD_YES;
    }
    if (*upload_data_size > 0) {
      if (!request->answered) {
        gateway->Receive(upload_data, *upload_data_size, *request);
      }
      *upload_data_size = 0;  // consumed (or, once answered, dropped)
      return MHD_YES;
    }
    if (!request->answered) gateway->Complete(connection, *request);
    return MHD_YES;
  }

  static void Done(void*, MHD_Connection*, void** state,
                   MHD_RequestTerminationCode) {
    delete static_cast<HttpGateway::Request*>(*state);
    *state = nullptr;
  }

  // libmicrohttpd's own error messages: kept for Start's error.
  static void Log(void* self, const char* format, va_list arguments) {
    char line[512];
    std::vsnprintf(line, sizeof(line), format, arguments);
    auto* gateway = static_cast<HttpGateway*>(self);
    if (gateway->start_error_.size() < 2048) {
      absl::StrAppend(&gateway->start_error_, line);
    }
  }
};

int64_t JsonBodyLimit(int64_t max_message_bytes) {
  return max_message_bytes + max_message_bytes / 3 + (int64_t{64} << 10);
}

absl::Status CheckGatewayOptions(const GatewayOptions& options) {
  bool ipv6 = false;
  RETURN_IF_ERROR(ParseListen(options.listen, &ipv6).status());
  for (const std::string& origin : options.cors_origins) {
    if (std::string why = CheckCorsOrigin(origin); !why.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("http_cors_origins: ", why, "."));
    }
  }
  return absl::OkStatus();
}

HttpGateway::HttpGateway(const GatewayOptions& options, RouteTable routes,
                         std::shared_ptr<grpc::Channel> channel)
    : options_(options),
      routes_(std::move(routes)),
      forwarder_(std::move(channel)),
      cors_(options.cors_origins) {}

absl::StatusOr<std::unique_ptr<HttpGateway>> HttpGateway::Start(
    const GatewayOptions& options, std::shared_ptr<grpc::Channel> channel) {
  RETURN_IF_ERROR(CheckGatewayOptions(options));
  bool ipv6 = false;
  ASSIGN_OR_RETURN(sockaddr_storage address,
                   ParseListen(options.listen, &ipv6));
  ASSIGN_OR_RETURN(RouteTable routes, RouteTable::ForDpqV1());
  std::unique_ptr<HttpGateway> gateway(
      new HttpGateway(options, std::move(routes), std::move(channel)));
  const GatewayOptions& o = gateway->options_;  // outlives the daemon
  unsigned int flags = MHD_USE_THREAD_PER_CONNECTION |
                       MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
  if (ipv6) flags |= MHD_USE_IPv6;
  if (o.tls) flags |= MHD_USE_TLS;
  // The logger first, so that it hears about the options after it.
  std::vector<MHD_OptionItem> items = {
      {MHD_OPTION_EXTERNAL_LOGGER,
       reinterpret_cast<intptr_t>(&GatewayCallbacks::Log), gateway.get()},
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_CONNECTION_LIMIT, kMaxConnections, nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, kIdleTimeoutSeconds, nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED,
       reinterpret_cast<intptr_t>(&GatewayCallbacks::Done), nullptr},
  };
  if (o.tls) {
    // The key before the certificate: libmicrohttpd loads the pair when it
    // reads the certificate.
    items.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0,
                     const_cast<char*>(o.tls_key_pem.c_str())});
    items.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0,
                     const_cast<char*>(o.tls_cert_pem.c_str())});
    items.push_back(
        {MHD_OPTION_HTTPS_PRIORITIES, 0, const_cast<char*>(kTlsPriorities)});
    if (!o.client_ca_pem.empty()) {
      items.push_back({MHD_OPTION_HTTPS_MEM_TRUST, 0,
                       const_cast<char*>(o.client_ca_pem.c_str())});
    }
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  gateway->daemon_ = MHD_start_daemon(
      flags, 0, nullptr, nullptr, &GatewayCallbacks::Handle, gateway.get(),
      MHD_OPTION_ARRAY, items.data(), MHD_OPTION_END);
  if (gateway->daemon_ == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "Cannot serve HTTP on '", options.listen, "': ",
        gateway->start_error_.empty()
            ? "the address is in use or invalid, or the TLS certificate or "
              "key was refused."
            : gateway->start_error_));
  }
  const MHD_DaemonInfo* info =
      MHD_get_daemon_info(gateway->daemon_, MHD_DAEMON_INFO_BIND_PORT);
  gateway->port_ = info == nullptr ? 0 : info->port;
  if (gateway->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat(
        "Cannot serve HTTP on '", options.listen, "': no port was bound."));
  }
  return gateway;
}

HttpGateway::~HttpGateway() {
  if (daemon_ != nullptr) MHD_stop_daemon(daemon_);
}

void HttpGateway::Answer(MHD_Connection* connection, Request& request,
                         Response response) const {
  if (request.answered) return;
  request.answered = true;
  request.stream.reset();  // cancels a call still open
  response.headers.insert(response.headers.end(), request.cors.begin(),
                          request.cors.end());
  Send(connection, response, options_.tls);
}

// With a client CA, libmicrohttpd asks for a certificate; the check that
// it was given and chains to the CA is the application's (GnuTLS).
bool HttpGateway::ClientCertificateVerified(MHD_Connection* connection) const {
  if (!options_.tls || options_.client_ca_pem.empty()) return true;
  const MHD_ConnectionInfo* info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  if (info == nullptr || info->tls_session == nullptr) return false;
  auto session = static_cast<gnutls_session_t>(info->tls_session);
  unsigned int peers = 0;
  if (gnutls_certificate_get_peers(session, &peers) == nullptr || peers == 0) {
    return false;
  }
  unsigned int status = 0;
  return gnutls_certificate_verify_peers2(session, &status) == 0 && status == 0;
}

void HttpGateway::Begin(MHD_Connection* connection, const std::string& url,
                        const std::string& method, Request& request) const {
  if (!ClientCertificateVerified(connection)) {
    Answer(connection, request,
           Error(absl::StatusCode::kUnauthenticated,
                 "This server requires a client certificate signed by its "
                 "client CA (mutual TLS)."));
    return;
  }
  if (absl::StartsWith(url, "/v1/")) {
    BeginApi(connection, url, method, request);
  } else {
    ServeConsole(connection, url, method, request);
  }
}

void HttpGateway::ServeConsole(MHD_Connection* connection,
                               const std::string& path,
                               const std::string& method,
                               Request& request) const {
  std::string name;
  if (path == "/" || path == "/console" || path == "/console/") {
    name = "index.html";
  } else if (absl::StartsWith(path, "/console/")) {
    name = path.substr(std::strlen("/console/"));
  }
  std::optional<ConsoleAsset> asset;
  if (!name.empty() && name.find('/') == std::string::npos) {
    asset = FindConsoleAsset(name);
  }
  if (!asset.has_value()) {
    Answer(connection, request,
           Error(absl::StatusCode::kNotFound,
                 absl::StrCat("No such page: ", path,
                              ". The console is at /, the API under /v1/.")));
    return;
  }
  if (method != "GET" && method != "HEAD") {
    Response refused = Error(absl::StatusCode::kUnimplemented,
                             "The console's files take GET only.", 405);
    refused.headers.emplace_back("Allow", "GET, HEAD");
    Answer(connection, request, refused);
    return;
  }
  Response response;
  response.content_type = std::string(ContentTypeOf(asset->name));
  response.body = std::string(asset->content);
  response.content = Content::kAsset;
  Answer(connection, request, response);
}

void HttpGateway::BeginApi(MHD_Connection* connection, const std::string& path,
                           const std::string& method, Request& request) const {
  const std::string origin = RequestHeader(connection, "Origin");
  request.cors = cors_.Headers(origin, method == "OPTIONS");
  if (method == "OPTIONS") {
    if (!cors_.Allows(origin)) {
      Answer(connection, request,
             Error(absl::StatusCode::kPermissionDenied,
                   absl::StrCat("Cross-origin requests from '", origin,
                                "' are not allowed: dpq-server allows only "
                                "the origins of --http-cors-origins.")));
      return;
    }
    Response preflight;
    preflight.status = 204;
    Answer(connection, request, preflight);
    return;
  }
  request.metadata.authorization = RequestHeader(connection, "Authorization");
  if (!IsHeaderText(request.metadata.authorization)) {
    Answer(connection, request,
           Error(absl::StatusCode::kUnauthenticated,
                 "Malformed Authorization header: expected 'Bearer <token>'."));
    return;
  }
  if (const std::string timeout = RequestHeader(connection, "Grpc-Timeout");
      !timeout.empty()) {
    request.metadata.timeout = ParseGrpcTimeout(timeout);
    if (!request.metadata.timeout.has_value()) {
      Answer(connection, request,
             Error(absl::StatusCode::kInvalidArgument,
                   absl::StrCat("Malformed Grpc-Timeout header '", timeout,
                                "': expected 1-8 digits and a unit H, M, S, "
                                "m, u or n (e.g. 30S).")));
      return;
    }
  }
  absl::StatusOr<RouteMatch> match = routes_.Find(method, path);
  if (!match.ok()) {
    const bool other_method =
        match.status().code() == absl::StatusCode::kUnimplemented;
    Answer(connection, request,
           Error(match.status().code(), match.status().message(),
                 other_method ? 405 : 0));
    return;
  }
  request.match = *std::move(match);
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, &AddParameter,
                            &request.query);
  const google::protobuf::MethodDescriptor* rpc = request.match->route->method;
  if (rpc->client_streaming()) {
    if (!request.query.empty()) {
      Answer(connection, request,
             Error(absl::StatusCode::kInvalidArgument,
                   "A streamed upload takes its messages as the body, not as "
                   "query parameters."));
      return;
    }
    request.lines = std::make_unique<LineSplitter>(
        JsonBodyLimit(options_.max_message_bytes));
    request.message = NewMessage(rpc->input_type());
    request.stream = forwarder_.StartStream(request.match->route->grpc_method,
                                            request.metadata);
  }
}

void HttpGateway::Receive(const char* data, size_t size,
                          Request& request) const {
  if (!request.match.has_value() || !request.body_error.ok()) return;
  if (request.stream == nullptr) {
    const int64_t limit = JsonBodyLimit(options_.max_message_bytes);
    if (static_cast<int64_t>(request.body.size() + size) > limit) {
      request.body.clear();
      request.body_error = TooLargeError(limit, "The request body");
      return;
    }
    request.body.append(data, size);
    return;
  }
  if (request.stream_ended) return;
  request.lines->Append(absl::string_view(data, size));
  ReceiveLines(request);
}

// Sends every whole line as a message; on a bad line the call is
// cancelled and the answer waits for the end of the body.
void HttpGateway::ReceiveLines(Request& request) const {
  std::string line;
  while (request.stream != nullptr) {
    absl::StatusOr<bool> next = request.lines->Next(&line);
    absl::Status bad;
    if (!next.ok()) {
      bad = next.status();
    } else if (!*next) {
      return;
    } else {
      request.message->Clear();
      bad = MessageFromJson(line, request.message.get());
      if (bad.ok() && !request.stream->Write(*request.message)) {
        request.stream_ended = true;
        return;
      }
    }
    if (!bad.ok()) {
      request.stream->Cancel();
      request.stream.reset();
      request.body_error = bad;
      return;
    }
  }
}

void HttpGateway::Complete(MHD_Connection* connection, Request& request) const {
  // What was found while the body arrived (Receive, ReceiveLines).
  if (!request.body_error.ok()) {
    Answer(connection, request, ErrorResponse(request.body_error));
    return;
  }
  if (!request.match.has_value()) return;
  std::unique_ptr<google::protobuf::Message> response =
      NewMessage(request.match->route->method->output_type());
  grpc::Status status;
  if (request.stream != nullptr) {
    if (!request.stream_ended) {
      request.lines->Finish();
      ReceiveLines(request);
    }
    if (!request.body_error.ok()) {  // the last line was bad
      Answer(connection, request, ErrorResponse(request.body_error));
      return;
    }
    status = request.stream->Finish(response.get());
  } else {
    absl::StatusOr<std::unique_ptr<google::protobuf::Message>> call =
        RequestFromHttp(*request.match, request.query, request.body);
    if (!call.ok()) {
      Answer(connection, request, ErrorResponse(call.status()));
      return;
    }
    status = forwarder_.Unary(request.match->route->grpc_method,
                              request.metadata, **call, response.get());
  }
  if (!status.ok()) {
    Answer(connection, request, ErrorResponse(ErrorOf(status)));
    return;
  }
  absl::StatusOr<std::string> json = JsonFromMessage(*response);
  Answer(connection, request,
         json.ok() ? JsonResponse(*std::move(json))
                   : ErrorResponse(json.status()));
}

}  // namespace dpq::server::http
