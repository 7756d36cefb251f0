#include "server/http/http_response.h"

#include <microhttpd.h>

namespace dpq::server::http {

Response JsonResponse(std::string body) {
  Response response;
  response.body = std::move(body);
  return response;
}

Response ErrorResponse(const HttpError& error) {
  Response response;
  response.status = error.http_status;
  response.body = error.json;
  if (error.http_status == 401) {
    response.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"dpq\"");
  }
  return response;
}

Response ErrorResponse(const absl::Status& status) {
  const int http =
      status.code() == absl::StatusCode::kResourceExhausted ? 413 : 0;
  return ErrorResponse(ErrorOf(status.code(), status.message(), http));
}

bool Send(MHD_Connection* connection, const Response& response, bool tls) {
  MHD_Response* out = MHD_create_response_from_buffer(
      response.body.size(), const_cast<char*>(response.body.data()),
      MHD_RESPMEM_MUST_COPY);
  if (out == nullptr) return false;
  if (response.status != 204) {
    MHD_add_response_header(out, MHD_HTTP_HEADER_CONTENT_TYPE,
                            response.content_type.c_str());
  }
  for (const auto& [name, value] : SecurityHeaders(response.content, tls)) {
    MHD_add_response_header(out, name.c_str(), value.c_str());
  }
  for (const auto& [name, value] : response.headers) {
    MHD_add_response_header(out, name.c_str(), value.c_str());
  }
  const MHD_Result queued = MHD_queue_response(
      connection, static_cast<unsigned int>(response.status), out);
  MHD_destroy_response(out);
  return queued == MHD_YES;
}

std::string RequestHeader(MHD_Connection* connection, const char* name) {
  const char* value =
      MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
  return value == nullptr ? "" : value;
}

}  // namespace dpq::server::http
