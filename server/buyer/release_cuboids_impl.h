// BuyerService.ReleaseCuboids: DP count marginals of a table dataset
// (docs/cube.md), calibrated to its public exact cuboids.
#ifndef DPQ_SERVER_BUYER_RELEASE_CUBOIDS_IMPL_H_
#define DPQ_SERVER_BUYER_RELEASE_CUBOIDS_IMPL_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/cube/cuboid_request.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// The request check: core::cube::BuildCuboidRequest against the dataset's
// declared cube and public exact cuboids. Nothing reserved.
absl::StatusOr<PreparedRelease<core::cube::CuboidRequest>>
PrepareReleaseCuboids(const registry::DatasetRegistry& registry,
                      const auth::Principal& caller,
                      const v1::ReleaseCuboidsRequest& request);

// What the ledger records (frozen: release_fingerprint.h): epsilon,
// non_negative_integral and one line per cuboid.
ReleaseIdentity ReleaseCuboidsIdentity(
    const v1::ReleaseCuboidsRequest& request,
    const core::cube::CuboidRequest& cuboids);

// Noisy cuboids of a table dataset (core::cube::ReleaseCuboids),
// calibrated to its public exact cuboids and consistent with them; the
// whole epsilon is charged. Checked before anything is reserved:
// kInvalidArgument naming `cuboids` (none, more than
// kMaxCuboidsPerRequest, a dimension that is not one of the dataset's
// cube dimensions, a dimension twice), `epsilon` or `request_id`;
// kResourceExhausted above kMaxReleasedCells / kMaxNoisedCells cells;
// kFailedPrecondition for a graph dataset. Errors of core after the
// reservation (e.g. kFailedPrecondition for unsupported exact cuboids)
// are refunded. Same budget, deadline and retry rules as
// MeasureInconsistencyImpl.
absl::Status ReleaseCuboidsImpl(const BuyerCore& service,
                                const auth::Principal& caller,
                                const v1::ReleaseCuboidsRequest& request,
                                v1::ReleaseCuboidsResponse* response,
                                const CallContext& call = {});

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_RELEASE_CUBOIDS_IMPL_H_
