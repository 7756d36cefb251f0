// BuyerService.GetBudget: the caller's own budgets and ledger entries.
#ifndef DPQ_SERVER_BUYER_GET_BUDGET_IMPL_H_
#define DPQ_SERVER_BUYER_GET_BUDGET_IMPL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

// GetBudget history: default and largest limit (proto).
inline constexpr uint32_t kDefaultHistoryLimit = 100;
inline constexpr uint32_t kMaxHistoryLimit = 10'000;

// The caller's own budgets (all datasets, or `dataset_id` only) and, if
// asked, the caller's own ledger entries, newest first. Never another
// principal's. kInvalidArgument naming `dataset_id` or `history_limit`
// (> kMaxHistoryLimit); kNotFound for a dataset that neither exists nor
// has a budget of the caller (budgets outlive deleted datasets).
absl::Status GetBudgetImpl(const BuyerCore& service,
                           const auth::Principal& caller,
                           const v1::GetBudgetRequest& request,
                           v1::GetBudgetResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_GET_BUDGET_IMPL_H_
