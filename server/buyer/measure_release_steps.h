// The steps MeasureInconsistency and QualityReport share
// (measure_inconsistency_impl.h, quality_report_impl.h): the measure release
// checked against the dataset before the charge, and its measures computed
// on the dataset's conflict graph after it.
#ifndef DPQ_SERVER_BUYER_MEASURE_RELEASE_STEPS_H_
#define DPQ_SERVER_BUYER_MEASURE_RELEASE_STEPS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "core/measures/measure.h"
#include "core/private/measure_release.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// Step 4 of the pipeline: the measure release of a request, checked against
// the dataset's public metadata (its registered exact repair, public row
// bound and DC shape). Refusals that read public inputs only (a noise scale
// out of range at theta = N) come here, before the reservation.
absl::StatusOr<core::private_measures::MeasureRelease> CheckMeasureRelease(
    v1::SelectionMethod method, v1::RepairMethod repair_method,
    std::vector<core::measures::Measure> measures,
    const registry::LoadedDataset& d, const ReleaseBudget& budget,
    bool row_count = false);

// After the charge: the measures of `prepared`, in order, each at its part
// of epsilon, made consistent with each other (core's
// MakeResultsConsistent). Waits for the dataset's conflict graph; on a heavy
// dataset the computation first waits for a slot of
// service.heavy_releases. Stops (kCancelled) once `call` is over, so that a
// client who left does not keep a worker on a large graph's flows.
absl::StatusOr<std::vector<v1::MeasureResult>> ComputeMeasures(
    const BuyerCore& service, const auth::Principal& caller,
    const PreparedRelease<core::private_measures::MeasureRelease>& prepared,
    const CallContext& call);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_MEASURE_RELEASE_STEPS_H_
