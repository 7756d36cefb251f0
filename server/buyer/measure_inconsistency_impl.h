// BuyerService.MeasureInconsistency: one DP inconsistency measure of a
// table dataset, charged to the caller's ledger (docs/privacy.md 3).
#ifndef DPQ_SERVER_BUYER_MEASURE_INCONSISTENCY_IMPL_H_
#define DPQ_SERVER_BUYER_MEASURE_INCONSISTENCY_IMPL_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/private/measure_release.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// The request check (release_pipeline.h, prepare): the measure (before the
// dataset: it is the request's alone), then the pipeline's steps with the
// method and repair method checked against the dataset. Nothing reserved.
absl::StatusOr<PreparedRelease<core::private_measures::MeasureRelease>>
PrepareMeasureInconsistency(const registry::DatasetRegistry& registry,
                            const auth::Principal& caller,
                            const v1::MeasureInconsistencyRequest& request);

// What the ledger records (frozen: release_fingerprint.h): the measure of
// release.measures[0], `epsilon` as requested, and the method that applies
// to the measure.
ReleaseIdentity MeasureInconsistencyIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon);

// One DP measure, charged to (caller, dataset) through RunRelease: reserve,
// compute with fresh OpenSSL randomness on the cached conflict graph, commit
// the serialised answer, then reply. Errors before the reservation, with
// nothing charged:
//  - kInvalidArgument naming `dataset_id`, `measure`, `method`, `epsilon`
//    or `request_id`; kNotFound for an unknown dataset;
//  - kResourceExhausted: over budget (the message names the remaining
//    budget) or over the dataset cap; no noise is drawn;
//  - kAlreadyExists: request_id reused with other parameters;
//  - kAborted: the same request_id is still being computed;
//  - kDeadlineExceeded / kCancelled: the call was over before the
//    reservation.
// After the reservation the charge stands: a call that ends meanwhile
// (waiting for the conflict graph, say) gets kDeadlineExceeded /
// kCancelled saying so, and the same request_id resumes it.
// A retry with the same request_id returns the recorded answer with
// epsilon_charged 0 and replayed true. The request's parameters (dataset
// version included: a retry after ReplaceDataset is a different request)
// are fingerprinted with SHA-256. request_id is required: an empty one
// is kInvalidArgument (field "request_id"), nothing reserved.
absl::Status MeasureInconsistencyImpl(
    const BuyerCore& service, const auth::Principal& caller,
    const v1::MeasureInconsistencyRequest& request,
    v1::MeasureInconsistencyResponse* response, const CallContext& call = {});

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_MEASURE_INCONSISTENCY_IMPL_H_
