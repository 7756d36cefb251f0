#include "server/buyer/buyer_service_impl.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "server/buyer/describe_dataset_impl.h"
#include "server/buyer/get_budget_impl.h"
#include "server/buyer/list_datasets_impl.h"
#include "server/buyer/list_receipts_impl.h"
#include "server/buyer/measure_inconsistency_impl.h"
#include "server/buyer/preview_cost_impl.h"
#include "server/buyer/quality_report_impl.h"
#include "server/buyer/release_cuboids_impl.h"
#include "server/buyer/select_influential_nodes_impl.h"
#include "server/buyer/train_decision_tree_impl.h"
#include "server/call_handler.h"
#include "server/registry/dataset_id.h"
#include "server/request_log.h"

namespace dpq::server::buyer {
namespace {

// Puts on the log line whether the answer was the recorded one.
template <typename Response>
absl::Status NoteReplay(RequestLog& log, const Response& response,
                        absl::Status status) {
  if (status.ok()) log.set_replayed(response.replayed());
  return status;
}

// The dataset id for the request log: only well-formed ids are written, so
// a request cannot forge log lines.
std::string LoggedDataset(const std::string& dataset_id) {
  return registry::ValidateId(dataset_id, "dataset_id").ok() ? dataset_id
                                                             : "(invalid)";
}

}  // namespace

BuyerServiceImpl::BuyerServiceImpl(registry::DatasetRegistry* registry,
                                   core::ledger::LedgerStore* ledger,
                                   const auth::AccountsStore* accounts,
                                   int max_heavy_jobs,
                                   int max_heavy_jobs_per_buyer,
                                   UrbgFactory urbg, int max_heavy_releases)
    : accounts_(accounts),
      core_(registry, ledger, max_heavy_jobs, max_heavy_jobs_per_buyer,
            std::move(urbg), max_heavy_releases) {}

// Each method: its log fields, then the RPC's function through the skeleton
// (server/call_handler.h).

grpc::Status BuyerServiceImpl::ListDatasets(
    grpc::ServerContext* context, const v1::ListDatasetsRequest* request,
    v1::ListDatasetsResponse* response) {
  RequestLog log("BuyerService.ListDatasets", response);
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return ListDatasetsImpl(core_, caller, *request,
                                              response);
                    });
}

grpc::Status BuyerServiceImpl::DescribeDataset(
    grpc::ServerContext* context, const v1::DescribeDatasetRequest* request,
    v1::DescribeDatasetResponse* response) {
  RequestLog log("BuyerService.DescribeDataset", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return DescribeDatasetImpl(core_, caller, *request,
                                                 response);
                    });
}

grpc::Status BuyerServiceImpl::GetBudget(grpc::ServerContext* context,
                                         const v1::GetBudgetRequest* request,
                                         v1::GetBudgetResponse* response) {
  RequestLog log("BuyerService.GetBudget", response);
  if (!request->dataset_id().empty()) {
    log.set_dataset(LoggedDataset(request->dataset_id()));
  }
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return GetBudgetImpl(core_, caller, *request, response);
                    });
}

grpc::Status BuyerServiceImpl::ListReceipts(
    grpc::ServerContext* context, const v1::ListReceiptsRequest* request,
    v1::ListReceiptsResponse* response) {
  RequestLog log("BuyerService.ListReceipts", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return ListReceiptsImpl(core_, caller, *request,
                                              response);
                    });
}

grpc::Status BuyerServiceImpl::PreviewCost(
    grpc::ServerContext* context, const v1::PreviewCostRequest* request,
    v1::PreviewCostResponse* response) {
  RequestLog log("BuyerService.PreviewCost", response);
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return PreviewCostImpl(core_, caller, *request, response);
                    });
}

grpc::Status BuyerServiceImpl::MeasureInconsistency(
    grpc::ServerContext* context,
    const v1::MeasureInconsistencyRequest* request,
    v1::MeasureInconsistencyResponse* response) {
  RequestLog log("BuyerService.MeasureInconsistency", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_request_id(request->request_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(
      log, *context, *accounts_, Access::kAnyPrincipal,
      [&](const auth::Principal& caller, const CallContext& call) {
        return NoteReplay(
            log, *response,
            MeasureInconsistencyImpl(core_, caller, *request, response, call));
      });
}

grpc::Status BuyerServiceImpl::QualityReport(
    grpc::ServerContext* context, const v1::QualityReportRequest* request,
    v1::QualityReportResponse* response) {
  RequestLog log("BuyerService.QualityReport", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_request_id(request->request_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(
      log, *context, *accounts_, Access::kAnyPrincipal,
      [&](const auth::Principal& caller, const CallContext& call) {
        return NoteReplay(
            log, *response,
            QualityReportImpl(core_, caller, *request, response, call));
      });
}

grpc::Status BuyerServiceImpl::ReleaseCuboids(
    grpc::ServerContext* context, const v1::ReleaseCuboidsRequest* request,
    v1::ReleaseCuboidsResponse* response) {
  RequestLog log("BuyerService.ReleaseCuboids", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_request_id(request->request_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(
      log, *context, *accounts_, Access::kAnyPrincipal,
      [&](const auth::Principal& caller, const CallContext& call) {
        return NoteReplay(
            log, *response,
            ReleaseCuboidsImpl(core_, caller, *request, response, call));
      });
}

grpc::Status BuyerServiceImpl::TrainDecisionTree(
    grpc::ServerContext* context, const v1::TrainDecisionTreeRequest* request,
    v1::TrainDecisionTreeResponse* response) {
  RequestLog log("BuyerService.TrainDecisionTree", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_request_id(request->request_id());
  log.set_epsilon(request->epsilon() + request->accuracy_epsilon());
  return HandleCall(
      log, *context, *accounts_, Access::kAnyPrincipal,
      [&](const auth::Principal& caller, const CallContext& call) {
        return NoteReplay(
            log, *response,
            TrainDecisionTreeImpl(core_, caller, *request, response, call));
      });
}

grpc::Status BuyerServiceImpl::SelectInfluentialNodes(
    grpc::ServerContext* context,
    const v1::SelectInfluentialNodesRequest* request,
    v1::SelectInfluentialNodesResponse* response) {
  RequestLog log("BuyerService.SelectInfluentialNodes", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_request_id(request->request_id());
  log.set_epsilon(request->epsilon());
  return HandleCall(
      log, *context, *accounts_, Access::kAnyPrincipal,
      [&](const auth::Principal& caller, const CallContext& call) {
        return NoteReplay(log, *response,
                          SelectInfluentialNodesImpl(core_, caller, *request,
                                                     response, call));
      });
}

}  // namespace dpq::server::buyer
