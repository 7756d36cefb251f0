// The one converter from absl::Status to grpc::Status (docs/architecture.md
// 2: one conversion at each edge), with the standard gRPC rich error model
// (docs/errors.md): a google.rpc.Status in the `grpc-status-details-bin`
// trailer.
#ifndef DPQ_SERVER_GRPC_STATUS_H_
#define DPQ_SERVER_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/support/status.h"

namespace dpq::server {

// Bounds of what one error sends: the message (so that a huge error, e.g.
// quoting a CSV line, never bloats the trailer) and the serialised
// google.rpc.Status (beyond it only the ErrorInfo reason and the
// RequestInfo are kept).
inline constexpr size_t kMaxMessageBytes = 1024;
inline constexpr size_t kMaxDetailsBytes = 8192;
// RetryInfo of an UNAVAILABLE error that names no delay of its own.
inline constexpr int64_t kDefaultRetryDelayMs = 1000;

// INTERNAL, UNKNOWN and DATA_LOSS: the server's fault, whose text (a
// database's message, a file path) only the operator can act on. The
// caller gets a generic message with an incident id; the server log has
// the text under that id (server/request_log.h).
bool IsServerFault(absl::StatusCode code);

// "inc-" + 16 lowercase hex digits, random.
std::string NewIncidentId();

// The generic message a caller reads for a server fault.
std::string IncidentMessage(absl::string_view incident_id);

// The google.rpc.Status of `status` (not OK): its code, `message`, and the
// details attached with core/util/error_details.h, always with an
// ErrorInfo (domain "dpq.v1"; reason the attached one, else the code's
// name, e.g. "UNAVAILABLE"), and a RetryInfo for every UNAVAILABLE.
// `incident_id` (non-empty for a server fault) goes into a RequestInfo.
google::rpc::Status RichStatus(const absl::Status& status,
                               absl::string_view message,
                               absl::string_view incident_id);

// Same code; the message truncated to kMaxMessageBytes, or for a server
// fault IncidentMessage(incident_id) (a new id if empty); RichStatus
// serialised as the error details (gRPC sends them in the
// `grpc-status-details-bin` trailer).
grpc::Status ToGrpcStatus(const absl::Status& status,
                          absl::string_view incident_id = "");

}  // namespace dpq::server

#endif  // DPQ_SERVER_GRPC_STATUS_H_
