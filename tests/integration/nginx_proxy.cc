#include "tests/integration/nginx_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/util/status_macros.h"

extern char** environ;

namespace dpq::integration {
namespace {

using Clock = std::chrono::steady_clock;

// A port of 127.0.0.1 that was free a moment ago (0 if none could be had).
int FreeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

bool AcceptsConnections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok =
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

int DecodeWaitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string Tail(const std::string& log) {
  return log.size() > 4000 ? log.substr(log.size() - 4000) : log;
}

}  // namespace

absl::StatusOr<std::unique_ptr<NginxProxy>> NginxProxy::Start(
    const std::vector<std::string>& upstreams, const Certs& certs,
    const std::vector<std::string>& http_upstreams) {
  if (::access(kNginxBinary, X_OK) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(kNginxBinary,
                     " is missing: deploy/install-deps.sh installs Debian's "
                     "nginx-light (apt-get install nginx-light)"));
  }
  std::unique_ptr<NginxProxy> proxy(new NginxProxy());
  proxy->upstreams_ = upstreams;
  proxy->http_upstreams_ = http_upstreams;
  proxy->certs_ = certs;
  // Another process may take the free port before nginx binds it: try a
  // few ports.
  absl::Status last = absl::UnavailableError("no free loopback port");
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int port = FreeLoopbackPort();
    if (port == 0) continue;
    if (!http_upstreams.empty()) {
      proxy->http_port_ = FreeLoopbackPort();
      proxy->http_address_ = absl::StrCat("127.0.0.1:", proxy->http_port_);
    }
    if (absl::Status rendered = proxy->Render(port, {}); !rendered.ok()) {
      return rendered;
    }
    proxy->port_ = port;
    last = proxy->Launch(port);
    if (last.ok()) return proxy;
    if (!absl::IsUnavailable(last)) return last;
  }
  return last;
}

absl::Status NginxProxy::Render(int port,
                                const std::vector<std::string>& down) {
  const CommandResult render = RunCommand(
      {"/bin/bash", absl::StrCat(kSourceDir, "/deploy/nginx/render-conf.sh"),
       absl::StrCat(kSourceDir, "/deploy/nginx/dpq.conf"), config_path()},
      {{"DPQ_UPSTREAMS", absl::StrJoin(upstreams_, " ")},
       {"DPQ_UPSTREAMS_DOWN", absl::StrJoin(down, " ")},
       {"DPQ_LISTEN", absl::StrCat("127.0.0.1:", port)},
       {"DPQ_TLS_CERT", certs_.server_cert()},
       {"DPQ_TLS_KEY", certs_.server_key()},
       {"DPQ_UPSTREAM_CA", certs_.ca()},
       {"DPQ_UPSTREAM_TLS_NAME", "localhost"},
       {"DPQ_HTTP_UPSTREAMS", absl::StrJoin(http_upstreams_, " ")},
       {"DPQ_HTTP_LISTEN", absl::StrCat("127.0.0.1:", http_port_)}});
  if (render.exit_code != 0) {
    return absl::InternalError(
        absl::StrCat("deploy/nginx/render-conf.sh failed (", render.exit_code,
                     "): ", render.err));
  }
  return absl::OkStatus();
}

namespace {

// The pids of the processes whose parent is `parent` (/proc).
std::vector<pid_t> ChildrenOf(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    pid_t pid = 0;
    if (!absl::SimpleAtoi(entry.path().filename().string(), &pid)) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    // pid (comm) state ppid ...: the comm may hold spaces, so parse after ')'.
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) children.push_back(pid);
  }
  return children;
}

}  // namespace

absl::Status NginxProxy::Reload(const std::vector<std::string>& down) {
  if (pid_ <= 0) return absl::FailedPreconditionError("nginx is not running");
  RETURN_IF_ERROR(Render(port_, down));
  const std::vector<pid_t> old_workers = ChildrenOf(pid_);
  if (::kill(pid_, SIGHUP) != 0) {
    return absl::InternalError("cannot signal nginx");
  }
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < give_up) {
    const std::vector<pid_t> now = ChildrenOf(pid_);
    bool old_left = false;
    for (pid_t w : old_workers) {
      old_left = old_left || std::find(now.begin(), now.end(), w) != now.end();
    }
    if (!old_left && !now.empty()) return absl::OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "nginx's old workers did not exit after the reload:\n", Tail(Log())));
}

absl::Status NginxProxy::Launch(int port) {
  const std::string log_path = prefix_.Sub("nginx.log");
  const int log_fd =
      ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log_fd < 0) return absl::InternalError("cannot open " + log_path);
  std::string globals = "daemon off;";
  // As root, nginx would switch its workers to `nobody`, who cannot enter
  // the prefix directory (mode 0700).
  if (::geteuid() == 0) globals += " user root;";
  std::vector<std::string> argv = {
      kNginxBinary, "-p",          prefix_.path() + "/",
      "-c",         config_path(), "-e",
      "stderr",     "-g",          globals};
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  std::vector<char*> c_argv = CStrings(argv);
  std::vector<char*> c_env = CStrings(env);
  const std::string pid_file = prefix_.Sub("nginx.pid");
  std::filesystem::remove(pid_file);

  const pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls until exec. Its own process group, so
    // that a stuck master and its workers can be killed together.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    ::execve(c_argv[0], c_argv.data(), c_env.data());
    ::_exit(127);
  }
  ::close(log_fd);
  if (pid < 0) return absl::InternalError("fork failed");
  pid_ = pid;
  address_ = absl::StrCat("127.0.0.1:", port);

  // Ours once its pid file names it (written after it bound the port) and
  // the port accepts connections.
  const auto end = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < end) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      const std::string log = Log();
      const std::string message =
          absl::StrCat("nginx exited with status ", DecodeWaitStatus(status),
                       " during start-up: ", Tail(log));
      if (absl::StrContains(log, "Address already in use")) {
        return absl::UnavailableError(message);
      }
      return absl::FailedPreconditionError(message);
    }
    const std::string pid_text(
        absl::StripAsciiWhitespace(ReadFileOrEmpty(pid_file)));
    if (pid_text == std::to_string(pid_) && AcceptsConnections(port)) {
      return absl::OkStatus();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::string log = Log();
  Stop();
  return absl::FailedPreconditionError(absl::StrCat(
      "nginx did not accept connections within 30 s: ", Tail(log)));
}

NginxProxy::~NginxProxy() {
  if (pid_ > 0) Stop();
}

std::string NginxProxy::Log() const {
  return ReadFileOrEmpty(prefix_.Sub("nginx.log"));
}

std::vector<std::string> NginxProxy::AccessLines(
    const std::string& path_part) const {
  std::vector<std::string> out;
  for (absl::string_view line : absl::StrSplit(Log(), '\n')) {
    if (absl::StrContains(line, "\"POST ") &&
        absl::StrContains(line, path_part)) {
      out.emplace_back(line);
    }
  }
  return out;
}

int NginxProxy::Stop(std::chrono::seconds timeout) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  const auto end = Clock::now() + timeout;
  int status = 0;
  while (true) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (r < 0 && errno != EINTR) {
      pid_ = -1;
      return -1;
    }
    if (Clock::now() >= end) {
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      pid_ = -1;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  return DecodeWaitStatus(status);
}

}  // namespace dpq::integration
