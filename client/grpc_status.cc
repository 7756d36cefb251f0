#include "client/grpc_status.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "client/terminal_text.h"
#include "google/rpc/error_details.pb.h"

namespace dpq::client {
namespace {

absl::StatusCode CodeOf(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return absl::StatusCode::kOk;
    case grpc::StatusCode::CANCELLED:
      return absl::StatusCode::kCancelled;
    case grpc::StatusCode::UNKNOWN:
      return absl::StatusCode::kUnknown;
    case grpc::StatusCode::INVALID_ARGUMENT:
      return absl::StatusCode::kInvalidArgument;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return absl::StatusCode::kDeadlineExceeded;
    case grpc::StatusCode::NOT_FOUND:
      return absl::StatusCode::kNotFound;
    case grpc::StatusCode::ALREADY_EXISTS:
      return absl::StatusCode::kAlreadyExists;
    case grpc::StatusCode::PERMISSION_DENIED:
      return absl::StatusCode::kPermissionDenied;
    case grpc::StatusCode::UNAUTHENTICATED:
      return absl::StatusCode::kUnauthenticated;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return absl::StatusCode::kResourceExhausted;
    case grpc::StatusCode::FAILED_PRECONDITION:
      return absl::StatusCode::kFailedPrecondition;
    case grpc::StatusCode::ABORTED:
      return absl::StatusCode::kAborted;
    case grpc::StatusCode::OUT_OF_RANGE:
      return absl::StatusCode::kOutOfRange;
    case grpc::StatusCode::UNIMPLEMENTED:
      return absl::StatusCode::kUnimplemented;
    case grpc::StatusCode::INTERNAL:
      return absl::StatusCode::kInternal;
    case grpc::StatusCode::UNAVAILABLE:
      return absl::StatusCode::kUnavailable;
    case grpc::StatusCode::DATA_LOSS:
      return absl::StatusCode::kDataLoss;
    default:
      return absl::StatusCode::kUnknown;
  }
}

// What gRPC's blocking unary call reports when the server's status is OK
// but its reply does not parse (grpcpp/impl/client_unary_call.h).
constexpr char kUnparsedUnaryReply[] = "No message returned for unary request";

}  // namespace

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.error_code() == grpc::StatusCode::UNIMPLEMENTED &&
      status.error_message() == kUnparsedUnaryReply) {
    // Not an unknown method: the call succeeded but its answer cannot be
    // read, e.g. because a text field is not valid UTF-8.
    return absl::InternalError(
        "The server reports success, but its answer could not be parsed (for "
        "example, a text field that is not valid UTF-8), so dpq cannot show "
        "it.");
  }
  absl::Status converted(CodeOf(status.error_code()), status.error_message());
  google::rpc::Status rich;
  // Details that do not parse (or none: an older server, a proxy) leave
  // the status as it is.
  if (!status.error_details().empty() &&
      rich.ParseFromString(status.error_details())) {
    converted = core::util::WithErrorDetails(std::move(converted),
                                             DetailsFromRichStatus(rich));
  }
  return converted;
}

core::util::ErrorDetails DetailsFromRichStatus(
    const google::rpc::Status& rich) {
  core::util::ErrorDetails d;
  for (const google::protobuf::Any& any : rich.details()) {
    google::rpc::ErrorInfo info;
    google::rpc::QuotaFailure quota;
    google::rpc::BadRequest bad;
    google::rpc::PreconditionFailure precondition;
    google::rpc::ResourceInfo resource;
    google::rpc::RetryInfo retry;
    google::rpc::RequestInfo request;
    if (any.UnpackTo(&info)) {
      d.reason = info.reason();
      d.metadata.insert(info.metadata().begin(), info.metadata().end());
    } else if (any.UnpackTo(&quota)) {
      for (const auto& v : quota.violations()) {
        d.quota_violations.push_back({v.subject(), v.description()});
      }
    } else if (any.UnpackTo(&bad)) {
      for (const auto& v : bad.field_violations()) {
        d.field_violations.push_back({v.field(), v.description()});
      }
    } else if (any.UnpackTo(&precondition)) {
      for (const auto& v : precondition.violations()) {
        d.precondition_violations.push_back(
            {v.type(), v.subject(), v.description()});
      }
    } else if (any.UnpackTo(&resource)) {
      d.resource = {resource.resource_type(), resource.resource_name(),
                    resource.description()};
    } else if (any.UnpackTo(&retry)) {
      d.retry_delay_ms =
          std::max<int64_t>(0, retry.retry_delay().seconds() * 1000 +
                                   retry.retry_delay().nanos() / 1'000'000);
    } else if (any.UnpackTo(&request)) {
      d.incident_id = request.request_id();
    }
  }
  return d;
}

std::string StatusCodeName(absl::StatusCode code) {
  // absl spells the canonical names exactly as gRPC does.
  return absl::StatusCodeToString(code);
}

std::string ErrorLine(const absl::Status& status) {
  std::string message(status.message());
  if (message.empty()) message = "(no message)";
  // One line, whatever the server sent, with no byte a terminal could act
  // on (the message may quote owner text: see TerminalSafe).
  message = TerminalSafe(
      absl::StrReplaceAll(message, {{"\r\n", " "}, {"\n", " "}, {"\r", " "}}));
  return absl::StrCat("dpq: ", StatusCodeName(status.code()), ": ", message);
}

}  // namespace dpq::client
