#include "server/buyer/get_budget_impl.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/ledger/ledger.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::buyer {

absl::Status GetBudgetImpl(const BuyerCore& service,
                           const auth::Principal& caller,
                           const v1::GetBudgetRequest& request,
                           v1::GetBudgetResponse* response) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  const std::string& dataset_id = request.dataset_id();
  if (!dataset_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  }
  if (request.history_limit() > kMaxHistoryLimit) {
    return core::util::InvalidFieldError(
        "history_limit",
        absl::StrCat("history_limit must be at most ", kMaxHistoryLimit,
                     " (0 means ", kDefaultHistoryLimit, "), but is ",
                     request.history_limit(), "."));
  }
  // The filter always names the caller: an empty buyer_id would match
  // every buyer's records.
  core::ledger::LedgerFilter filter;
  filter.buyer_id = caller.id;
  filter.dataset_id = dataset_id;
  filter.limit = request.history_limit() == 0 ? kDefaultHistoryLimit
                                              : request.history_limit();
  ASSIGN_OR_RETURN(std::vector<core::ledger::BudgetState> budgets,
                   service.ledger->ListBudgets(filter));
  if (!dataset_id.empty() && budgets.empty() &&
      !service.registry->Contains(dataset_id)) {
    return registry::DatasetNotFoundError(dataset_id);
  }
  response->Clear();
  for (const core::ledger::BudgetState& b : budgets) {
    if (b.buyer_id != caller.id) continue;  // defence in depth
    *response->add_budgets() = ToProto(b);
  }
  if (request.include_history()) {
    ASSIGN_OR_RETURN(std::vector<core::ledger::LedgerEntry> entries,
                     service.ledger->ListEntries(filter));
    for (const core::ledger::LedgerEntry& e : entries) {
      if (e.buyer_id != caller.id) continue;  // defence in depth
      *response->add_history() = ToProto(e);
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::server::buyer
