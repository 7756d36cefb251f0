// BuyerService.ListDatasets: the public metadata of every dataset, paged.
#ifndef DPQ_SERVER_BUYER_LIST_DATASETS_IMPL_H_
#define DPQ_SERVER_BUYER_LIST_DATASETS_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

// Public metadata of every dataset, sorted by id (DatasetInfo: no rows, no
// sizes unless row_count_public). Costs nothing. kInvalidArgument for a
// malformed page_size or page_token (registry::DatasetPager).
absl::Status ListDatasetsImpl(const BuyerCore& service,
                              const auth::Principal& caller,
                              const v1::ListDatasetsRequest& request,
                              v1::ListDatasetsResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_LIST_DATASETS_IMPL_H_
