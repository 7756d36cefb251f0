// dpq.v1.AdminService (proto/dpq/v1/admin_service.proto): datasets, buyers,
// budgets, the ledger and the audit log. The service only dispatches: each
// method sets its request-log fields and runs the RPC's function through the
// handler skeleton (server/call_handler.h) with Access::kAdmin, the one
// check of the admin role. The functions live by concern, over the shared
// AdminCore (admin_core.h):
//   dataset_upload.h       RegisterDataset, ReplaceDataset
//   admin_datasets_impl.h  DeleteDataset, ListDatasets
//   buyer_accounts_impl.h  CreateBuyer, RevokeBuyer, ListBuyers
//   budgets_impl.h         GrantBudget, SetBudget, SetDatasetCap
//   ledger_audit_impl.h    ListLedger, ListAuditLog
// Every successful call that changes state appends an audit entry.
#ifndef DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_
#define DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_

#include <cstdint>

#include "core/ledger/ledger.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/admin_service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/sync_stream.h"
#include "server/admin/admin_core.h"
#include "server/auth/accounts_store.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::admin {

class AdminServiceImpl final : public v1::AdminService::Service {
 public:
  // None of the pointers is owned; all must outlive the service.
  // `max_upload_bytes` bounds the CSV of RegisterDataset/ReplaceDataset.
  AdminServiceImpl(registry::DatasetRegistry* registry,
                   core::ledger::LedgerStore* ledger,
                   auth::AccountsStore* accounts, uint64_t max_upload_bytes);

  grpc::Status RegisterDataset(
      grpc::ServerContext* context,
      grpc::ServerReader<v1::RegisterDatasetRequest>* reader,
      v1::RegisterDatasetResponse* response) override;
  grpc::Status ReplaceDataset(
      grpc::ServerContext* context,
      grpc::ServerReader<v1::ReplaceDatasetRequest>* reader,
      v1::ReplaceDatasetResponse* response) override;
  grpc::Status DeleteDataset(grpc::ServerContext* context,
                             const v1::DeleteDatasetRequest* request,
                             v1::DeleteDatasetResponse* response) override;
  grpc::Status ListDatasets(grpc::ServerContext* context,
                            const v1::AdminListDatasetsRequest* request,
                            v1::AdminListDatasetsResponse* response) override;
  grpc::Status CreateBuyer(grpc::ServerContext* context,
                           const v1::CreateBuyerRequest* request,
                           v1::CreateBuyerResponse* response) override;
  grpc::Status RevokeBuyer(grpc::ServerContext* context,
                           const v1::RevokeBuyerRequest* request,
                           v1::RevokeBuyerResponse* response) override;
  grpc::Status ListBuyers(grpc::ServerContext* context,
                          const v1::ListBuyersRequest* request,
                          v1::ListBuyersResponse* response) override;
  grpc::Status GrantBudget(grpc::ServerContext* context,
                           const v1::GrantBudgetRequest* request,
                           v1::GrantBudgetResponse* response) override;
  grpc::Status SetBudget(grpc::ServerContext* context,
                         const v1::SetBudgetRequest* request,
                         v1::SetBudgetResponse* response) override;
  grpc::Status SetDatasetCap(grpc::ServerContext* context,
                             const v1::SetDatasetCapRequest* request,
                             v1::SetDatasetCapResponse* response) override;
  grpc::Status ListLedger(grpc::ServerContext* context,
                          const v1::ListLedgerRequest* request,
                          v1::ListLedgerResponse* response) override;
  grpc::Status ListAuditLog(grpc::ServerContext* context,
                            const v1::ListAuditLogRequest* request,
                            v1::ListAuditLogResponse* response) override;

 private:
  AdminCore core_;
};

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_
