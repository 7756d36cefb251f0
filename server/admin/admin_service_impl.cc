#include "server/admin/admin_service_impl.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/util/status_macros.h"
#include "server/admin/admin_datasets_impl.h"
#include "server/admin/budgets_impl.h"
#include "server/admin/buyer_accounts_impl.h"
#include "server/admin/dataset_upload.h"
#include "server/admin/ledger_audit_impl.h"
#include "server/call_context.h"
#include "server/call_handler.h"
#include "server/request_log.h"

namespace dpq::server::admin {

using ::dpq::server::auth::Principal;

AdminServiceImpl::AdminServiceImpl(registry::DatasetRegistry* registry,
                                   core::ledger::LedgerStore* ledger,
                                   auth::AccountsStore* accounts,
                                   uint64_t max_upload_bytes)
    : core_{registry, ledger, accounts, max_upload_bytes} {}

// Each method: its log fields, then the RPC's function through the skeleton
// (server/call_handler.h), which checks the admin role (Access::kAdmin).
grpc::Status AdminServiceImpl::RegisterDataset(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::RegisterDatasetRequest>* reader,
    v1::RegisterDatasetResponse* response) {
  RequestLog log("AdminService.RegisterDataset", response);
  return HandleCall(
      log, *context, *core_.accounts, Access::kAdmin,
      [&](const Principal& caller, const CallContext& call) -> absl::Status {
        // Before the upload is read: registered_at must not tell buyers
        // how long these rows took to arrive or build.
        const absl::Time received_at = absl::Now();
        ASSIGN_OR_RETURN(Upload upload,
                         ReadUpload(call, *reader, core_.max_upload_bytes));
        log.set_dataset(upload.header.manifest().dataset_id());
        return RegisterDatasetImpl(core_, caller, std::move(upload), response,
                                   call.deadline, received_at);
      });
}

grpc::Status AdminServiceImpl::ReplaceDataset(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::ReplaceDatasetRequest>* reader,
    v1::ReplaceDatasetResponse* response) {
  RequestLog log("AdminService.ReplaceDataset", response);
  return HandleCall(
      log, *context, *core_.accounts, Access::kAdmin,
      [&](const Principal& caller, const CallContext& call) -> absl::Status {
        // Before the upload is read: registered_at must not tell buyers
        // how long these rows took to arrive or build.
        const absl::Time received_at = absl::Now();
        ASSIGN_OR_RETURN(Upload upload,
                         ReadUpload(call, *reader, core_.max_upload_bytes));
        log.set_dataset(upload.header.manifest().dataset_id());
        return ReplaceDatasetImpl(core_, caller, std::move(upload), response,
                                  call.deadline, received_at);
      });
}

grpc::Status AdminServiceImpl::DeleteDataset(
    grpc::ServerContext* context, const v1::DeleteDatasetRequest* request,
    v1::DeleteDatasetResponse* response) {
  RequestLog log("AdminService.DeleteDataset", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return DeleteDatasetImpl(core_, caller, *request,
                                               response);
                    });
}

grpc::Status AdminServiceImpl::ListDatasets(
    grpc::ServerContext* context, const v1::AdminListDatasetsRequest* request,
    v1::AdminListDatasetsResponse* response) {
  RequestLog log("AdminService.ListDatasets", response);
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal&, const CallContext&) {
                      return ListDatasetsImpl(core_, *request, response);
                    });
}

grpc::Status AdminServiceImpl::CreateBuyer(
    grpc::ServerContext* context, const v1::CreateBuyerRequest* request,
    v1::CreateBuyerResponse* response) {
  RequestLog log("AdminService.CreateBuyer", response);
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return CreateBuyerImpl(core_, caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::RevokeBuyer(
    grpc::ServerContext* context, const v1::RevokeBuyerRequest* request,
    v1::RevokeBuyerResponse* response) {
  RequestLog log("AdminService.RevokeBuyer", response);
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return RevokeBuyerImpl(core_, caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListBuyers(grpc::ServerContext* context,
                                          const v1::ListBuyersRequest* request,
                                          v1::ListBuyersResponse* response) {
  RequestLog log("AdminService.ListBuyers", response);
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal&, const CallContext&) {
                      return ListBuyersImpl(core_, *request, response);
                    });
}

grpc::Status AdminServiceImpl::GrantBudget(
    grpc::ServerContext* context, const v1::GrantBudgetRequest* request,
    v1::GrantBudgetResponse* response) {
  RequestLog log("AdminService.GrantBudget", response);
  log.set_dataset(request->dataset_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return GrantBudgetImpl(core_, caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::SetBudget(grpc::ServerContext* context,
                                         const v1::SetBudgetRequest* request,
                                         v1::SetBudgetResponse* response) {
  RequestLog log("AdminService.SetBudget", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return SetBudgetImpl(core_, caller, *request, response);
                    });
}

grpc::Status AdminServiceImpl::SetDatasetCap(
    grpc::ServerContext* context, const v1::SetDatasetCapRequest* request,
    v1::SetDatasetCapResponse* response) {
  RequestLog log("AdminService.SetDatasetCap", response);
  log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal& caller, const CallContext&) {
                      return SetDatasetCapImpl(core_, caller, *request,
                                               response);
                    });
}

grpc::Status AdminServiceImpl::ListLedger(grpc::ServerContext* context,
                                          const v1::ListLedgerRequest* request,
                                          v1::ListLedgerResponse* response) {
  RequestLog log("AdminService.ListLedger", response);
  if (!request->dataset_id().empty()) log.set_dataset(request->dataset_id());
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal&, const CallContext&) {
                      return ListLedgerImpl(core_, *request, response);
                    });
}

grpc::Status AdminServiceImpl::ListAuditLog(
    grpc::ServerContext* context, const v1::ListAuditLogRequest* request,
    v1::ListAuditLogResponse* response) {
  RequestLog log("AdminService.ListAuditLog", response);
  return HandleCall(log, *context, *core_.accounts, Access::kAdmin,
                    [&](const Principal&, const CallContext&) {
                      return ListAuditLogImpl(core_, *request, response);
                    });
}

}  // namespace dpq::server::admin
