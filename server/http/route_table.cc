#include "server/http/route_table.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/util/status_macros.h"
#include "dpq/v1/admin_service.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "google/api/annotations.pb.h"
#include "google/api/http.pb.h"
#include "google/protobuf/descriptor.pb.h"

namespace dpq::server::http {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::MethodDescriptor;

// The HTTP method and template of one rule; kInvalidArgument if it has no
// pattern.
absl::Status PatternOf(const google::api::HttpRule& rule, std::string* method,
                       std::string* path) {
  switch (rule.pattern_case()) {
    case google::api::HttpRule::kGet:
      *method = "GET";
      *path = rule.get();
      break;
    case google::api::HttpRule::kPut:
      *method = "PUT";
      *path = rule.put();
      break;
    case google::api::HttpRule::kPost:
      *method = "POST";
      *path = rule.post();
      break;
    case google::api::HttpRule::kDelete:
      *method = "DELETE";
      *path = rule.delete_();
      break;
    case google::api::HttpRule::kPatch:
      *method = "PATCH";
      *path = rule.patch();
      break;
    case google::api::HttpRule::kCustom:
      *method = rule.custom().kind();
      *path = rule.custom().path();
      break;
    default:
      return absl::InvalidArgumentError("an http rule without a pattern");
  }
  return absl::OkStatus();
}

absl::StatusOr<Route> MakeRoute(const MethodDescriptor* method,
                                const google::api::HttpRule& rule) {
  Route route;
  route.method = method;
  route.grpc_method =
      absl::StrCat("/", method->service()->full_name(), "/", method->name());
  std::string path;
  RETURN_IF_ERROR(PatternOf(rule, &route.http_method, &path));
  ASSIGN_OR_RETURN(route.path, PathTemplate::Parse(path));
  route.body = rule.body();
  const auto refuse = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("The http annotation of ", method->full_name(), " (", path,
                     ") is not supported: ", why, "."));
  };
  if (route.body != "*" && !route.body.empty()) {
    return refuse("a body must be \"*\" or absent");
  }
  if (!route.body.empty() &&
      (route.http_method == "GET" || route.http_method == "DELETE")) {
    return refuse("GET and DELETE carry no body");
  }
  if (method->server_streaming()) return refuse("it streams its responses");
  if (method->client_streaming() && route.body != "*") {
    return refuse("a streamed request needs body \"*\"");
  }
  if (!rule.response_body().empty()) return refuse("response_body is not");
  for (const std::string& field : route.path.variables()) {
    if (method->input_type()->FindFieldByName(field) == nullptr) {
      return refuse(absl::StrCat("its request has no field '", field, "'"));
    }
  }
  return route;
}

}  // namespace

absl::StatusOr<RouteTable> RouteTable::FromServices(
    const std::vector<std::string>& services) {
  RouteTable table;
  for (const std::string& name : services) {
    const google::protobuf::ServiceDescriptor* service =
        DescriptorPool::generated_pool()->FindServiceByName(name);
    if (service == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("No service '", name, "' is linked in."));
    }
    for (int i = 0; i < service->method_count(); ++i) {
      const MethodDescriptor* method = service->method(i);
      if (!method->options().HasExtension(google::api::http)) continue;
      const google::api::HttpRule& rule =
          method->options().GetExtension(google::api::http);
      std::vector<const google::api::HttpRule*> rules = {&rule};
      for (const google::api::HttpRule& extra : rule.additional_bindings()) {
        rules.push_back(&extra);
      }
      for (const google::api::HttpRule* each : rules) {
        ASSIGN_OR_RETURN(Route route, MakeRoute(method, *each));
        for (const Route& other : table.routes_) {
          if (other.http_method == route.http_method &&
              other.path.text() == route.path.text()) {
            return absl::InvalidArgumentError(
                absl::StrCat("Two RPCs have the route ", route.http_method, " ",
                             route.path.text(), ": ", other.method->full_name(),
                             " and ", method->full_name(), "."));
          }
        }
        table.routes_.push_back(std::move(route));
      }
    }
  }
  return table;
}

absl::StatusOr<RouteTable> RouteTable::ForDpqV1() {
  // A message of each service's file, referenced so that its descriptor is
  // linked in: a static library's unreferenced objects are left out, and
  // their services with them.
  v1::ListDatasetsRequest::descriptor();
  v1::AdminListDatasetsRequest::descriptor();
  return FromServices({"dpq.v1.BuyerService", "dpq.v1.AdminService"});
}

absl::StatusOr<RouteMatch> RouteTable::Find(absl::string_view http_method,
                                            absl::string_view path) const {
  std::vector<std::string> allowed;
  for (const Route& route : routes_) {
    std::optional<std::vector<PathBinding>> bindings = route.path.Match(path);
    if (!bindings.has_value()) continue;
    if (route.http_method == http_method) {
      return RouteMatch{&route, *std::move(bindings)};
    }
    allowed.push_back(route.http_method);
  }
  if (allowed.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "No route for ", http_method, " ", path,
        ": the API's routes are listed in docs/http.md (dpq-server "
        "--print-http-routes)."));
  }
  return absl::UnimplementedError(absl::StrCat("The route ", path, " takes ",
                                               absl::StrJoin(allowed, ", "),
                                               ", not ", http_method, "."));
}

std::string RouteTable::Markdown() const {
  std::string out =
      "| Method | Path | RPC | Body | Role |\n"
      "|---|---|---|---|---|\n";
  for (const Route& route : routes_) {
    const bool admin =
        absl::EndsWith(route.method->service()->full_name(), "AdminService");
    std::string body = "none (query parameters)";
    if (route.body == "*") {
      body = route.method->client_streaming()
                 ? absl::StrCat("`", route.method->input_type()->name(),
                                "` messages, one JSON object per line")
                 : absl::StrCat("`", route.method->input_type()->name(), "`");
    }
    absl::StrAppend(&out, "| ", route.http_method, " | `", route.path.text(),
                    "` | `", route.method->service()->name(), ".",
                    route.method->name(), "` | ", body, " | ",
                    admin ? "admin" : "buyer (or admin)", " |\n");
  }
  return out;
}

}  // namespace dpq::server::http
