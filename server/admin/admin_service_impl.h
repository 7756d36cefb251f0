// dpq.v1.AdminService (proto/dpq/v1/admin_service.proto): datasets, buyers,
// budgets, the ledger and the audit log. Thin gRPC handlers over pure
// `XImpl` methods, which take the authenticated caller and can be unit
// tested without a server. Every RPC needs the admin role; every successful
// call that changes state appends an audit entry.
#ifndef DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_
#define DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/ledger/ledger.h"
#include "dpq/v1/admin_service.grpc.pb.h"
#include "dpq/v1/admin_service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/sync_stream.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::admin {

// Largest `limit` of ListLedger and ListAuditLog; 0 means kDefaultListLimit.
inline constexpr uint32_t kMaxListLimit = 10000;
inline constexpr uint32_t kDefaultListLimit = 100;

class AdminServiceImpl final : public v1::AdminService::Service {
 public:
  // None of the pointers is owned; all must outlive the service.
  // `max_upload_bytes` bounds the CSV of RegisterDataset/ReplaceDataset.
  AdminServiceImpl(registry::DatasetRegistry* registry,
                   core::ledger::LedgerStore* ledger,
                   auth::AccountsStore* accounts, uint64_t max_upload_bytes);

  // gRPC handlers: the XImpl through the handler skeleton
  // (server/call_handler.h) with Access::kAdmin: caller, admin role,
  // deadline and cancellation, status conversion, one log line.
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

  // The pure parts. Each returns kPermissionDenied unless `caller` is an
  // admin, kInvalidArgument naming the field for a bad argument, kNotFound
  // naming an unknown buyer or dataset.

  // `csv` is the uploaded file ("" if header.server_path is set, which is
  // then read on the server). Returns once the dataset is validated,
  // stored and its conflict graph built (a build that fails fails the
  // call); the response's notes say what was inferred and made public.
  // kAlreadyExists for a taken id; kResourceExhausted above
  // max_upload_bytes or the server's edge limit.
  // `deadline`: the call's; `received_at`: when the call began, before its
  // upload or server file was read (registry::DatasetRegistry::Register).
  absl::Status RegisterDatasetImpl(
      const auth::Principal& caller, const v1::DatasetUploadHeader& header,
      std::string csv, v1::RegisterDatasetResponse* response,
      absl::Time deadline = absl::InfiniteFuture(),
      std::optional<absl::Time> received_at = std::nullopt);
  // Same, for an existing id (kNotFound otherwise); see
  // DatasetRegistry::Replace for what a replacement must keep.
  absl::Status ReplaceDatasetImpl(
      const auth::Principal& caller, const v1::DatasetUploadHeader& header,
      std::string csv, v1::ReplaceDatasetResponse* response,
      absl::Time deadline = absl::InfiniteFuture(),
      std::optional<absl::Time> received_at = std::nullopt);
  absl::Status DeleteDatasetImpl(const auth::Principal& caller,
                                 const v1::DeleteDatasetRequest& request,
                                 v1::DeleteDatasetResponse* response);
  absl::Status ListDatasetsImpl(const auth::Principal& caller,
                                const v1::AdminListDatasetsRequest& request,
                                v1::AdminListDatasetsResponse* response);
  // kInvalidArgument for a bad name or "admin"; kAlreadyExists if taken.
  absl::Status CreateBuyerImpl(const auth::Principal& caller,
                               const v1::CreateBuyerRequest& request,
                               v1::CreateBuyerResponse* response);
  absl::Status RevokeBuyerImpl(const auth::Principal& caller,
                               const v1::RevokeBuyerRequest& request,
                               v1::RevokeBuyerResponse* response);
  absl::Status ListBuyersImpl(const auth::Principal& caller,
                              const v1::ListBuyersRequest& request,
                              v1::ListBuyersResponse* response);
  absl::Status GrantBudgetImpl(const auth::Principal& caller,
                               const v1::GrantBudgetRequest& request,
                               v1::GrantBudgetResponse* response);
  // kFailedPrecondition below spent + reserved.
  absl::Status SetBudgetImpl(const auth::Principal& caller,
                             const v1::SetBudgetRequest& request,
                             v1::SetBudgetResponse* response);
  absl::Status SetDatasetCapImpl(const auth::Principal& caller,
                                 const v1::SetDatasetCapRequest& request,
                                 v1::SetDatasetCapResponse* response);
  absl::Status ListLedgerImpl(const auth::Principal& caller,
                              const v1::ListLedgerRequest& request,
                              v1::ListLedgerResponse* response);
  absl::Status ListAuditLogImpl(const auth::Principal& caller,
                                const v1::ListAuditLogRequest& request,
                                v1::ListAuditLogResponse* response);

 private:
  // Resolves header.server_path, checks the size, validates the id.
  absl::StatusOr<std::string> UploadedCsv(const v1::DatasetUploadHeader& header,
                                          std::string csv) const;
  // kNotFound unless the buyer exists.
  absl::Status CheckBuyerExists(const std::string& buyer_id) const;
  // Writes an audit entry; a failure is logged, never returned (the action
  // already happened and its result, e.g. a new token, must reach the
  // caller).
  void Audit(const auth::Principal& caller, const char* action,
             const std::string& details);

  registry::DatasetRegistry* registry_;
  core::ledger::LedgerStore* ledger_;
  auth::AccountsStore* accounts_;
  uint64_t max_upload_bytes_;
};

}  // namespace dpq::server::admin

#endif  // DPQ_SERVER_ADMIN_ADMIN_SERVICE_IMPL_H_
