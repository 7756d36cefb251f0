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

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::core::util {

// The ErrorInfo domain of every dpq error.
inline constexpr char kErrorDomain[] = "dpq.v1";

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
