// dpq.v1.BuyerService (proto/dpq/v1/buyer_service.proto): public metadata,
// the caller's own budget, and DP releases charged to the caller's ledger
// (docs/privacy.md 3; docs/architecture.md 3).
//
// The service only dispatches: each gRPC method sets its request-log fields
// and runs the RPC's function from its own file, `<rpc>_impl.h`
// (MeasureInconsistencyImpl in measure_inconsistency_impl.h, ...), through
// the handler skeleton (server/call_handler.h: caller, deadline and
// cancellation, status conversion, one RequestLog line). The functions take
// the service's BuyerCore and are unit-testable without a server. Every
// release function is the same pipeline (release_pipeline.h): prepare
// (every check, before anything is reserved), then RunRelease around the
// computation.
//
// Who may call: any authenticated principal. An admin calling a buyer RPC
// acts as the principal "admin" with its own ledger (budgets granted to the
// buyer id "admin"); without a grant its releases are RESOURCE_EXHAUSTED
// like any buyer's.
//
// What leaves the server: public metadata (DatasetInfo: no rows, no sizes
// unless row_count_public), the caller's own ledger, and DP releases. No
// RPC here returns cells, exact counts or graph sizes.
#ifndef DPQ_SERVER_BUYER_BUYER_SERVICE_IMPL_H_
#define DPQ_SERVER_BUYER_BUYER_SERVICE_IMPL_H_

#include "dpq/v1/buyer_service.grpc.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "server/auth/accounts_store.h"
#include "server/buyer/buyer_core.h"

namespace dpq::server::buyer {

class BuyerServiceImpl final : public v1::BuyerService::Service {
 public:
  // No pointer is owned; all must outlive the service. Thread-safe.
  // `accounts` authenticates every call's bearer token (call_handler.h);
  // the rest build the service's BuyerCore (buyer_core.h).
  BuyerServiceImpl(registry::DatasetRegistry* registry,
                   core::ledger::LedgerStore* ledger,
                   const auth::AccountsStore* accounts,
                   int max_heavy_jobs = kDefaultMaxHeavyJobs,
                   int max_heavy_jobs_per_buyer = 0, UrbgFactory urbg = nullptr,
                   int max_heavy_releases = kDefaultMaxHeavyReleases);

  grpc::Status ListDatasets(grpc::ServerContext* context,
                            const v1::ListDatasetsRequest* request,
                            v1::ListDatasetsResponse* response) override;
  grpc::Status DescribeDataset(grpc::ServerContext* context,
                               const v1::DescribeDatasetRequest* request,
                               v1::DescribeDatasetResponse* response) override;
  grpc::Status GetBudget(grpc::ServerContext* context,
                         const v1::GetBudgetRequest* request,
                         v1::GetBudgetResponse* response) override;
  grpc::Status ListReceipts(grpc::ServerContext* context,
                            const v1::ListReceiptsRequest* request,
                            v1::ListReceiptsResponse* response) override;
  grpc::Status PreviewCost(grpc::ServerContext* context,
                           const v1::PreviewCostRequest* request,
                           v1::PreviewCostResponse* response) override;
  grpc::Status MeasureInconsistency(
      grpc::ServerContext* context,
      const v1::MeasureInconsistencyRequest* request,
      v1::MeasureInconsistencyResponse* response) override;
  grpc::Status QualityReport(grpc::ServerContext* context,
                             const v1::QualityReportRequest* request,
                             v1::QualityReportResponse* response) override;
  grpc::Status ReleaseCuboids(grpc::ServerContext* context,
                              const v1::ReleaseCuboidsRequest* request,
                              v1::ReleaseCuboidsResponse* response) override;
  grpc::Status TrainDecisionTree(
      grpc::ServerContext* context, const v1::TrainDecisionTreeRequest* request,
      v1::TrainDecisionTreeResponse* response) override;
  grpc::Status SelectInfluentialNodes(
      grpc::ServerContext* context,
      const v1::SelectInfluentialNodesRequest* request,
      v1::SelectInfluentialNodesResponse* response) override;

  // What the RPC functions read (tests call them with it directly).
  const BuyerCore& core() const { return core_; }

 private:
  const auth::AccountsStore* accounts_;
  BuyerCore core_;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_SERVICE_IMPL_H_
