#include "tests/testing/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace dpq::testing {
namespace {

// Closes the socket on every path.
class Socket {
 public:
  Socket() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

absl::StatusOr<HttpResponse> Parse(const std::string& raw) {
  const size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) {
    return absl::DataLossError(
        absl::StrCat("no end of headers in '", raw, "'"));
  }
  HttpResponse response;
  response.body = raw.substr(end + 4);
  const std::vector<std::string> lines =
      absl::StrSplit(raw.substr(0, end), "\r\n");
  const std::vector<std::string> status_line =
      absl::StrSplit(lines[0], absl::MaxSplits(' ', 2));
  if (status_line.size() < 2 ||
      !absl::SimpleAtoi(status_line[1], &response.status)) {
    return absl::DataLossError(
        absl::StrCat("bad status line '", lines[0], "'"));
  }
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == std::string::npos) continue;
    response.headers[absl::AsciiStrToLower(lines[i].substr(0, colon))] =
        std::string(absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
  }
  return response;
}

}  // namespace

absl::StatusOr<HttpResponse> HttpRequest(const std::string& host, int port,
                                         const std::string& method,
                                         const std::string& path) {
  Socket socket;
  if (socket.fd() < 0) return absl::UnavailableError(std::strerror(errno));
  timeval timeout{10, 0};
  ::setsockopt(socket.fd(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(socket.fd(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("not an IPv4 address: ", host));
  }
  if (::connect(socket.fd(), reinterpret_cast<sockaddr*>(&address),
                sizeof(address)) != 0) {
    return absl::UnavailableError(
        absl::StrCat("connect ", host, ":", port, ": ", std::strerror(errno)));
  }
  const std::string request =
      absl::StrCat(method, " ", path, " HTTP/1.0\r\nHost: ", host, "\r\n\r\n");
  if (::send(socket.fd(), request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    return absl::UnavailableError(absl::StrCat("send: ", std::strerror(errno)));
  }
  std::string raw;
  char buffer[16384];
  while (true) {
    const ssize_t n = ::recv(socket.fd(), buffer, sizeof(buffer), 0);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(
          absl::StrCat("recv: ", std::strerror(errno)));
    }
    raw.append(buffer, static_cast<size_t>(n));
  }
  return Parse(raw);
}

}  // namespace dpq::testing
