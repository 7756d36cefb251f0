#include "server/buyer/train_decision_tree_impl.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {

namespace sel = core::selection;

absl::StatusOr<PreparedRelease<sel::DecisionTreeRequest>>
PrepareTrainDecisionTree(const registry::DatasetRegistry& registry,
                         const auth::Principal& caller,
                         const v1::TrainDecisionTreeRequest& request) {
  ReleaseBasics basics = BasicsOf(registry::kTrainDecisionTree, request);
  basics.extra_epsilon = request.accuracy_epsilon();
  basics.extra_epsilon_field = "accuracy_epsilon";
  ASSIGN_OR_RETURN(ReleaseStart start, StartRelease(registry, caller, basics));
  const registry::LoadedDataset& d = *start.dataset;
  ASSIGN_OR_RETURN(sel::DecisionTreeSpec spec,
                   DecisionTreeSpecFromProto(request));
  spec.epsilon = start.budget.epsilon;
  spec.accuracy_epsilon = start.budget.extra_epsilon;
  spec.public_max_rows = d.manifest.public_max_rows();
  ASSIGN_OR_RETURN(
      sel::DecisionTreeRequest tree,
      sel::BuildDecisionTreeRequest(d.table.schema(), d.cube_schema, spec));
  ReleaseIdentity identity = TrainDecisionTreeIdentity(request, tree);
  return Prepared(caller, basics, std::move(start), std::move(tree),
                  std::move(identity));
}

ReleaseIdentity TrainDecisionTreeIdentity(
    const v1::TrainDecisionTreeRequest& request,
    const sel::DecisionTreeRequest& tree) {
  const std::string approach(sel::ApproachName(tree.selection.approach));
  const std::string sensitivity(
      sel::SensitivityModeName(tree.selection.sensitivity));
  return {{{"label", request.label_column()},
           {"positive", request.positive_class()},
           {"features", absl::StrJoin(request.features(), "\n")},
           {"approach", approach},
           {"weights", WeightBits(tree.selection.weights)},
           {"sensitivity", sensitivity},
           {"epsilon", DoubleBits(request.epsilon())},
           {"accuracy_epsilon", DoubleBits(request.accuracy_epsilon())},
           {"generations", absl::StrCat(tree.genetic.generations)},
           {"population", absl::StrCat(tree.genetic.population)}},
          absl::StrCat("TrainDecisionTree label=", request.label_column(), " ",
                       approach, " ", sensitivity,
                       " generations=", tree.genetic.generations,
                       " population=", tree.genetic.population,
                       tree.accuracy_epsilon > 0 ? " with accuracy" : "")};
}

absl::Status TrainDecisionTreeImpl(const BuyerCore& service,
                                   const auth::Principal& caller,
                                   const v1::TrainDecisionTreeRequest& request,
                                   v1::TrainDecisionTreeResponse* response,
                                   const CallContext& call) {
  ASSIGN_OR_RETURN(
      PreparedRelease<sel::DecisionTreeRequest> prepared,
      PrepareTrainDecisionTree(*service.registry, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  sel::DecisionTreeRequest& tree = prepared.spec;
  tree.stop = [&call] { return call.Over(); };

  // Held through the computation, which polls call.Over() and so gives it
  // back soon after the call ends; refused before anything is reserved (it
  // depends on the caller's own and the other calls running, not on the
  // data).
  ASSIGN_OR_RETURN(
      HeavyJobLimiter::Slot slot,
      service.heavy_jobs.TryAcquire("TrainDecisionTree", caller.id));
  return RunRelease<v1::TrainDecisionTreeResponse>(
      *service.ledger, prepared.reserve, call,
      [&](v1::TrainDecisionTreeResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = service.NewUrbg();
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
