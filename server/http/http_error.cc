#include "server/http/http_error.h"

#include <utility>

#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/rpc/status.pb.h"

namespace dpq::server::http {
namespace {

// The body of the file comment of http_error.h; a fixed INTERNAL body if
// protobuf cannot print it.
std::string ErrorBody(int http_status, grpc::StatusCode code,
                      const std::string& message,
                      const google::protobuf::ListValue* details) {
  google::protobuf::Struct error;
  auto& fields = *error.mutable_fields();
  fields["code"].set_number_value(http_status);
  fields["status"].set_string_value(CodeName(code));
  fields["message"].set_string_value(message);
  if (details != nullptr) {
    *fields["details"].mutable_list_value() = *details;
  } else {
    fields["details"].mutable_list_value();
  }
  google::protobuf::Struct body;
  *(*body.mutable_fields())["error"].mutable_struct_value() = std::move(error);
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(body, &json).ok()) {
    return R"({"error":{"code":500,"status":"INTERNAL","message":"The error could not be printed.","details":[]}})";
  }
  return json;
}

}  // namespace

int HttpStatusOf(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return 200;
    case grpc::StatusCode::CANCELLED:
      return 499;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::OUT_OF_RANGE:
      return 400;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return 504;
    case grpc::StatusCode::NOT_FOUND:
      return 404;
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::ABORTED:
      return 409;
    case grpc::StatusCode::PERMISSION_DENIED:
      return 403;
    case grpc::StatusCode::UNAUTHENTICATED:
      return 401;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return 429;
    case grpc::StatusCode::UNIMPLEMENTED:
      return 501;
    case grpc::StatusCode::UNAVAILABLE:
      return 503;
    default:  // UNKNOWN, INTERNAL, DATA_LOSS
      return 500;
  }
}

std::string CodeName(grpc::StatusCode code) {
  // gRPC's codes are absl's (and google.rpc's), names included.
  const std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? "UNKNOWN" : name;
}

HttpError ErrorOf(const grpc::Status& status) {
  const grpc::StatusCode code = status.error_code();
  const int http_status = HttpStatusOf(code);
  google::rpc::Status rich;
  google::protobuf::Struct parsed;
  std::string rich_json;
  const google::protobuf::ListValue* details = nullptr;
  // The details as protobuf prints them (each Any with its "@type"), then
  // read back as plain JSON to sit in the error object.
  if (!status.error_details().empty() &&
      rich.ParseFromString(status.error_details()) &&
      google::protobuf::util::MessageToJsonString(rich, &rich_json).ok() &&
      google::protobuf::util::JsonStringToMessage(rich_json, &parsed).ok() &&
      parsed.fields().contains("details")) {
    details = &parsed.fields().at("details").list_value();
  }
  return {http_status,
          ErrorBody(http_status, code, status.error_message(), details)};
}

HttpError ErrorOf(absl::StatusCode code, absl::string_view message,
                  int http_status) {
  const auto grpc_code = static_cast<grpc::StatusCode>(code);
  if (http_status == 0) http_status = HttpStatusOf(grpc_code);
  return {http_status,
          ErrorBody(http_status, grpc_code, std::string(message), nullptr)};
}

}  // namespace dpq::server::http
