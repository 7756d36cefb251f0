// BuyerService.DescribeDataset: the public metadata of one dataset.
#ifndef DPQ_SERVER_BUYER_DESCRIBE_DATASET_IMPL_H_
#define DPQ_SERVER_BUYER_DESCRIBE_DATASET_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/buyer_service.pb.h"
#include "server/auth/principal.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

// Public metadata of one dataset. Costs nothing. kInvalidArgument naming
// `dataset_id` for a malformed id, kNotFound naming it if unknown.
absl::Status DescribeDatasetImpl(const BuyerCore& service,
                                 const auth::Principal& caller,
                                 const v1::DescribeDatasetRequest& request,
                                 v1::DescribeDatasetResponse* response);

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_DESCRIBE_DATASET_IMPL_H_
