#include "server/buyer/release_pipeline.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/status_macros.h"
#include "server/buyer/release_helpers.h"

namespace dpq::server::buyer {

absl::StatusOr<ReleaseStart> StartRelease(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const std::string& dataset_id, const std::string& request_id,
    double epsilon, const char* rpc, const char* epsilon_field) {
  RETURN_IF_ERROR(internal::RequireCaller(caller));
  RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  RETURN_IF_ERROR(core::dp::ValidateRequestEpsilon(epsilon, epsilon_field));
  ReleaseStart start;
  ASSIGN_OR_RETURN(start.request_id, internal::ResolveRequestId(request_id));
  ASSIGN_OR_RETURN(start.dataset, registry.Get(dataset_id));
  RETURN_IF_ERROR(start.dataset->CheckAnswers(rpc));
  start.epsilon = core::ledger::QuantizedEpsilon(epsilon);
  return start;
}

core::ledger::ReserveRequest ReserveFor(
    const auth::Principal& caller, const ReleaseStart& start, const char* rpc,
    const std::vector<std::pair<std::string, std::string>>& parameters,
    std::string operation, double spent) {
  const registry::LoadedDataset& d = *start.dataset;
  // Public exact cuboids: the ledger counts induced-neighbour epsilon.
  // ReleaseCuboids is private for induced neighbours at its epsilon; any
  // other release is epsilon-DP for add/remove-one-row neighbours, and two
  // induced neighbours are at most k_Q such steps apart, so it is k_Q
  // epsilon-DP for them (group privacy; docs/privacy.md).
  const int64_t k = std::string(rpc) == registry::kReleaseCuboids
                        ? 1
                        : int64_t{d.charge_multiplier};
  // `spent` is quantised, so ChargeUnits is exact, and k * units is an
  // exact integer; a product above the ledger's limit saturates there
  // (Reserve then refuses it: no budget is that large).
  absl::StatusOr<int64_t> units = core::ledger::ChargeUnits(spent);
  int64_t charged = units.ok() ? *units : core::ledger::kMaxUnits;
  charged = charged > core::ledger::kMaxUnits / k ? core::ledger::kMaxUnits
                                                   : charged * k;
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = caller.id;
  reserve.dataset_id = d.manifest.dataset_id();
  reserve.request_id = start.request_id;
  reserve.fingerprint = internal::FingerprintOf(rpc, parameters);
  reserve.operation = k > 1 ? absl::StrCat(operation, " (charged ", k,
                                           " x epsilon: induced neighbours)")
                            : std::move(operation);
  reserve.neighbouring = d.neighbouring;
  reserve.epsilon = core::ledger::EpsilonOfUnits(charged);
  return reserve;
}

}  // namespace dpq::server::buyer
