// AdminService.GrantBudget, SetBudget and SetDatasetCap: the privacy
// budgets of the ledger (core/ledger/ledger.h; docs/ledger.md).
#ifndef DPQ_SERVER_ADMIN_BUDGETS_IMPL_H_
#define DPQ_SERVER_ADMIN_BUDGETS_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/admin_service.pb.h"
#include "server/admin/admin_core.h"
#include "server/auth/principal.h"

namespace dpq::server::admin {

// Adds epsilon (finite, > 0) to the buyer's budget on the dataset.
// kInvalidArgument naming the field; kNotFound for an unknown buyer or
// dataset.
absl::Status GrantBudgetImpl(const AdminCore& service,
                             const auth::Principal& caller,
                             const v1::GrantBudgetRequest& request,
                             v1::GrantBudgetResponse* response);

// Sets the granted total (finite, >= 0); kFailedPrecondition below spent +
// reserved. Same errors otherwise.
absl::Status SetBudgetImpl(const AdminCore& service,
                           const auth::Principal& caller,
                           const v1::SetBudgetRequest& request,
                           v1::SetBudgetResponse* response);

// Caps what all buyers together may spend on the dataset (finite, >= 0;
// 0 removes the cap).
absl::Status SetDatasetCapImpl(const AdminCore& service,
                               const auth::Principal& caller,
                               const v1::SetDatasetCapRequest& request,
                               v1::SetDatasetCapResponse* response);

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_BUDGETS_IMPL_H_
