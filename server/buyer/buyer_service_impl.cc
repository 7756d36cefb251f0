#include "server/buyer/buyer_service_impl.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/secure_urbg.h"
#include "core/measures/measure.h"
#include "core/private/measure_release.h"
#include "core/private/private_measures.h"
#include "core/private/release_cost.h"
#include "core/private/report_consistency.h"
#include "core/private/row_count_release.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/release_identity.h"
#include "server/buyer/release_pipeline.h"
#include "server/buyer/release_validation.h"
#include "server/call_handler.h"
#include "server/ledger_convert.h"
#include "server/registry/dataset_id.h"
#include "server/registry/dataset_pager.h"
#include "server/request_log.h"

namespace dpq::server::buyer {

namespace pm = core::private_measures;
using core::measures::Measure;
using internal::RequireCaller;

namespace {

absl::StatusOr<std::shared_ptr<const registry::LoadedDataset>> GetDataset(
    const registry::DatasetRegistry& registry, const std::string& dataset_id) {
  RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  return registry.Get(dataset_id);
}

// One release of `measure` on the dataset's cached graph; stops (kCancelled)
// once `call` is over, so that a client who left does not keep a worker on
// a large graph's flows.
absl::StatusOr<pm::PrivateMeasureResult> Release(
    const registry::ConflictGraphData& g, const registry::LoadedDataset& d,
    Measure measure, const pm::MeasureRelease& release,
    core::dp::SecureUrbg& urbg, const CallContext& call) {
  pm::PrivateMeasureRequest request;
  request.stop = [&call] { return call.Over(); };
  request.measure = measure;
  request.method = release.method;
  request.repair_method = release.repair_method;
  request.exact_repair = d.exact_repair;
  request.cover_bound = g.cover_bound;
  request.epsilon = release.epsilon_each;
  request.public_max_rows = d.manifest.public_max_rows();
  if (pm::UsesDegreeBounds(release.method)) {
    request.degree_bounds = g.degree_bounds;
    request.degree_keys = pm::CountDegreeKeys(d.dcs);
  }
  return pm::ComputePrivateMeasure(urbg, g.graph.graph, request);
}

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
    : registry_(registry),
      ledger_(ledger),
      accounts_(accounts),
      heavy_jobs_(max_heavy_jobs, max_heavy_jobs_per_buyer),
      heavy_releases_(max_heavy_releases),
      urbg_(std::move(urbg)) {}

std::unique_ptr<core::dp::SecureUrbg> BuyerServiceImpl::NewUrbg() const {
  if (urbg_) return urbg_();
  return std::make_unique<core::dp::OpenSslUrbg>();
}

// ---- gRPC methods: log fields, then the skeleton (server/call_handler.h) ---

grpc::Status BuyerServiceImpl::ListDatasets(
    grpc::ServerContext* context, const v1::ListDatasetsRequest* request,
    v1::ListDatasetsResponse* response) {
  RequestLog log("BuyerService.ListDatasets", response);
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return ListDatasetsImpl(caller, *request, response);
                    });
}

grpc::Status BuyerServiceImpl::DescribeDataset(
    grpc::ServerContext* context, const v1::DescribeDatasetRequest* request,
    v1::DescribeDatasetResponse* response) {
  RequestLog log("BuyerService.DescribeDataset", response);
  log.set_dataset(LoggedDataset(request->dataset_id()));
  return HandleCall(log, *context, *accounts_, Access::kAnyPrincipal,
                    [&](const auth::Principal& caller, const CallContext&) {
                      return DescribeDatasetImpl(caller, *request, response);
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
                      return GetBudgetImpl(caller, *request, response);
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
            MeasureInconsistencyImpl(caller, *request, response, call));
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
        return NoteReplay(log, *response,
                          QualityReportImpl(caller, *request, response, call));
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
        return NoteReplay(log, *response,
                          ReleaseCuboidsImpl(caller, *request, response, call));
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
            TrainDecisionTreeImpl(caller, *request, response, call));
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
        return NoteReplay(
            log, *response,
            SelectInfluentialNodesImpl(caller, *request, response, call));
      });
}

// ---- Pure implementations ---------------------------------------------------

absl::Status BuyerServiceImpl::ListDatasetsImpl(
    const auth::Principal& caller, const v1::ListDatasetsRequest& request,
    v1::ListDatasetsResponse* response) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  ASSIGN_OR_RETURN(
      registry::DatasetPager page,
      registry::DatasetPager::Start(request.page_size(), request.page_token()));
  response->Clear();
  for (const auto& d : registry_->List()) {
    const std::string& id = d->manifest.dataset_id();
    if (!page.After(id)) continue;
    v1::DatasetInfo info = d->PublicInfo();
    if (!page.Add(id, info.ByteSizeLong())) break;
    *response->add_datasets() = std::move(info);
  }
  response->set_next_page_token(page.next_page_token());
  return absl::OkStatus();
}

absl::Status BuyerServiceImpl::DescribeDatasetImpl(
    const auth::Principal& caller, const v1::DescribeDatasetRequest& request,
    v1::DescribeDatasetResponse* response) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  ASSIGN_OR_RETURN(std::shared_ptr<const registry::LoadedDataset> d,
                   GetDataset(*registry_, request.dataset_id()));
  response->Clear();
  *response->mutable_dataset() = d->PublicInfo();
  return absl::OkStatus();
}

