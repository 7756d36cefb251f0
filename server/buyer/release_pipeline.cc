#include "server/buyer/release_pipeline.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {
namespace {

int64_t UnitsOrMax(double epsilon) {
  const absl::StatusOr<int64_t> units = core::ledger::ChargeUnits(epsilon);
  return units.ok() ? *units : core::ledger::kMaxUnits;
}

// The reservation's epsilon: a double the ledger charges at least `units`
// for (ChargeUnits rounds up). EpsilonOfUnits is that double while doubles
// are less than a unit apart (epsilon below 8192); above, it may fall a
// unit or more below `units` (found by fuzzing: QualityReport at epsilon
// 34288.5312719 was charged less than its measures spend), so step up to
// the next double that covers them (an overcharge of less than one double
// spacing: a few units). This is the spacing of doubles, not ChargeUnits'
// rounding: with ChargeUnits the exact ceiling (docs/privacy.md 5.1) the
// step is still needed, and it now stops at exactly the first double that
// covers `units`.
double CoveringEpsilon(int64_t units) {
  double epsilon = core::ledger::EpsilonOfUnits(units);
  while (UnitsOrMax(epsilon) < units) {
    epsilon = std::nextafter(epsilon, std::numeric_limits<double>::infinity());
  }
  return epsilon;
}

}  // namespace

absl::StatusOr<ReleaseStart> StartRelease(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const ReleaseBasics& basics) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  RETURN_IF_ERROR(registry::ValidateId(basics.dataset_id, "dataset_id"));
  RETURN_IF_ERROR(core::dp::ValidateRequestEpsilon(basics.epsilon, "epsilon"));
  ReleaseStart start;
  ASSIGN_OR_RETURN(start.request_id, ResolveRequestId(basics.request_id));
  ASSIGN_OR_RETURN(start.dataset, registry.Get(basics.dataset_id));
  RETURN_IF_ERROR(start.dataset->CheckAnswers(basics.rpc));
  start.budget.epsilon = core::ledger::QuantizedEpsilon(basics.epsilon);
  // After the dataset: where TrainDecisionTree has always checked its
  // accuracy_epsilon (which error a request with several gets is part of
  // the RPC's behaviour).
  if (basics.extra_epsilon != 0) {
    RETURN_IF_ERROR(core::dp::ValidateRequestEpsilon(
        basics.extra_epsilon, basics.extra_epsilon_field));
    start.budget.extra_epsilon =
        core::ledger::QuantizedEpsilon(basics.extra_epsilon);
  }
  return start;
}

namespace {

// How the charge follows from the request: "0.5 + accuracy_epsilon 0.1",
// "2 x 0.5: the dataset publishes an exact cuboid", or both.
std::string ChargeBasis(int64_t epsilon_units, const ReleaseBasics& basics,
                        const ReleaseBudget& budget, int64_t k) {
  std::string sum = core::ledger::UnitsDecimal(epsilon_units);
  if (budget.extra_epsilon > 0) {
    const absl::StatusOr<int64_t> extra =
        core::ledger::ChargeUnits(budget.extra_epsilon);
    if (extra.ok()) {
      sum = absl::StrCat(sum, " + ", basics.extra_epsilon_field, " ",
                         core::ledger::UnitsDecimal(*extra));
    }
  }
  if (k <= 1) return sum;
  if (budget.extra_epsilon > 0) sum = absl::StrCat("(", sum, ")");
  return absl::StrCat(k, " x ", sum, ": the dataset publishes an exact cuboid");
}

}  // namespace

