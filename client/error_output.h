// What `dpq` prints about a failed call besides the error line
// (client/grpc_status.h ErrorLine): the server's rich error details
// (docs/errors.md), for people and for scripts.
#ifndef DPQ_CLIENT_ERROR_OUTPUT_H_
#define DPQ_CLIENT_ERROR_OUTPUT_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dpq::client {

// The one extra stderr line (without the newline) for an error whose
// reason says more than its code (docs/errors.md: BUDGET_EXHAUSTED,
// NO_BUDGET_GRANTED, HEAVY_JOBS_BUSY, ...): `dpq: <REASON>: key=value ...`
// with the
// ErrorInfo metadata (exact decimals; the *_units twins are left to
// --json), the bad fields, and `retry_after=<seconds>s` from RetryInfo,
// e.g. "dpq: BUDGET_EXHAUSTED: dataset_id=tax remaining_epsilon=0.3
// request_id=r1 requested_epsilon=0.5". Terminal-safe. nullopt when the
// status has no details, or only its code's name as reason (e.g.
// INVALID_ARGUMENT, whose message names the field).
std::optional<std::string> ErrorDetailLine(const absl::Status& status);

// The error as one JSON object on one line ending in '\n' (--json):
// {"error":{"code":"RESOURCE_EXHAUSTED","message":...,"reason":...,
// "metadata":{...},"field_violations":[{"field","description"}],
// "quota_violations":[{"subject","description"}],
// "precondition_violations":[{"type","subject","description"}],
// "resource":{...},"retry_delay_ms":N,"incident_id":...,"request_id":...}}
// with the parts the status has (code and message always; request_id when
// non-empty: the id a release was sent with).
std::string ErrorJsonLine(const absl::Status& status,
                          absl::string_view request_id);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_ERROR_OUTPUT_H_
