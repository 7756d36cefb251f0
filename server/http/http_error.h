// Canonical errors over HTTP, as Google's JSON APIs and grpc-gateway send
// them: the HTTP status of the google.rpc code (google/rpc/code.proto's
// mapping) and the body
//   {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
//              "message": "...", "details": [{"@type": "type.googleapis.com/
//              google.rpc.ErrorInfo", "reason": ..., ...}, ...]}}
// whose details are the rich error details of the gRPC status
// (docs/errors.md), in protobuf's JSON mapping.
#ifndef DPQ_SERVER_HTTP_HTTP_ERROR_H_
#define DPQ_SERVER_HTTP_HTTP_ERROR_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace dpq::server::http {

// The HTTP status of a gRPC status code: OK 200, INVALID_ARGUMENT,
// FAILED_PRECONDITION and OUT_OF_RANGE 400, UNAUTHENTICATED 401,
// PERMISSION_DENIED 403, NOT_FOUND 404, ALREADY_EXISTS and ABORTED 409,
// RESOURCE_EXHAUSTED 429, CANCELLED 499, UNIMPLEMENTED 501, UNAVAILABLE
// 503, DEADLINE_EXCEEDED 504, UNKNOWN, INTERNAL and DATA_LOSS 500.
int HttpStatusOf(grpc::StatusCode code);

// "RESOURCE_EXHAUSTED" for 8, and so on.
std::string CodeName(grpc::StatusCode code);

struct HttpError {
  int http_status = 500;
  std::string json;  // the body above
};

// The error of a gRPC status: its code, message and, if
// `status.error_details()` holds a google.rpc.Status, its details.
HttpError ErrorOf(const grpc::Status& status);

// An error of the HTTP layer itself (no route, a bad body, ...): the same
// body, for `code` and `message`, with `http_status` if it is not 0 (413
// for a body above the limit, 405 for a method a route does not take).
HttpError ErrorOf(absl::StatusCode code, absl::string_view message,
                  int http_status = 0);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_HTTP_ERROR_H_
