#include "server/buyer/preview_cost_impl.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/ledger/epsilon_units.h"
#include "core/ledger/ledger.h"
#include "core/private/degree_bound.h"
#include "core/private/noise_plan.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/quality_report_impl.h"
#include "server/buyer/release_cuboids_impl.h"
#include "server/buyer/release_pipeline.h"
#include "server/buyer/select_influential_nodes_impl.h"
#include "server/buyer/train_decision_tree_impl.h"
#include "server/registry/loaded_dataset.h"

namespace dpq::server::buyer {
namespace {

namespace pm = ::dpq::core::private_measures;

// Nothing is recorded under it, but the prepare step wants a valid one.
constexpr char kPlaceholderRequestId[] = "preview";

template <typename Request>
Request WithRequestId(Request request) {
  if (request.request_id().empty()) {
    request.set_request_id(kPlaceholderRequestId);
  }
  return request;
}

// The charge of `prepared` and the caller's budget beside it.
template <typename Spec>
absl::Status FillCharge(const BuyerCore& service, const auth::Principal& caller,
                        const PreparedRelease<Spec>& prepared, const char* rpc,
                        v1::PreviewCostResponse* response) {
  const core::ledger::ReserveRequest& reserve = prepared.reserve;
  ASSIGN_OR_RETURN(const int64_t units,
                   core::ledger::ChargeUnits(reserve.epsilon));
  response->set_epsilon_charged(reserve.epsilon);
  response->set_epsilon_charged_units(units);
  response->set_charge_multiplier(std::string(rpc) == registry::kReleaseCuboids
                                      ? 1
                                      : prepared.dataset->charge_multiplier);
  response->set_charge_basis(reserve.charge_basis);
  ASSIGN_OR_RETURN(const core::ledger::BudgetState budget,
                   service.ledger->GetBudget(caller.id, reserve.dataset_id));
  response->set_remaining_budget(budget.remaining());
  response->set_remaining_budget_units(budget.remaining_units());
  response->set_fits_budget(units <= budget.remaining_units());
  return absl::OkStatus();
}

// The noise of each measure of a checked measure release.
void FillNoise(const PreparedRelease<pm::MeasureRelease>& prepared,
               v1::PreviewCostResponse* response) {
  const std::vector<pm::DcDegreeBound> shape =
      pm::DcBoundShape(prepared.dataset->dcs);
  for (const pm::MeasureNoisePlan& plan :
       pm::PlanMeasureNoise(prepared.spec, shape)) {
    v1::MeasureNoise* noise = response->add_noise();
    noise->set_measure(MeasureToProto(plan.measure));
    noise->set_method(plan.method);
    noise->set_release_epsilon(plan.release_epsilon);
    noise->set_theta_coefficient(plan.theta_coefficient);
    noise->set_sensitivity_constant(plan.sensitivity_constant);
    noise->set_noise_scale_per_theta(plan.theta_coefficient /
                                     plan.release_epsilon);
    noise->set_noise_scale_at_zero(plan.sensitivity_constant /
                                   plan.release_epsilon);
  }
}

}  // namespace

absl::Status PreviewCostImpl(const BuyerCore& service,
                             const auth::Principal& caller,
                             const v1::PreviewCostRequest& request,
                             v1::PreviewCostResponse* response) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  response->Clear();
  const registry::DatasetRegistry& registry = *service.registry;
  switch (request.release_case()) {
    case v1::PreviewCostRequest::kMeasureInconsistency: {
      ASSIGN_OR_RETURN(const auto prepared,
                       PrepareMeasureInconsistency(
                           registry, caller,
                           WithRequestId(request.measure_inconsistency())));
      FillNoise(prepared, response);
      return FillCharge(service, caller, prepared,
                        registry::kMeasureInconsistency, response);
    }
    case v1::PreviewCostRequest::kQualityReport: {
      ASSIGN_OR_RETURN(
          const auto prepared,
          PrepareQualityReport(registry, caller,
                               WithRequestId(request.quality_report())));
      FillNoise(prepared, response);
      return FillCharge(service, caller, prepared, registry::kQualityReport,
                        response);
    }
    case v1::PreviewCostRequest::kReleaseCuboids: {
      ASSIGN_OR_RETURN(
          const auto prepared,
          PrepareReleaseCuboids(registry, caller,
                                WithRequestId(request.release_cuboids())));
      return FillCharge(service, caller, prepared, registry::kReleaseCuboids,
                        response);
    }
    case v1::PreviewCostRequest::kTrainDecisionTree: {
      ASSIGN_OR_RETURN(
          const auto prepared,
          PrepareTrainDecisionTree(
              registry, caller, WithRequestId(request.train_decision_tree())));
      return FillCharge(service, caller, prepared, registry::kTrainDecisionTree,
                        response);
    }
    case v1::PreviewCostRequest::kSelectInfluentialNodes: {
      ASSIGN_OR_RETURN(const auto prepared,
                       PrepareSelectInfluentialNodes(
                           registry, caller,
                           WithRequestId(request.select_influential_nodes())));
      return FillCharge(service, caller, prepared,
                        registry::kSelectInfluentialNodes, response);
    }
    case v1::PreviewCostRequest::RELEASE_NOT_SET:
      break;
  }
  return core::util::InvalidFieldError(
      "release",
      "Name the release to preview (measure_inconsistency, quality_report, "
      "release_cuboids, train_decision_tree or select_influential_nodes).");
}

}  // namespace dpq::server::buyer
