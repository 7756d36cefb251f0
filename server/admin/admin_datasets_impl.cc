#include "server/admin/admin_datasets_impl.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/ledger/epsilon_units.h"
#include "core/util/status_macros.h"
#include "server/registry/dataset_id.h"
#include "server/registry/dataset_pager.h"

namespace dpq::server::admin {

absl::Status DeleteDatasetImpl(const AdminCore& service,
                               const auth::Principal& caller,
                               const v1::DeleteDatasetRequest& request,
                               v1::DeleteDatasetResponse* /*response*/) {
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  RETURN_IF_ERROR(service.registry->Delete(request.dataset_id()));
  service.Audit(caller, "DeleteDataset",
                absl::StrCat("dataset=", request.dataset_id()));
  return absl::OkStatus();
}

absl::Status ListDatasetsImpl(const AdminCore& service,
                              const v1::AdminListDatasetsRequest& request,
                              v1::AdminListDatasetsResponse* response) {
  ASSIGN_OR_RETURN(
      registry::DatasetPager page,
      registry::DatasetPager::Start(request.page_size(), request.page_token()));
  for (const std::shared_ptr<const registry::LoadedDataset>& dataset :
       service.registry->List()) {
    const std::string& id = dataset->manifest.dataset_id();
    if (!page.After(id)) continue;
    v1::AdminDatasetInfo info;
    *info.mutable_dataset() = dataset->PublicInfo();
    *info.mutable_stats() = dataset->Stats();
    ASSIGN_OR_RETURN(const core::ledger::DatasetTotals totals,
                     service.ledger->GetDatasetTotals(id));
    info.set_cap(core::ledger::FromUnits(totals.cap_units));
    info.set_cap_units(totals.cap_units);
    info.set_spent_all_buyers(core::ledger::FromUnits(totals.spent_units));
    info.set_spent_all_buyers_units(totals.spent_units);
    if (!page.Add(id, info.ByteSizeLong())) break;
    *response->add_datasets() = std::move(info);
  }
  response->set_next_page_token(page.next_page_token());
  return absl::OkStatus();
}

}  // namespace dpq::server::admin
