#include "server/buyer/measure_inconsistency_impl.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/measures/measure.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/measure_release_steps.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {

namespace pm = core::private_measures;
using core::measures::Measure;

absl::StatusOr<PreparedRelease<pm::MeasureRelease>> PrepareMeasureInconsistency(
    const registry::DatasetRegistry& registry, const auth::Principal& caller,
    const v1::MeasureInconsistencyRequest& request) {
  ASSIGN_OR_RETURN(const Measure measure, MeasureFromProto(request.measure()));
  const ReleaseBasics basics =
      BasicsOf(registry::kMeasureInconsistency, request);
  ASSIGN_OR_RETURN(ReleaseStart start, StartRelease(registry, caller, basics));
  ASSIGN_OR_RETURN(
      pm::MeasureRelease release,
      CheckMeasureRelease(request.method(), request.repair_method(), {measure},
                          *start.dataset, start.budget));
  ReleaseIdentity identity =
      MeasureInconsistencyIdentity(release, request.epsilon());
  return Prepared(caller, basics, std::move(start), std::move(release),
                  std::move(identity));
}

ReleaseIdentity MeasureInconsistencyIdentity(const pm::MeasureRelease& release,
                                             double epsilon) {
  const Measure measure = release.measures.front();
  // Only the method that applies to the measure is part of the identity.
  const std::string method = release.MethodName(measure);
  const std::string measure_name(core::measures::MeasureName(measure));
  return {{{"measure", measure_name},
           {"epsilon", DoubleBits(epsilon)},
           {"method", method}},
          absl::StrCat("MeasureInconsistency ", measure_name, " ", method)};
}

absl::Status MeasureInconsistencyImpl(
    const BuyerCore& service, const auth::Principal& caller,
    const v1::MeasureInconsistencyRequest& request,
    v1::MeasureInconsistencyResponse* response, const CallContext& call) {
  ASSIGN_OR_RETURN(
      const PreparedRelease<pm::MeasureRelease> prepared,
      PrepareMeasureInconsistency(*service.registry, caller, request));
  return RunRelease<v1::MeasureInconsistencyResponse>(
      *service.ledger, prepared.reserve, call,
      [&](v1::MeasureInconsistencyResponse* answer) -> absl::Status {
        ASSIGN_OR_RETURN(std::vector<v1::MeasureResult> results,
                         ComputeMeasures(service, caller, prepared, call));
        *answer->mutable_result() = std::move(results.front());
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
