// Protobuf messages to and from HTTP/JSON by protobuf's JSON mapping
// (lowerCamelCase names out, either spelling in; 64-bit integers as
// strings; enums by name; Timestamps in RFC 3339), as grpc-gateway and
// Envoy's transcoder do: a request is its JSON body (body "*") with the
// path's variables set on top, or, for a route without a body, the path's
// variables and the query parameters.
#ifndef DPQ_SERVER_HTTP_JSON_TRANSCODER_H_
#define DPQ_SERVER_HTTP_JSON_TRANSCODER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "server/http/route_table.h"

namespace dpq::server::http {

// A decoded query parameter: "include_history" (or "includeHistory", or a
// dotted path into a sub-message) and its value.
using QueryParameter = std::pair<std::string, std::string>;

// A new, empty message of `type` (a generated message's descriptor).
std::unique_ptr<google::protobuf::Message> NewMessage(
    const google::protobuf::Descriptor* type);

// Parses `json` (one JSON object) into `message`: unknown fields and wrong
// types are kInvalidArgument naming the message type and protobuf's
// reason. An empty or all-blank `json` is the empty message.
absl::Status MessageFromJson(absl::string_view json,
                             google::protobuf::Message* message);

// Sets each field path to its value on `message` (path variables, query
// parameters): kInvalidArgument naming the parameter for a field the
// message does not have, a message-typed field or a value of the wrong
// type. Repeated fields take one value per occurrence; bools take true,
// false, 1 or 0.
absl::Status SetFields(const std::vector<QueryParameter>& fields,
                       google::protobuf::Message* message);

// The request of `match` from the HTTP request's query and body (see the
// file comment): kInvalidArgument for a body on a route without one, query
// parameters on a route with body "*", or a field error as above.
absl::StatusOr<std::unique_ptr<google::protobuf::Message>> RequestFromHttp(
    const RouteMatch& match, const std::vector<QueryParameter>& query,
    absl::string_view body);

// `message` in JSON, every field printed (zeros and empty strings
// included, so that a client need not know proto3's defaults); kInternal
// if protobuf cannot print it.
absl::StatusOr<std::string> JsonFromMessage(
    const google::protobuf::Message& message);

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_JSON_TRANSCODER_H_