absl::Status BuyerServiceImpl::GetBudgetImpl(
    const auth::Principal& caller, const v1::GetBudgetRequest& request,
    v1::GetBudgetResponse* response) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  const std::string& dataset_id = request.dataset_id();
  if (!dataset_id.empty()) {
    RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  }
  if (request.history_limit() > kMaxHistoryLimit) {
    return core::util::InvalidFieldError(
        "history_limit",
        absl::StrCat("history_limit must be at most ", kMaxHistoryLimit,
                     " (0 means ", kDefaultHistoryLimit, "), but is ",
                     request.history_limit(), "."));
  }
  // The filter always names the caller: an empty buyer_id would match
  // every buyer's records.
  core::ledger::LedgerFilter filter;
  filter.buyer_id = caller.id;
  filter.dataset_id = dataset_id;
  filter.limit = request.history_limit() == 0 ? kDefaultHistoryLimit
                                              : request.history_limit();
  ASSIGN_OR_RETURN(std::vector<core::ledger::BudgetState> budgets,
                   ledger_->ListBudgets(filter));
  if (!dataset_id.empty() && budgets.empty() &&
      !registry_->Contains(dataset_id)) {
    return registry::DatasetNotFoundError(dataset_id);
  }
  response->Clear();
  for (const core::ledger::BudgetState& b : budgets) {
    if (b.buyer_id != caller.id) continue;  // defence in depth
    *response->add_budgets() = ToProto(b);
  }
  if (request.include_history()) {
    ASSIGN_OR_RETURN(std::vector<core::ledger::LedgerEntry> entries,
                     ledger_->ListEntries(filter));
    for (const core::ledger::LedgerEntry& e : entries) {
      if (e.buyer_id != caller.id) continue;  // defence in depth
      *response->add_history() = ToProto(e);
    }
  }
  return absl::OkStatus();
}

absl::Status BuyerServiceImpl::MeasureInconsistencyImpl(
    const auth::Principal& caller,
    const v1::MeasureInconsistencyRequest& request,
    v1::MeasureInconsistencyResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(const PreparedRelease<pm::MeasureRelease> prepared,
                   PrepareMeasureInconsistency(*registry_, caller, request));
  return internal::RunRelease<v1::MeasureInconsistencyResponse>(
      *ledger_, prepared.reserve, call,
      [&](v1::MeasureInconsistencyResponse* answer) -> absl::Status {
        ASSIGN_OR_RETURN(std::vector<v1::MeasureResult> results,
                         ReleaseMeasures(caller, prepared, call));
        *answer->mutable_result() = std::move(results.front());
        return absl::OkStatus();
      },
      response);
}

absl::Status BuyerServiceImpl::QualityReportImpl(
    const auth::Principal& caller, const v1::QualityReportRequest& request,
    v1::QualityReportResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(const PreparedRelease<pm::MeasureRelease> prepared,
                   PrepareQualityReport(*registry_, caller, request));
  return internal::RunRelease<v1::QualityReportResponse>(
      *ledger_, prepared.reserve, call,
      [&](v1::QualityReportResponse* answer) -> absl::Status {
        ASSIGN_OR_RETURN(std::vector<v1::MeasureResult> results,
                         ReleaseMeasures(caller, prepared, call));
        for (v1::MeasureResult& result : results) {
          *answer->add_results() = std::move(result);
        }
        if (prepared.spec.row_count) {
          ASSIGN_OR_RETURN(*answer->mutable_row_count(), ReleaseRows(prepared));
        }
        return absl::OkStatus();
      },
      response);
}

absl::StatusOr<v1::RowCount> BuyerServiceImpl::ReleaseRows(
    const PreparedRelease<pm::MeasureRelease>& prepared) const {
  const registry::LoadedDataset& d = *prepared.dataset;
  const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
  ASSIGN_OR_RETURN(const pm::RowCountRelease rows,
                   pm::ReleaseRowCount(*urbg, d.table.num_rows(),
                                       prepared.spec.row_count_public,
                                       prepared.spec.epsilon_row_count,
                                       d.manifest.public_max_rows()));
  return ToRowCount(rows);
}

absl::StatusOr<std::vector<v1::MeasureResult>>
BuyerServiceImpl::ReleaseMeasures(
    const auth::Principal& caller,
    const PreparedRelease<pm::MeasureRelease>& prepared,
    const CallContext& call) const {
  const registry::LoadedDataset& d = *prepared.dataset;
  // After the charge: how long the graph takes (after a server start)
  // depends on the data.
  ASSIGN_OR_RETURN(const registry::ConflictGraphData* graph,
                   d.WaitForConflictGraph(call.deadline, call.cancelled));
  // After the charge too: the cost class depends on the edges. Held until
  // every measure is computed.
  std::optional<HeavyReleaseQueue::Slot> slot;
  if (d.release_cost == pm::ReleaseCost::kHeavy &&
      pm::ComputesOnGraph(prepared.spec)) {
    absl::StatusOr<HeavyReleaseQueue::Slot> acquired =
        heavy_releases_.Acquire(caller.id, call);
    if (!acquired.ok()) return acquired.status();
    slot.emplace(*std::move(acquired));
  }
  const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
  std::vector<pm::PrivateMeasureResult> released;
  for (const Measure measure : prepared.spec.measures) {
    ASSIGN_OR_RETURN(pm::PrivateMeasureResult result,
                     Release(*graph, d, measure, prepared.spec, *urbg, call));
    released.push_back(std::move(result));
  }
  pm::MakeResultsConsistent(prepared.spec.measures, released);
  std::vector<v1::MeasureResult> results;
  for (size_t i = 0; i < released.size(); ++i) {
    results.push_back(ToMeasureResult(MeasureToProto(prepared.spec.measures[i]),
                                      released[i]));
  }
  return results;
}

}  // namespace dpq::server::buyer
