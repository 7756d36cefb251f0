// The start every charged buyer release shares (design.md 5.2, 5.6, 5.7),
// in one place: the checks that need no private data, then the ledger
// request with the dataset's privacy unit and charge. The five release
// handlers (MeasureInconsistency, QualityReport, ReleaseCuboids,
// TrainDecisionTree, SelectInfluentialNodes) call StartRelease, do their
// own public checks, build the request's fingerprint parameters and call
// ReserveFor, then internal::RunRelease (release_helpers.h).
#ifndef DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
#define DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/ledger/ledger.h"
#include "server/auth/principal.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

struct ReleaseStart {
  std::shared_ptr<const registry::LoadedDataset> dataset;
  // The client's request_id (validated) or a new "srv-..." one.
  std::string request_id;
  // The request's epsilon quantised to whole ledger units
  // (core::ledger::QuantizedEpsilon): what the mechanism may spend. The
  // charge covers it exactly.
  double epsilon = 0;
};

// Checks, in this order, the caller, `dataset_id`, `epsilon` (finite,
// public floor 1e-6, at most 1e6; named `epsilon_field` in errors) and
// `request_id`, then looks the dataset up and checks that it answers `rpc`
// (a registry::k* name). Each check depends on the request and on the
// manifest only, so each refusal is safe before any budget is reserved.
absl::StatusOr<ReleaseStart> StartRelease(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const std::string& dataset_id, const std::string& request_id,
    double epsilon, const char* rpc, const char* epsilon_field = "epsilon");

// The ledger request of `rpc` spending `spent` epsilon (quantised; a sum of
// quantised parts is exact). Charged: `spent`, or for a dataset with public
// exact cuboids k_Q * spent for every rpc but ReleaseCuboids (group
// privacy; LoadedDataset::charge_multiplier), exactly in ledger units. The
// entry records the dataset's privacy unit; `parameters` (everything but
// request_id, in a fixed order) are fingerprinted; `operation` describes it
// (" (charged k x epsilon)" is appended when k > 1).
core::ledger::ReserveRequest ReserveFor(
    const auth::Principal& caller, const ReleaseStart& start, const char* rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters,
    std::string operation, double spent);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_PIPELINE_H_
