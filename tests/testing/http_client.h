// A minimal HTTP/1.0 client for tests of dpq-server's metrics listener: one
// request on a fresh loopback TCP connection, read until the server closes
// it. Enough for a listener that always closes after its one response.
#ifndef DPQ_TESTS_TESTING_HTTP_CLIENT_H_
#define DPQ_TESTS_TESTING_HTTP_CLIENT_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"

namespace dpq::testing {

struct HttpResponse {
  int status = 0;
  // Header names lower-cased.
  std::map<std::string, std::string> headers;
  std::string body;
};

// Sends `METHOD PATH HTTP/1.0` to host:port (a numeric IPv4 address) and
// reads the whole response, within 10 s. kUnavailable if it cannot
// connect; kDataLoss for a malformed response.
absl::StatusOr<HttpResponse> HttpRequest(const std::string& host, int port,
                                         const std::string& method,
                                         const std::string& path);

}  // namespace dpq::testing

#endif  // DPQ_TESTS_TESTING_HTTP_CLIENT_H_
