// BuyerService.PreviewCost: what a release would charge and, for the
// inconsistency measures, its noise as a function of theta, from public
// inputs only; nothing charged, reserved or read.
#ifndef DPQ_SERVER_BUYER_PREVIEW_COST_IMPL_H_
#define DPQ_SERVER_BUYER_PREVIEW_COST_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

// Runs the release's own prepare step (Prepare<Rpc>: the same checks, in
// the same order, against the request and the dataset's public metadata;
// an empty request_id is taken as a placeholder, since nothing is
// recorded), then reports its ReserveRequest's charge, the caller's own
// remaining budget and, for MeasureInconsistency and QualityReport,
// core::private_measures::PlanMeasureNoise of the checked release. Every
// input is public or the caller's own, so the preview is free: it draws
// no noise and reads no row, graph or other buyer's state.
// kInvalidArgument without a release (field "release") and every refusal
// of the release's prepare step.
absl::Status PreviewCostImpl(const BuyerCore& service,
                             const auth::Principal& caller,
                             const v1::PreviewCostRequest& request,
                             v1::PreviewCostResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_PREVIEW_COST_IMPL_H_
