#include "server/request_log.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "server/grpc_status.h"
#include "server/metrics/server_metrics.h"

namespace dpq::server {

namespace {

std::atomic<int64_t> max_response_bytes{INT64_MAX};

}  // namespace

void SetMaxResponseBytes(int64_t bytes) { max_response_bytes = bytes; }

RequestLog::RequestLog(const char* rpc,
                       const google::protobuf::MessageLite* response)
    : rpc_(rpc), response_(response), start_(absl::Now()) {}

namespace {

// Ids come from requests and may be anything until validated: escape them
// so that no request can forge or break a log line.
std::string Field(const std::string& value) {
  return value.empty() ? "-" : absl::CEscape(value).substr(0, 128);
}

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    default:
      return "UNKNOWN";
  }
}

// The messages of server faults (IsServerFault) come from storage and
// system calls (a cell's error is INVALID_ARGUMENT, and no status ever
// carries a token): the operator needs them whole, escaped like the ids.
// The bound only keeps a runaway message from flooding the log.
constexpr size_t kMaxLoggedMessage = 8192;

}  // namespace

grpc::Status RequestLog::Finish(const absl::Status& handler_status) {
  // What gRPC would refuse to send after an OK: refused here, so that the
  // line says what the client gets.
  absl::Status absl_status = handler_status;
  if (absl_status.ok() && response_ != nullptr) {
    const size_t bytes = response_->ByteSizeLong();
    const int64_t limit = max_response_bytes.load();
    if (static_cast<int64_t>(bytes) > limit) {
      absl_status = absl::ResourceExhaustedError(absl::StrCat(
          "The answer is ", bytes,
          " bytes, more than the server's "
          "max_message_bytes (",
          limit,
          "): ask for less (a smaller "
          "page_size or history_limit), or ask the operator to raise "
          "max_message_bytes."));
    }
  }
  // One line, fixed fields, no data values: safe to ship to any log store.
  std::string message;
  std::string incident;
  if (IsServerFault(absl_status.code())) {
    incident = NewIncidentId();
    message = absl::StrCat(
        " incident=", incident, " message=\"",
        absl::CEscape(absl_status.message()).substr(0, kMaxLoggedMessage),
        "\"");
  }
  const grpc::Status status = ToGrpcStatus(absl_status, incident);
  std::string release;
  if (!request_id_.empty()) {
    release =
        absl::StrCat(" request_id=", Field(request_id_), " replayed=",
                     replayed_ < 0 ? "-" : (replayed_ == 1 ? "true" : "false"));
  }
  const std::string line = absl::StrFormat(
      "%s rpc=%s principal=%s dataset=%s epsilon=%g%s status=%s "
      "latency_ms=%.3f%s\n",
      absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(),
                       absl::UTCTimeZone()),
      rpc_, Field(principal_), Field(dataset_), epsilon_, release,
      CodeName(status.error_code()),
      absl::ToDoubleMilliseconds(absl::Now() - start_), message);
  std::fputs(line.c_str(), stderr);
  metrics::ServerMetrics::Default().RecordRpc(
      rpc_, static_cast<int>(status.error_code()), absl::Now() - start_);
  return status;
}

}  // namespace dpq::server
