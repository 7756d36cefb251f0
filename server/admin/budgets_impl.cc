#include "server/admin/budgets_impl.h"

#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "core/util/status_macros.h"
#include "core/util/validate.h"
#include "server/admin/buyer_accounts_impl.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::admin {

using core::util::AsFieldError;

absl::Status GrantBudgetImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::GrantBudgetRequest& request,
                             v1::GrantBudgetResponse* response) {
  RETURN_IF_ERROR(CheckBuyerExists(service, request.buyer_id()));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  RETURN_IF_ERROR(AsFieldError("epsilon", core::util::ValidateFiniteAndPositive(
                                              request.epsilon(), "epsilon")));
  RETURN_IF_ERROR(service.registry->Get(request.dataset_id()).status());
  ASSIGN_OR_RETURN(
      const core::ledger::BudgetState budget,
      service.ledger->Grant(request.buyer_id(), request.dataset_id(),
                            request.epsilon()));
  *response->mutable_budget() = ToProto(budget);
  service.Audit(caller, "GrantBudget",
                absl::StrCat("buyer=", request.buyer_id(),
                             " dataset=", request.dataset_id(),
                             " epsilon=", request.epsilon()));
  return absl::OkStatus();
}

absl::Status SetBudgetImpl(const AdminCore& service,
                           const auth::Principal& caller,
                           const v1::SetBudgetRequest& request,
                           v1::SetBudgetResponse* response) {
  RETURN_IF_ERROR(CheckBuyerExists(service, request.buyer_id()));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  RETURN_IF_ERROR(AsFieldError(
      "granted",
      core::util::ValidateFiniteAndNonNegative(request.granted(), "granted")));
  RETURN_IF_ERROR(service.registry->Get(request.dataset_id()).status());
  ASSIGN_OR_RETURN(
      const core::ledger::BudgetState budget,
      service.ledger->SetGranted(request.buyer_id(), request.dataset_id(),
                                 request.granted()));
  *response->mutable_budget() = ToProto(budget);
  service.Audit(caller, "SetBudget",
                absl::StrCat("buyer=", request.buyer_id(),
                             " dataset=", request.dataset_id(),
                             " granted=", request.granted()));
  return absl::OkStatus();
}

absl::Status SetDatasetCapImpl(const AdminCore& service,
                               const auth::Principal& caller,
                               const v1::SetDatasetCapRequest& request,
                               v1::SetDatasetCapResponse* /*response*/) {
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  RETURN_IF_ERROR(
      AsFieldError("cap", core::util::ValidateFiniteAndNonNegative(
                              request.cap(), "cap", " (0 removes the cap)")));
  RETURN_IF_ERROR(service.registry->Get(request.dataset_id()).status());
  RETURN_IF_ERROR(
      service.ledger->SetDatasetCap(request.dataset_id(), request.cap()));
  service.Audit(
      caller, "SetDatasetCap",
      absl::StrCat("dataset=", request.dataset_id(), " cap=", request.cap()));
  return absl::OkStatus();
}

}  // namespace dpq::server::admin
