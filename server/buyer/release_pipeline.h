// The one pipeline of every charged buyer release (MeasureInconsistency,
// QualityReport, ReleaseCuboids, TrainDecisionTree, SelectInfluentialNodes;
// docs/privacy.md 3 and 3.2, docs/architecture.md 3). Each RPC's
// `*_impl.cc` reads as the same straight line:
//
//   prepare:  StartRelease -> the kind's own check in core -> ReserveFor
//   run:      RunRelease(ledger, reserve, call, compute)
//
// Prepare needs public inputs only (the request, the manifest, the declared
// domains and node count), so every refusal there is safe before any
// budget is reserved (docs/privacy.md, "When a charge stands"). Its checks,
// in this order, each exactly once:
//  1. the caller, `dataset_id`, `epsilon` (core::dp::ValidateRequestEpsilon:
//     finite, public floor 1e-6, at most 1e6) and `request_id`
//     (StartRelease);
//  2. the dataset (kNotFound) and that it answers the release kind
//     (kFailedPrecondition for a table-only release on a graph or back);
//  3. the second epsilon of a release that has one (TrainDecisionTree's
//     accuracy_epsilon);
//  4. the kind's own request, in core against the dataset's public
//     metadata (core::cube::BuildCuboidRequest,
//     core::selection::BuildDecisionTreeRequest, ...), in the RPC's file;
//  5. the ledger request: the fingerprint of ("dataset", id), ("version",
//     n) and the kind's parameters (its ReleaseIdentity), the charge, the
//     dataset's privacy unit (ReserveFor).
// Run is check call -> reserve -> compute -> record -> reply around
// core::ledger::RunChargedRelease.
#ifndef DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
#define DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/ledger/charged_release.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// Longest client-chosen request_id (proto: 1-128 printable ASCII).
inline constexpr size_t kMaxRequestIdLength = 128;

// ---- Prepare ---------------------------------------------------------------

// The fields every release request has.
struct ReleaseBasics {
  // The release kind (registry::k*): what the dataset must answer, and the
  // rpc of the fingerprint.
  const char* rpc = nullptr;
  std::string dataset_id;
  // The client's; required (empty: kInvalidArgument, field "request_id").
  std::string request_id;
  double epsilon = 0;
  // A second budget charged on top of epsilon (0: none), named
  // `extra_epsilon_field` in errors: TrainDecisionTree's accuracy_epsilon.
  double extra_epsilon = 0;
  const char* extra_epsilon_field = nullptr;
};

// The basics of a request of kind `rpc` (every release request has
// dataset_id, request_id and epsilon).
template <typename Request>
ReleaseBasics BasicsOf(const char* rpc, const Request& request) {
  ReleaseBasics basics;
  basics.rpc = rpc;
  basics.dataset_id = request.dataset_id();
  basics.request_id = request.request_id();
  basics.epsilon = request.epsilon();
  return basics;
}

// The request's epsilons, validated and quantised to whole ledger units
// (core::ledger::QuantizedEpsilon): what the mechanisms may spend. The
// charge covers their sum exactly.
struct ReleaseBudget {
  double epsilon = 0;
  double extra_epsilon = 0;  // 0 when the request has none
};

// What the ledger records of a release besides who, where and how much.
struct ReleaseIdentity {
  // Fingerprinted (FingerprintOf, release_fingerprint.h) after ("dataset",
  // id) and ("version", n), in this order. Everything of the request but
  // its request_id; frozen per kind, so that a retry of an old request still
  // replays its answer.
  std::vector<std::pair<std::string, std::string>> parameters;
  // The entry's description (" (charged k x epsilon: induced neighbours)"
  // is appended when the dataset's charge multiplier k > 1).
  std::string operation;
};

// Steps 1 to 3: the dataset a release reads, with its validated id and
// budget.
struct ReleaseStart {
  std::shared_ptr<const registry::LoadedDataset> dataset;
  std::string request_id;  // the client's, validated
  ReleaseBudget budget;
};

// Steps 1 to 3 (above), in that order.
absl::StatusOr<ReleaseStart> StartRelease(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const ReleaseBasics& basics);

// Step 5: the ledger request. Charged: the budget's sum, or for a dataset
// with public exact cuboids k_Q times it for every kind but ReleaseCuboids
// (group privacy; LoadedDataset::charge_multiplier), exactly in ledger
// units.
core::ledger::ReserveRequest ReserveFor(const auth::Principal& caller,
                                        const ReleaseBasics& basics,
                                        const ReleaseStart& start,
                                        ReleaseIdentity identity);

// A release ready to be charged: what Prepare<Rpc> returns and RunRelease
// reserves. Nothing is reserved yet.
template <typename Spec>
struct PreparedRelease {
  std::shared_ptr<const registry::LoadedDataset> dataset;
  Spec spec;  // the checked core request
  ReleaseBudget budget;
  core::ledger::ReserveRequest reserve;
};

// Step 5 and the result: `spec` is the kind's request checked in step 4,
// `identity` its ledger identity.
template <typename Spec>
PreparedRelease<Spec> Prepared(const auth::Principal& caller,
                               const ReleaseBasics& basics, ReleaseStart start,
                               Spec spec, ReleaseIdentity identity) {
  core::ledger::ReserveRequest reserve =
      ReserveFor(caller, basics, start, std::move(identity));
  return PreparedRelease<Spec>{std::move(start.dataset), std::move(spec),
                               start.budget, std::move(reserve)};
}

// OK for 1-128 printable ASCII characters (0x20-0x7e); kInvalidArgument
// with a BadRequest violation of field "request_id" otherwise.
absl::Status ValidateRequestId(const std::string& request_id);

// The request_id to record under: the client's, validated. Required:
// kInvalidArgument with a BadRequest violation of field "request_id"
// (core::util::InvalidFieldError) when empty or malformed; the server never
// picks one, since a client whose charged call timed out could not learn it.
absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id);

// ---- Run -------------------------------------------------------------------

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
// Once reserved the charge stands (docs/privacy.md 3, rule 3): a call that
// ends during `compute` gets DEADLINE_EXCEEDED / CANCELLED, its entry is
// charged without an answer, and a retry with the same request_id computes
// and returns the answer without a further charge. An answer computed after
// the caller left is still recorded, so the retry returns it.
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

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
