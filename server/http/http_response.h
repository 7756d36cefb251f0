// One whole HTTP response queued on a libmicrohttpd connection, with the
// web policy's headers (web_policy.h).
#ifndef DPQ_SERVER_HTTP_HTTP_RESPONSE_H_
#define DPQ_SERVER_HTTP_HTTP_RESPONSE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "server/http/http_error.h"
#include "server/http/web_policy.h"

struct MHD_Connection;

namespace dpq::server::http {

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<Header> headers;  // besides the policy's
  Content content = Content::kPrivate;
};

// A JSON response holding `body`.
Response JsonResponse(std::string body);
// A JSON error response (WWW-Authenticate on 401).
Response ErrorResponse(const HttpError& error);
// The listener's own error for `status`: 413 for kResourceExhausted (a
// body above the limit), the code's HTTP status otherwise.
Response ErrorResponse(const absl::Status& status);

// Queues `response` on `connection`; false if libmicrohttpd refused it
// (the connection is then closed).
bool Send(MHD_Connection* connection, const Response& response, bool tls);

// The request header `name`, or "" if absent.
std::string RequestHeader(MHD_Connection* connection, const char* name);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_HTTP_RESPONSE_H_
