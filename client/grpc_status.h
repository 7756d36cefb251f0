// The one converter from grpc::Status to absl::Status on the client side
// (docs/architecture.md 2: one status conversion at each edge; the
// server's counterpart is server/grpc_status.h).
#ifndef DPQ_CLIENT_GRPC_STATUS_H_
#define DPQ_CLIENT_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "core/util/error_details.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/support/status.h"

namespace dpq::client {

// Same code (an explicit switch; codes gRPC may add later map to kUnknown),
// same message, and the server's rich error details (the google.rpc.Status
// of the `grpc-status-details-bin` trailer, docs/errors.md) attached as
// core::util::ErrorDetails (read them with core::util::GetErrorDetails).
// OK maps to OkStatus(). One exception: the UNIMPLEMENTED "No
// message returned for unary request" that gRPC's blocking unary call makes
// up when an OK reply does not parse becomes kInternal with a message that
// says so.
absl::Status FromGrpcStatus(const grpc::Status& status);

// The canonical upper-case name of a code, e.g. "RESOURCE_EXHAUSTED", as
// printed in `dpq: <CODE>: <message>`.
std::string StatusCodeName(absl::StatusCode code);

// The details of `rich` (a google.rpc.Status), as core reads them: the
// ErrorInfo reason and metadata, QuotaFailure, BadRequest,
// PreconditionFailure, ResourceInfo, RetryInfo and RequestInfo (the
// incident id); other details are skipped.
core::util::ErrorDetails DetailsFromRichStatus(const google::rpc::Status& rich);

// The one line `dpq` prints on stderr for a failed command (without the
// newline): `dpq: <CODE>: <message>`, line breaks in the message replaced
// by spaces and other control bytes escaped (see TerminalSafe).
std::string ErrorLine(const absl::Status& status);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_GRPC_STATUS_H_