core::ledger::ReserveRequest ReserveFor(const auth::Principal& caller,
                                        const ReleaseBasics& basics,
                                        const ReleaseStart& start,
                                        ReleaseIdentity identity) {
  const registry::LoadedDataset& d = *start.dataset;
  // What the mechanisms may spend, in units: each part rounded up, summed
  // as integers (a sum through a double is not exact above epsilon 8192,
  // where doubles are more than a unit apart). A part out of range saturates at
  // the ledger's limit (Reserve then refuses it: no budget is that large).
  int64_t spent = UnitsOrMax(start.budget.epsilon);
  if (start.budget.extra_epsilon > 0) {
    const int64_t extra = UnitsOrMax(start.budget.extra_epsilon);
    spent = spent > core::ledger::kMaxUnits - extra ? core::ledger::kMaxUnits
                                                    : spent + extra;
  }
  // Public exact cuboids: the ledger counts induced-neighbour epsilon.
  // ReleaseCuboids is private for induced neighbours at its epsilon; any
  // other release is epsilon-DP for add/remove-one-row neighbours, and two
  // induced neighbours are at most k_Q such steps apart, so it is k_Q
  // epsilon-DP for them (group privacy; docs/privacy.md).
  const int64_t k = std::string(basics.rpc) == registry::kReleaseCuboids
                        ? 1
                        : int64_t{d.charge_multiplier};
  // k * units is an exact integer; a product above the ledger's limit
  // saturates there.
  const int64_t charged =
      spent > core::ledger::kMaxUnits / k ? core::ledger::kMaxUnits : spent * k;
  std::vector<std::pair<std::string, std::string>> parameters = {
      {"dataset", basics.dataset_id}, {"version", absl::StrCat(d.version)}};
  for (auto& parameter : identity.parameters) {
    parameters.push_back(std::move(parameter));
  }
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = caller.id;
  reserve.dataset_id = d.manifest.dataset_id();
  reserve.request_id = start.request_id;
  reserve.fingerprint = FingerprintOf(basics.rpc, parameters);
  reserve.operation = k > 1 ? absl::StrCat(identity.operation, " (charged ", k,
                                           " x epsilon: induced neighbours)")
                            : std::move(identity.operation);
  reserve.neighbouring = d.neighbouring;
  reserve.epsilon = CoveringEpsilon(charged);
  // Refusals speak in the buyer's numbers (docs/errors.md).
  const absl::StatusOr<int64_t> requested =
      core::ledger::ChargeUnits(start.budget.epsilon);
  if (requested.ok() && *requested != charged) {
    reserve.requested_units = *requested;
    reserve.charge_basis = ChargeBasis(*requested, basics, start.budget, k);
  }
  return reserve;
}

absl::Status ValidateRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > kMaxRequestIdLength) {
    return core::util::InvalidFieldError(
        "request_id",
        absl::StrCat("request_id must have 1-", kMaxRequestIdLength,
                     " printable ASCII characters, but has ", request_id.size(),
                     "."));
  }
  for (size_t i = 0; i < request_id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(request_id[i]);
    if (c < 0x20 || c > 0x7e) {
      return core::util::InvalidFieldError(
          "request_id",
          absl::StrFormat("request_id must be printable ASCII, but "
                          "character %d is byte 0x%02x.",
                          i + 1, static_cast<int>(c)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id) {
  if (request_id.empty()) {
    // Never chosen here: an id the server picked would not reach a client
    // whose call was charged but timed out, and that charge could then not
    // be recovered by a retry (buyer_service.proto, request_id).
    return core::util::InvalidFieldError(
        "request_id",
        "request_id is required: choose a unique id per release, e.g. a "
        "UUID, and reuse it to retry; a retry with the same request_id "
        "returns the recorded answer without a further charge. Nothing was "
        "charged.");
  }
  RETURN_IF_ERROR(ValidateRequestId(request_id));
  return request_id;
}

void FillMeasureUnits(v1::MeasureResult* result) {
  if (result->epsilon_units() != 0 || !(result->epsilon() > 0)) return;
  const absl::StatusOr<int64_t> units =
      core::ledger::ChargeUnits(result->epsilon());
  if (units.ok()) result->set_epsilon_units(*units);
}

}  // namespace dpq::server::buyer
