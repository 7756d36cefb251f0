// AdminService.DeleteDataset and ListDatasets: the registered datasets as
// the admin sees them (with their private statistics and ledger totals).
#ifndef DPQ_SERVER_ADMIN_ADMIN_DATASETS_IMPL_H_
#define DPQ_SERVER_ADMIN_ADMIN_DATASETS_IMPL_H_

#include "absl/status/status.h"
#include "dpq/v1/admin_service.pb.h"
#include "server/admin/admin_core.h"
#include "server/auth/principal.h"

namespace dpq::server::admin {

// kInvalidArgument naming dataset_id; kNotFound for an unknown one.
absl::Status DeleteDatasetImpl(const AdminCore& service,
                               const auth::Principal& caller,
                               const v1::DeleteDatasetRequest& request,
                               v1::DeleteDatasetResponse* response);

// Every dataset, sorted by id and paged, with its statistics, cap and the
// epsilon spent on it by all buyers.
absl::Status ListDatasetsImpl(const AdminCore& service,
                              const v1::AdminListDatasetsRequest& request,
                              v1::AdminListDatasetsResponse* response);

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_ADMIN_DATASETS_IMPL_H_
