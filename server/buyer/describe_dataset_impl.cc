#include "server/buyer/describe_dataset_impl.h"

#include <memory>

#include "core/util/status_macros.h"
#include "server/registry/dataset_id.h"

namespace dpq::server::buyer {

absl::Status DescribeDatasetImpl(const BuyerCore& service,
                                 const auth::Principal& caller,
                                 const v1::DescribeDatasetRequest& request,
                                 v1::DescribeDatasetResponse* response) {
  RETURN_IF_ERROR(auth::RequirePrincipal(caller));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(std::shared_ptr<const registry::LoadedDataset> d,
                   service.registry->Get(request.dataset_id()));
  response->Clear();
  *response->mutable_dataset() = d->PublicInfo();
  return absl::OkStatus();
}

}  // namespace dpq::server::buyer
