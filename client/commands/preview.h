// `--preview` of the measure and report commands: what the release would
// charge and how loud its noise would be, from PreviewCost (free).
#ifndef DPQ_CLIENT_COMMANDS_PREVIEW_H_
#define DPQ_CLIENT_COMMANDS_PREVIEW_H_

#include <string>

#include "absl/status/statusor.h"
#include "client/command.h"
#include "dpq/v1/buyer_service.pb.h"

namespace dpq::client {

// Sends `request` (PreviewCost) and renders its answer (PreviewText, or
// the response as JSON with --json).
absl::StatusOr<CommandOutput> RunPreview(
    const RunContext& context, const dpq::v1::PreviewCostRequest& request);

// "Would charge epsilon 0.5 (2 x 0.25: the dataset publishes an exact
// cuboid); remaining 17: it fits." then per measure "I_P (tuples in
// conflicts), method group_bound: noise scale (theta + 1) / 0.2125".
std::string PreviewText(const dpq::v1::PreviewCostResponse& response);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_COMMANDS_PREVIEW_H_
