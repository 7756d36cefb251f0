// The one prepare step of every charged buyer release (MeasureInconsistency,
// QualityReport, ReleaseCuboids, TrainDecisionTree, SelectInfluentialNodes):
// (caller, release kind, request) -> {dataset, checked core request,
// ledger reserve request}. Every check needs public inputs only (the
// request, the manifest, the declared domains and node count), so every
// refusal here is safe before any budget is reserved (docs/privacy.md,
// "When a charge stands"). The handler then runs internal::RunRelease
// (release_helpers.h) with the reserve request.
//
// In this order, each exactly once:
//  1. the caller, `dataset_id`, `epsilon` (core::dp::ValidateRequestEpsilon:
//     finite, public floor 1e-6, at most 1e6) and `request_id`;
//  2. the dataset (kNotFound) and that it answers the release kind
//     (kFailedPrecondition for a table-only release on a graph or back);
//  3. the second epsilon of a release that has one (TrainDecisionTree's
//     accuracy_epsilon);
//  4. the kind's own request, in core against the dataset's public
//     metadata (core::cube::BuildCuboidRequest,
//     core::selection::BuildDecisionTreeRequest, ...), called by `validate`;
//  5. the ledger request: the fingerprint of ("dataset", id), ("version",
//     n) and the kind's parameters (`describe`), the charge, the dataset's
//     privacy unit.
#ifndef DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
#define DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "server/auth/principal.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

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

// The request's epsilons, validated and quantised to whole ledger units
// (core::ledger::QuantizedEpsilon): what the mechanisms may spend. The
// charge covers their sum exactly.
struct ReleaseBudget {
  double epsilon = 0;
  double extra_epsilon = 0;  // 0 when the request has none
};

// What the ledger records of a release besides who, where and how much.
struct ReleaseIdentity {
  // Fingerprinted (internal::FingerprintOf) after ("dataset", id) and
  // ("version", n), in this order. Everything of the request but its
  // request_id; frozen per kind, so that a retry of an old request still
  // replays its answer.
  std::vector<std::pair<std::string, std::string>> parameters;
  // The entry's description (" (charged k x epsilon: induced neighbours)"
  // is appended when the dataset's charge multiplier k > 1).
  std::string operation;
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

// A release ready to be charged.
template <typename Spec>
struct PreparedRelease {
  std::shared_ptr<const registry::LoadedDataset> dataset;
  Spec spec;  // the checked core request
  ReleaseBudget budget;
  core::ledger::ReserveRequest reserve;
};

namespace internal {

struct ReleaseStart {
  std::shared_ptr<const registry::LoadedDataset> dataset;
  std::string request_id;  // the client's, validated
  ReleaseBudget budget;
};

// Steps 1 to 3 of PrepareRelease.
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

}  // namespace internal

// Prepares one release of kind basics.rpc (steps above). `validate` checks
// the kind's request in core against the dataset's public metadata, with
// the budget, and returns the core request (kInvalidArgument,
// kFailedPrecondition or kResourceExhausted with the reason); `describe`
// gives its ledger identity. Nothing is reserved: the caller passes
// `reserve` to internal::RunRelease.
template <typename Spec>
absl::StatusOr<PreparedRelease<Spec>> PrepareRelease(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const ReleaseBasics& basics,
    absl::FunctionRef<absl::StatusOr<Spec>(const registry::LoadedDataset&,
                                           const ReleaseBudget&)>
        validate,
    absl::FunctionRef<ReleaseIdentity(const Spec&)> describe) {
  ASSIGN_OR_RETURN(internal::ReleaseStart start,
                   internal::StartRelease(registry, caller, basics));
  ASSIGN_OR_RETURN(Spec spec, validate(*start.dataset, start.budget));
  core::ledger::ReserveRequest reserve =
      internal::ReserveFor(caller, basics, start, describe(spec));
  return PreparedRelease<Spec>{std::move(start.dataset), std::move(spec),
                               start.budget, std::move(reserve)};
}

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
