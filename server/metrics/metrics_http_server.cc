#include "server/metrics/metrics_http_server.h"

#include <civetweb.h>

#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "server/metrics/text_format.h"

namespace dpq::server::metrics {
namespace {

// civetweb's worker threads. civetweb gives each connection a thread for
// as long as it is open, so the threads bound how many idle or slow
// connections it takes to keep a scrape waiting: 16, and each of them is
// dropped after kRequestTimeoutMs, so two slow connections (or a dozen)
// cannot blind the scrapes (MetricsTest.SlowConnectionsDoNotBlindScrapes).
// Scrapes themselves are rare and take milliseconds.
constexpr char kThreads[] = "16";
// A client that has not sent its whole request by then is dropped.
constexpr char kRequestTimeoutMs[] = "2000";

// One whole response; the connection closes after it (no keep-alive), so
// the body's length is exact and no request is ever read after it.
void Respond(mg_connection* connection, int code, const char* reason,
             const char* content_type, const std::string& extra_headers,
             const std::string& body) {
  const std::string head = absl::StrCat(
      "HTTP/1.1 ", code, " ", reason, "\r\nContent-Type: ", content_type,
      "\r\nContent-Length: ", body.size(), "\r\n", extra_headers,
      "Cache-Control: no-store\r\nConnection: close\r\n\r\n");
  mg_write(connection, head.data(), head.size());
  mg_write(connection, body.data(), body.size());
}

}  // namespace

// HOST:PORT in civetweb's listening_ports syntax, which is the same for
// numeric addresses ("1.2.3.4:9464", "[::1]:9464"); checked here so that
// a mistake names the option.
absl::Status CheckMetricsListen(const std::string& listen) {
  const std::string::size_type colon = listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos || colon == 0 ||
      !absl::SimpleAtoi(listen.substr(colon + 1), &port) || port < 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "metrics_listen must be a numeric HOST:PORT (e.g. 127.0.0.1:9464 "
        "or [::1]:9464; port 0 picks one), but is '",
        listen, "'."));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const std::string& listen, std::function<std::string()> render) {
  if (absl::Status valid = CheckMetricsListen(listen); !valid.ok())
    return valid;
  // Without TLS: the scrape is public operator data (see the header).
  static std::once_flag library_init;
  std::call_once(library_init, [] { mg_init_library(0); });

  std::unique_ptr<MetricsHttpServer> server(
      new MetricsHttpServer(std::move(render)));
  const char* options[] = {"listening_ports",
                           listen.c_str(),
                           "num_threads",
                           kThreads,
                           "request_timeout_ms",
                           kRequestTimeoutMs,
                           "enable_keep_alive",
                           "no",
                           nullptr};
  mg_callbacks callbacks;
  std::memset(&callbacks, 0, sizeof(callbacks));
  callbacks.begin_request = &MetricsHttpServer::HandleRequest;
  // civetweb's own log lines would go to stderr unformatted; its start-up
  // error comes back through `error` instead.
  callbacks.log_message = [](const mg_connection*, const char*) { return 1; };
  mg_init_data init;
  init.callbacks = &callbacks;
  init.user_data = server.get();
  init.configuration_options = options;
  char error_text[256] = "";
  unsigned error_code = 0;
  mg_error_data error;
  error.code = &error_code;
  error.text = error_text;
  error.text_buffer_size = sizeof(error_text);
  server->context_ = mg_start2(&init, &error);
  if (server->context_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("Cannot serve metrics on '", listen, "': ", error_text));
  }
  mg_server_port ports[4];
  const int count = mg_get_server_ports(server->context_, 4, ports);
  if (count < 1 || ports[0].port <= 0) {
    return absl::UnavailableError(absl::StrCat(
        "Cannot serve metrics on '", listen, "': no port was bound."));
  }
  server->port_ = ports[0].port;
  return server;
}

MetricsHttpServer::~MetricsHttpServer() {
  if (context_ != nullptr) mg_stop(context_);
}

int MetricsHttpServer::HandleRequest(mg_connection* connection) {
  const mg_request_info* request = mg_get_request_info(connection);
  const auto* self = static_cast<const MetricsHttpServer*>(request->user_data);
  const char* path = request->local_uri_raw != nullptr ? request->local_uri_raw
                                                       : request->request_uri;
  if (path == nullptr || std::strcmp(path, "/metrics") != 0) {
    Respond(connection, 404, "Not Found", "text/plain; charset=utf-8", "",
            "Not found: only GET /metrics is served here.\n");
    return 404;
  }
  if (std::strcmp(request->request_method, "GET") != 0) {
    Respond(connection, 405, "Method Not Allowed", "text/plain; charset=utf-8",
            "Allow: GET\r\n",
            "Method not allowed: only GET /metrics is served here.\n");
    return 405;
  }
  Respond(connection, 200, "OK", kContentType, "", self->render_());
  return 200;
}

}  // namespace dpq::server::metrics
