// What every charged buyer release shares (docs/privacy.md 3 and 3.2;
// docs/architecture.md 3): request-id
// handling, the parameter fingerprint, and the one correct order
// check call -> reserve -> compute -> record -> reply around
// core::ledger::RunChargedRelease.
#ifndef DPQ_SERVER_BUYER_RELEASE_HELPERS_H_
#define DPQ_SERVER_BUYER_RELEASE_HELPERS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/ledger/charged_release.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/call_context.h"

namespace dpq::server::buyer {

// Longest client-chosen request_id (proto: 1-128 printable ASCII).
inline constexpr size_t kMaxRequestIdLength = 128;

namespace internal {

// OK for 1-128 printable ASCII characters (0x20-0x7e); kInvalidArgument
// with a BadRequest violation of field "request_id" otherwise.
absl::Status ValidateRequestId(const std::string& request_id);

// kUnauthenticated if the caller has no id.
absl::Status RequireCaller(const auth::Principal& caller);

// The request_id to record under: the client's, validated. Required:
// kInvalidArgument with a BadRequest violation of field "request_id"
// (core::util::InvalidFieldError) when empty or malformed; the server never
// picks one, since a client whose charged call timed out could not learn it.
absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id);

// A double as 16 hex digits of its bits: 0.1 and 0.1000000000000001 are
// different requests.
std::string DoubleBits(double value);

// Lowercase hex SHA-256 of the canonical text of a request's parameters
// (everything but request_id; core::util::Sha256Hex):
// "dpq.v1.BuyerService/<rpc>\n" then one
// "key=value\n" line per parameter, in the given order, each value
// C-escaped (so a value cannot forge a line; ids, enum names and hex
// numbers are unchanged by the escaping, which keeps the fingerprints of
// earlier releases).
std::string FingerprintOf(
    absl::string_view rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters);

// Sets each MeasureResult.epsilon_units that is unset (0) from its epsilon,
// rounded up to a whole unit (core::ledger::ChargeUnits); responses without
// measures are left unchanged.
void FillMeasureUnits(v1::MeasureResult* result);
inline void FillMeasureUnits(v1::MeasureInconsistencyResponse* response) {
  if (response->has_result()) FillMeasureUnits(response->mutable_result());
}
inline void FillMeasureUnits(v1::QualityReportResponse* response) {
  for (v1::MeasureResult& result : *response->mutable_results()) {
    FillMeasureUnits(&result);
  }
}
template <typename Response>
void FillMeasureUnits(Response* /*response*/) {}

// Parses a recorded answer. kDataLoss if it is not a `Response`.
template <typename Response>
absl::Status ParseRecorded(const std::string& answer, Response* response) {
  if (!response->ParseFromString(answer)) {
    return absl::DataLossError(
        "The recorded answer of this request_id cannot be read.");
  }
  return absl::OkStatus();
}

// Runs one charged release through core::ledger::RunChargedRelease:
// refuses a call that is already over before reserving (nothing charged),
// reserves `reserve`, runs `compute` (fills the answer, draws the noise;
// it may wait for the conflict graph and should poll call.Over()) unless
// the request is a committed retry, records the serialised answer with its
// request_id, and fills `response` with it plus epsilon_charged,
// remaining_budget and replayed.
//
// Once reserved the charge stands (docs/privacy.md 3, rule 3): a call that ends
// during `compute` gets DEADLINE_EXCEEDED / CANCELLED, its entry is charged
// without an answer, and a retry with the same request_id computes and returns
// the answer without a further charge. An answer computed after the caller left
// is still recorded, so the retry returns it.
template <typename Response>
absl::Status RunRelease(core::ledger::LedgerStore& ledger,
                        const core::ledger::ReserveRequest& reserve,
                        const CallContext& call,
                        absl::FunctionRef<absl::Status(Response*)> compute,
                        Response* response) {
  // A call already past its deadline (or cancelled) reserves nothing: its
  // own state, not the data's.
  if (absl::Status over = CheckCall(call); !over.ok()) {
    return absl::Status(over.code(),
                        absl::StrCat(over.message(), " Nothing was charged."));
  }
  auto run = [&]() -> absl::StatusOr<std::string> {
    Response answer;
    absl::Status computed = compute(&answer);
    if (!computed.ok()) {
      // A computation stopped because the caller left says so.
      if (computed.code() == absl::StatusCode::kCancelled && call.Over()) {
        computed = CheckCall(call);
      }
      return computed;
    }
    answer.set_request_id(reserve.request_id);
    return answer.SerializeAsString();
  };
  ASSIGN_OR_RETURN(core::ledger::ReleaseOutcome outcome,
                   core::ledger::RunChargedRelease(ledger, reserve, run));
  response->Clear();
  RETURN_IF_ERROR(ParseRecorded(outcome.answer, response));
  // An answer recorded before the exact fields existed lacks its measures'
  // epsilon_units: filled from their doubles.
  FillMeasureUnits(response);
  response->set_epsilon_charged(outcome.epsilon_charged);
  response->set_epsilon_charged_units(outcome.epsilon_charged_units);
  response->set_remaining_budget(outcome.remaining);
  response->set_remaining_budget_units(outcome.remaining_units);
  response->set_replayed(outcome.replayed);
  return absl::OkStatus();
}

}  // namespace internal
}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_HELPERS_H_
