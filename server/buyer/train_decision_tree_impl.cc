// BuyerService.TrainDecisionTree: a DP cost-sensitive decision tree
// (DP-MOET) of a table dataset.
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_request.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_identity.h"
#include "server/buyer/release_pipeline.h"
#include "server/buyer/release_validation.h"

namespace dpq::server::buyer {

namespace sel = core::selection;

absl::Status BuyerServiceImpl::TrainDecisionTreeImpl(
    const auth::Principal& caller, const v1::TrainDecisionTreeRequest& request,
    v1::TrainDecisionTreeResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(PreparedRelease<sel::DecisionTreeRequest> prepared,
                   PrepareTrainDecisionTree(*registry_, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  sel::DecisionTreeRequest& tree = prepared.spec;
  tree.stop = [&call] { return call.Over(); };

  // Held through the computation, which polls call.Over() and so gives it
  // back soon after the call ends; refused before anything is reserved (it
  // depends on the caller's own and the other calls running, not on the
  // data).
  ASSIGN_OR_RETURN(HeavyJobLimiter::Slot slot,
                   heavy_jobs_.TryAcquire("TrainDecisionTree", caller.id));
  return internal::RunRelease<v1::TrainDecisionTreeResponse>(
      *ledger_, prepared.reserve, call,
      [&](v1::TrainDecisionTreeResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(sel::DecisionTreeResult result,
                         sel::TrainDpDecisionTree(d.table, tree, *urbg));
        TreeToProto(result.tree, answer);
        if (result.tpr.has_value()) answer->set_tpr(*result.tpr);
        if (result.tnr.has_value()) answer->set_tnr(*result.tnr);
        // Post-processing: the budget rule reads public inputs only, the
        // single-leaf statement the released tree.
        if (!result.caveats.empty()) {
          answer->set_caveat(absl::StrJoin(result.caveats, " "));
        }
        answer->set_useful_epsilon(result.useful_epsilon);
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
