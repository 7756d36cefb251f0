// BuyerService.QualityReport: I_MI, I_P and I_R (and optionally the row
// count) for one charge.
#ifndef DPQ_SERVER_BUYER_QUALITY_REPORT_IMPL_H_
#define DPQ_SERVER_BUYER_QUALITY_REPORT_IMPL_H_

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

// The request check: I_MI, I_P and I_R at a third of epsilon each (and the
// row count's share when include_row_count), checked against the dataset.
// Nothing reserved.
absl::StatusOr<PreparedRelease<core::private_measures::MeasureRelease>>
PrepareQualityReport(const registry::DatasetRegistry& registry,
                     const auth::Principal& caller,
                     const v1::QualityReportRequest& request);

// What the ledger records (frozen: release_fingerprint.h): "MI,P,R", the
// epsilon as requested, the methods of I_MI and I_R, and the row count
// when asked for.
ReleaseIdentity QualityReportIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon);

// I_MI, I_P and I_R for one charge of `epsilon`; each gets epsilon / 3
// (rounded down so the three sum to at most epsilon: sequential
// composition), the answer is recorded once. Same errors and retry rules
// as MeasureInconsistencyImpl (`epsilon` / 3 must itself be a valid
// epsilon).
absl::Status QualityReportImpl(const BuyerCore& service,
                               const auth::Principal& caller,
                               const v1::QualityReportRequest& request,
                               v1::QualityReportResponse* response,
                               const CallContext& call = {});

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_QUALITY_REPORT_IMPL_H_
