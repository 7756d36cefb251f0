// Request ids: the idempotency keys of every release (MeasureInconsistency,
// QualityReport, ReleaseCuboids, TrainDecisionTree, SelectInfluentialNodes;
// docs/privacy.md 3.2). `dpq` picks a random one when the user gives
// none and prints it, so that a retry can reuse it at no charge.
#ifndef DPQ_CLIENT_REQUEST_ID_H_
#define DPQ_CLIENT_REQUEST_ID_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/dp/secure_urbg.h"

namespace dpq::client {

// "dpq-" followed by 32 lowercase hex digits (128 random bits from `urbg`).
std::string GenerateRequestId(core::dp::SecureUrbg& urbg);

// As above, from OpenSSL's CSPRNG.
std::string GenerateRequestId();

// OK iff `id` is 1-128 printable ASCII characters (0x20-0x7e), as the API
// requires; otherwise kInvalidArgument naming --request-id.
absl::Status ValidateRequestId(absl::string_view id);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_REQUEST_ID_H_
