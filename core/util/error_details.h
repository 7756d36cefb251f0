// Machine-readable details of an error, carried inside an absl::Status from
// core (which knows no protobuf) to the server edge, where
// server/grpc_status.h turns them into the standard gRPC rich error model
// (google.rpc.Status in the `grpc-status-details-bin` trailer, with
// google.rpc.ErrorInfo, QuotaFailure and BadRequest details; proto/google/rpc).
//
// Core code attaches details where it makes a refusal a client should act on
// (a spent budget, a bad field); the message stays the human-readable text.
#ifndef DPQ_CORE_UTIL_ERROR_DETAILS_H_
#define DPQ_CORE_UTIL_ERROR_DETAILS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::core::util {

// The ErrorInfo domain of every dpq error.
inline constexpr char kErrorDomain[] = "dpq.v1";

// The ErrorInfo reasons dpq attaches itself (docs/errors.md lists them all
// with their codes; an error without one of these carries its code's name,
// e.g. "UNAVAILABLE").
inline constexpr char kReasonBudgetExhausted[] = "BUDGET_EXHAUSTED";
inline constexpr char kReasonDatasetCapReached[] = "DATASET_CAP_REACHED";
inline constexpr char kReasonNoBudgetGranted[] = "NO_BUDGET_GRANTED";
inline constexpr char kReasonRequestIdReused[] = "REQUEST_ID_REUSED";
inline constexpr char kReasonRequestInProgress[] = "REQUEST_IN_PROGRESS";
inline constexpr char kReasonInvalidArgument[] = "INVALID_ARGUMENT";
inline constexpr char kReasonDatasetNotFound[] = "DATASET_NOT_FOUND";
inline constexpr char kReasonHeavyJobsBusy[] = "HEAVY_JOBS_BUSY";
inline constexpr char kReasonUnavailable[] = "UNAVAILABLE";

// One quota that refused the call (google.rpc.QuotaFailure.Violation).
struct QuotaViolation {
  // e.g. "buyer:alice/dataset:tax".
  std::string subject;
  std::string description;
  friend bool operator==(const QuotaViolation&,
                         const QuotaViolation&) = default;
};

// One bad request field (google.rpc.BadRequest.FieldViolation).
struct FieldViolation {
  // The proto field path, e.g. "epsilon" or "cuboids[1].dimensions".
  std::string field;
  std::string description;
  friend bool operator==(const FieldViolation&,
                         const FieldViolation&) = default;
};

// One unmet precondition (google.rpc.PreconditionFailure.Violation).
struct PreconditionViolation {
  // e.g. "BUDGET_GRANT".
  std::string type;
  // e.g. "buyer:alice/dataset:tax".
  std::string subject;
  std::string description;
  friend bool operator==(const PreconditionViolation&,
                         const PreconditionViolation&) = default;
};

// The resource a call named (google.rpc.ResourceInfo), e.g. a dataset that
// does not exist.
struct ResourceInfo {
  // e.g. "dpq.v1.Dataset".
  std::string resource_type;
  std::string resource_name;
  std::string description;
  friend bool operator==(const ResourceInfo&, const ResourceInfo&) = default;
};

// Everything a client may read without parsing the message.
struct ErrorDetails {
  // google.rpc.ErrorInfo.reason: UPPER_SNAKE_CASE, stable, documented in
  // docs/errors.md (e.g. "BUDGET_EXHAUSTED", "NO_BUDGET_GRANTED"); empty:
  // no ErrorInfo.
  std::string reason;
  // google.rpc.ErrorInfo.metadata: e.g. {"dataset_id": "tax",
  // "requested_epsilon": "0.5", "remaining_epsilon": "0.25"}. Amounts are
  // exact decimals (core/ledger/epsilon_units.h), never float noise.
  std::map<std::string, std::string> metadata;
  std::vector<QuotaViolation> quota_violations;
  std::vector<FieldViolation> field_violations;
  std::vector<PreconditionViolation> precondition_violations;
  // google.rpc.ResourceInfo; empty resource_type: none.
  ResourceInfo resource;
  // google.rpc.RetryInfo.retry_delay in milliseconds: how long to wait
  // before retrying (the same request, with the same request_id); 0: no
  // RetryInfo.
  int64_t retry_delay_ms = 0;
  // google.rpc.RequestInfo.request_id: the server's incident id of an
  // INTERNAL, UNKNOWN or DATA_LOSS error, which names the server log line
  // with the cause; empty: no RequestInfo.
  std::string incident_id;
  friend bool operator==(const ErrorDetails&, const ErrorDetails&) = default;
};

// `status` with `details` attached (replacing any attached before). OK
// stays OK.
absl::Status WithErrorDetails(absl::Status status, const ErrorDetails& details);

// The details attached to `status`, if any (and decodable).
std::optional<ErrorDetails> GetErrorDetails(const absl::Status& status);

// kInvalidArgument with `message`, a BadRequest violation of `field` and the
// ErrorInfo reason "INVALID_ARGUMENT" ({"field": field}).
absl::Status InvalidFieldError(absl::string_view field,
                               absl::string_view message);

}  // namespace dpq::core::util

#endif  // DPQ_CORE_UTIL_ERROR_DETAILS_H_
