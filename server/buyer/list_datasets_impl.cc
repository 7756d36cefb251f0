#include "server/buyer/list_datasets_impl.h"

#include <string>
#include <utility>

#include "core/util/status_macros.h"
#include "server/registry/dataset_pager.h"

namespace dpq::server::buyer {

absl::Status ListDatasetsImpl(const BuyerCore& service,
                              const auth::Principal& caller,
                              const v1::ListDatasetsRequest& request,
                              v1::ListDatasetsResponse* response) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  ASSIGN_OR_RETURN(
      registry::DatasetPager page,
      registry::DatasetPager::Start(request.page_size(), request.page_token()));
  response->Clear();
  for (const auto& d : service.registry->List()) {
    const std::string& id = d->manifest.dataset_id();
    if (!page.After(id)) continue;
    v1::DatasetInfo info = d->PublicInfo();
    if (!page.Add(id, info.ByteSizeLong())) break;
    *response->add_datasets() = std::move(info);
  }
  response->set_next_page_token(page.next_page_token());
  return absl::OkStatus();
}

}  // namespace dpq::server::buyer
