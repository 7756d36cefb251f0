// The HTTP routes of dpq.v1, derived from the google.api.http annotations
// of the services' methods (proto/dpq/v1/*_service.proto) in the generated
// descriptor pool: one route per annotated method (and per additional
// binding), none written by hand. docs/http.md's route table is printed
// from it (dpq-server --print-http-routes) and a test keeps the two equal.
#ifndef DPQ_SERVER_HTTP_ROUTE_TABLE_H_
#define DPQ_SERVER_HTTP_ROUTE_TABLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "server/http/path_template.h"

namespace dpq::server::http {

struct Route {
  std::string http_method;  // "GET", "POST", "DELETE", ...
  PathTemplate path;
  // The request field the body fills: "*" (the whole request) or "" (no
  // body; the fields not bound by the path come from the query string).
  std::string body;
  const google::protobuf::MethodDescriptor* method = nullptr;
  // "/dpq.v1.BuyerService/MeasureInconsistency", the gRPC method path.
  std::string grpc_method;
};

// A route and the path's bindings.
struct RouteMatch {
  const Route* route = nullptr;
  std::vector<PathBinding> bindings;
};

class RouteTable {
 public:
  // The routes of every method of `services` (full names, e.g.
  // "dpq.v1.BuyerService") that has an http annotation. kInvalidArgument
  // for an unknown service, an unsupported template or body (only "*" or
  // ""), a body on GET or DELETE, a client-streaming method without body
  // "*", a server-streaming method, or two routes with the same method and
  // template.
  static absl::StatusOr<RouteTable> FromServices(
      const std::vector<std::string>& services);
  // dpq.v1.BuyerService and dpq.v1.AdminService.
  static absl::StatusOr<RouteTable> ForDpqV1();

  // The route for `http_method` and `path`; kNotFound if no template
  // matches the path, kUnimplemented (naming the methods it takes) if one
  // matches with another method.
  absl::StatusOr<RouteMatch> Find(absl::string_view http_method,
                                  absl::string_view path) const;

  const std::vector<Route>& routes() const { return routes_; }

  // docs/http.md's table: one Markdown row per route (method, path, RPC,
  // body, the role it needs).
  std::string Markdown() const;

 private:
  std::vector<Route> routes_;
};

}  // namespace dpq::server::http

#endif  // DPQ_SERVER_HTTP_ROUTE_TABLE_H_
