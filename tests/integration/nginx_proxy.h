// Debian's nginx (/usr/sbin/nginx, from deploy/install-deps.sh) as a child
// process in front of dpq-server replicas, configured exactly as deployments
// are: deploy/nginx/dpq.conf rendered by deploy/nginx/render-conf.sh, with
// the harness's dev certificates (MakeCerts) on both sides: nginx presents
// server.pem to clients and verifies the replicas' server.pem against ca.pem
// for the name "localhost" (docs/operations.md).
//
// nginx runs with its own prefix directory (pid file, temporary files and
// the rendered nginx.conf) under $TMPDIR, in the foreground
// (`-g 'daemon off;'`), its error and access logs on its stderr and stdout,
// both appended to log(). As root its workers run as root too (`user root;`
// on the command line), so that they can use the prefix directory.
#ifndef DPQ_TESTS_INTEGRATION_NGINX_PROXY_H_
#define DPQ_TESTS_INTEGRATION_NGINX_PROXY_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/integration/harness.h"

namespace dpq::integration {

inline constexpr char kNginxBinary[] = "/usr/sbin/nginx";

class NginxProxy {
 public:
  // Renders the configuration for `upstreams` (HOST:PORT each, TLS) and
  // starts nginx on a free port of 127.0.0.1; returns once it accepts TCP
  // connections (at most 30 s). kFailedPrecondition if nginx is not
  // installed (saying how to install it) or exits during start-up (with
  // its log); kInternal if the configuration cannot be rendered.
  // With `http_upstreams` (the replicas' --http-listen addresses), nginx
  // also serves deploy/nginx/dpq.conf's HTTP block on another free port
  // (http_address()).
  static absl::StatusOr<std::unique_ptr<NginxProxy>> Start(
      const std::vector<std::string>& upstreams, const Certs& certs,
      const std::vector<std::string>& http_upstreams = {});
  // Stop(), if still running.
  ~NginxProxy();
  NginxProxy(const NginxProxy&) = delete;
  NginxProxy& operator=(const NginxProxy&) = delete;

  // "127.0.0.1:PORT": where clients connect (the dev certificate names
  // 127.0.0.1).
  const std::string& address() const { return address_; }
  // "127.0.0.1:PORT" of the HTTP block; "" without http_upstreams.
  const std::string& http_address() const { return http_address_; }
  // The rendered configuration file.
  std::string config_path() const { return prefix_.Sub("nginx.conf"); }
  // What nginx wrote so far: error log lines and one access log line per
  // call (deploy/nginx/dpq.conf's dpq_grpc format: conn=, grpc=, upstream=).
  std::string Log() const;
  // Access log lines whose request line contains `path_part` (e.g.
  // "/dpq.v1.BuyerService/").
  std::vector<std::string> AccessLines(const std::string& path_part) const;

  // Renders the configuration again with the replicas of `down` (a subset
  // of the upstreams) marked `down` (DPQ_UPSTREAMS_DOWN), and reloads nginx
  // gracefully (SIGHUP: new workers use the new configuration, the old
  // ones finish their calls and exit); returns once the old workers are
  // gone (at most 30 s). The rolling upgrade of docs/operations.md.
  absl::Status Reload(const std::vector<std::string>& down);

  // Fast shutdown (SIGTERM; the master stops its workers), at most
  // `timeout`, then SIGKILL to nginx's process group. The exit status as
  // in CommandResult.
  int Stop(std::chrono::seconds timeout = std::chrono::seconds(15));
  bool running() const { return pid_ > 0; }

 private:
  NginxProxy() = default;
  // One start attempt on `port`; kUnavailable if the port was taken
  // meanwhile (the caller tries another one).
  absl::Status Launch(int port);
  // Renders deploy/nginx/dpq.conf for `port` with `down` marked down.
  absl::Status Render(int port, const std::vector<std::string>& down);

  TempDir prefix_;
  std::vector<std::string> upstreams_;
  std::vector<std::string> http_upstreams_;
  int http_port_ = 0;
  std::string http_address_;
  Certs certs_;
  int port_ = 0;
  std::string address_;
  pid_t pid_ = -1;
};

}  // namespace dpq::integration

#endif  // DPQ_TESTS_INTEGRATION_NGINX_PROXY_H_
