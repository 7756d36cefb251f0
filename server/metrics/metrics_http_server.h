// The metrics listener of dpq-server (--metrics-listen HOST:PORT,
// docs/operations.md, "Metrics"): plain HTTP on its own port, served by
// Debian's civetweb (libcivetweb), answering GET /metrics with a scrape in
// the Prometheus text format 0.0.4 and nothing else (404 for any other
// path, 405 for any other method on /metrics). It carries no private data,
// but it is unauthenticated: bind it to a private interface.
#ifndef DPQ_SERVER_METRICS_METRICS_HTTP_SERVER_H_
#define DPQ_SERVER_METRICS_METRICS_HTTP_SERVER_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

struct mg_context;
struct mg_connection;

namespace dpq::server::metrics {

// OK for a numeric HOST:PORT; kInvalidArgument naming metrics_listen
// otherwise (what Start checks first; the server checks it before anything
// else, and starts the listener last).
absl::Status CheckMetricsListen(const std::string& listen);

class MetricsHttpServer {
 public:
  // Listens on `listen` (a numeric IPv4 address and port, "0.0.0.0:9464",
  // or "[::1]:9464"; port 0 picks a free one, see port()) and answers each
  // scrape with `render()` (called on civetweb's threads, so thread-safe).
  // kInvalidArgument for a malformed address; kUnavailable naming it if it
  // cannot be bound.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      const std::string& listen, std::function<std::string()> render);

  // Stops listening and waits for the requests in progress.
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // The port bound.
  int port() const { return port_; }

 private:
  explicit MetricsHttpServer(std::function<std::string()> render)
      : render_(std::move(render)) {}
  // civetweb's begin_request callback: answers every request itself.
  static int HandleRequest(mg_connection* connection);

  const std::function<std::string()> render_;
  mg_context* context_ = nullptr;
  int port_ = 0;
};

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_METRICS_HTTP_SERVER_H_
