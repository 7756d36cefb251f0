#include "server/buyer/buyer_service_impl.h"

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/dp/epsilon.h"
#include "core/dp/secure_urbg.h"
#include "core/ledger/charged_release.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/release_pipeline.h"
#include "server/grpc_status.h"
#include "server/ledger_convert.h"
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

// How one call releases its measures: the method for I_MI and I_P, the
// one for I_R (both resolved from the request and the manifest: public).
struct Methods {
  pm::SelectionMethod selection = pm::SelectionMethod::kGem;
  pm::RepairMethod repair = pm::RepairMethod::kCoverBound;

  // The name recorded in the request's identity and the ledger.
  std::string NameFor(Measure measure) const {
    return std::string(measure == Measure::kRepair
                           ? pm::RepairMethodName(repair)
                           : pm::SelectionMethodName(selection));
  }
};

// Resolves the methods of the measures a call releases (`measures`): only
// those, so a field that does not apply (repair_method for MI, method for
// R) is ignored as the proto says.
absl::StatusOr<Methods> ResolveMethods(v1::SelectionMethod selection,
                                       v1::RepairMethod repair,
                                       const registry::LoadedDataset& d,
                                       std::initializer_list<Measure> measures) {
  Methods out;
  for (const Measure m : measures) {
    if (m == Measure::kRepair) {
      ASSIGN_OR_RETURN(
          out.repair, RepairMethodFromProto(repair, d.manifest.exact_repair()));
    } else {
      ASSIGN_OR_RETURN(out.selection, MethodFromProto(selection));
    }
  }
  return out;
}

// One release of `measure` on the dataset's cached graph; stops (kCancelled)
// once `call` is over, so that a client who left does not keep a worker on
// a large graph's flows.
absl::StatusOr<v1::MeasureResult> Release(const registry::ConflictGraphData& g,
                                          const registry::LoadedDataset& d,
                                          Measure measure,
                                          const Methods& methods,
                                          double epsilon,
                                          core::dp::SecureUrbg& urbg,
                                          const CallContext& call) {
  pm::PrivateMeasureRequest request;
  request.stop = [&call] { return call.Over(); };
  request.measure = measure;
  request.method = methods.selection;
  request.repair_method = methods.repair;
  request.exact_repair = d.exact_repair;
  request.cover_bound = g.cover_bound;
  request.epsilon = epsilon;
  request.public_max_rows = d.manifest.public_max_rows();
  if (methods.selection == pm::SelectionMethod::kOptimized ||
      methods.selection == pm::SelectionMethod::kGem) {
    request.degree_bounds = g.degree_bounds;
  }
  ASSIGN_OR_RETURN(pm::PrivateMeasureResult result,
                   pm::ComputePrivateMeasure(urbg, g.graph.graph, request));
  return ToMeasureResult(MeasureToProto(measure), result);
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
                                   int max_heavy_jobs,
                                   int max_heavy_jobs_per_buyer,
                                   UrbgFactory urbg)
    : registry_(registry),
      ledger_(ledger),
      heavy_jobs_(max_heavy_jobs, max_heavy_jobs_per_buyer),
      urbg_(std::move(urbg)) {}

std::unique_ptr<core::dp::SecureUrbg> BuyerServiceImpl::NewUrbg() const {
  if (urbg_) return urbg_();
  return std::make_unique<core::dp::OpenSslUrbg>();
}

// ---- gRPC methods: caller, Impl, status, one log line -----------------------

namespace {

// The gRPC side of every buyer RPC: authenticate, run the pure XImpl with
// the caller, convert the status and write the request's log line.
template <typename Impl>
grpc::Status Serve(RequestLog& log, const grpc::ServerContext& context,
                   Impl impl) {
  absl::StatusOr<auth::Principal> caller = auth::CallerOf(context);
  if (!caller.ok()) return log.Finish(ToGrpcStatus(caller.status()));
  log.set_principal(caller->id);
  return log.Finish(ToGrpcStatus(impl(*caller)));
}

}  // namespace

grpc::Status BuyerServiceImpl::ListDatasets(
    grpc::ServerContext* context, const v1::ListDatasetsRequest* request,
    v1::ListDatasetsResponse* response) {
  RequestLog log("BuyerService.ListDatasets");
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return ListDatasetsImpl(caller, *request, response);
  });
}

grpc::Status BuyerServiceImpl::DescribeDataset(
    grpc::ServerContext* context, const v1::DescribeDatasetRequest* request,
    v1::DescribeDatasetResponse* response) {
  RequestLog log("BuyerService.DescribeDataset");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return DescribeDatasetImpl(caller, *request, response);
  });
}

grpc::Status BuyerServiceImpl::GetBudget(grpc::ServerContext* context,
                                         const v1::GetBudgetRequest* request,
                                         v1::GetBudgetResponse* response) {
  RequestLog log("BuyerService.GetBudget");
  if (!request->dataset_id().empty()) {
    log.set_dataset(LoggedDataset(request->dataset_id()));
  }
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return GetBudgetImpl(caller, *request, response);
  });
}

grpc::Status BuyerServiceImpl::MeasureInconsistency(
    grpc::ServerContext* context,
    const v1::MeasureInconsistencyRequest* request,
    v1::MeasureInconsistencyResponse* response) {
  RequestLog log("BuyerService.MeasureInconsistency");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_epsilon(request->epsilon());
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return MeasureInconsistencyImpl(caller, *request, response,
                                    CallContext::FromServerContext(*context));
  });
}

grpc::Status BuyerServiceImpl::QualityReport(
    grpc::ServerContext* context, const v1::QualityReportRequest* request,
    v1::QualityReportResponse* response) {
  RequestLog log("BuyerService.QualityReport");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_epsilon(request->epsilon());
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return QualityReportImpl(caller, *request, response,
                             CallContext::FromServerContext(*context));
  });
}

grpc::Status BuyerServiceImpl::ReleaseCuboids(
    grpc::ServerContext* context, const v1::ReleaseCuboidsRequest* request,
    v1::ReleaseCuboidsResponse* response) {
  RequestLog log("BuyerService.ReleaseCuboids");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_epsilon(request->epsilon());
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return ReleaseCuboidsImpl(caller, *request, response,
                              CallContext::FromServerContext(*context));
  });
}

grpc::Status BuyerServiceImpl::TrainDecisionTree(
    grpc::ServerContext* context, const v1::TrainDecisionTreeRequest* request,
    v1::TrainDecisionTreeResponse* response) {
  RequestLog log("BuyerService.TrainDecisionTree");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_epsilon(request->epsilon() + request->accuracy_epsilon());
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return TrainDecisionTreeImpl(caller, *request, response,
                                 CallContext::FromServerContext(*context));
  });
}

grpc::Status BuyerServiceImpl::SelectInfluentialNodes(
    grpc::ServerContext* context,
    const v1::SelectInfluentialNodesRequest* request,
    v1::SelectInfluentialNodesResponse* response) {
  RequestLog log("BuyerService.SelectInfluentialNodes");
  log.set_dataset(LoggedDataset(request->dataset_id()));
  log.set_epsilon(request->epsilon());
  return Serve(log, *context, [&](const auth::Principal& caller) {
    return SelectInfluentialNodesImpl(caller, *request, response,
                                      CallContext::FromServerContext(*context));
  });
}

// ---- Pure implementations ---------------------------------------------------

absl::Status BuyerServiceImpl::ListDatasetsImpl(
    const auth::Principal& caller, const v1::ListDatasetsRequest& /*request*/,
    v1::ListDatasetsResponse* response) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  response->Clear();
  for (const auto& d : registry_->List()) {
    *response->add_datasets() = d->PublicInfo();
  }
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
    return absl::InvalidArgumentError(absl::StrCat(
        "history_limit must be at most ", kMaxHistoryLimit, " (0 means ",
        kDefaultHistoryLimit, "), but is ", request.history_limit(), "."));
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
    return absl::NotFoundError(
        absl::StrCat("Dataset '", dataset_id, "' does not exist."));
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
  RETURN_IF_ERROR(RequireCaller(caller));
  ASSIGN_OR_RETURN(const Measure measure, MeasureFromProto(request.measure()));
  ASSIGN_OR_RETURN(
      const ReleaseStart start,
      StartRelease(*registry_, caller, request.dataset_id(),
                   request.request_id(), request.epsilon(),
                   registry::kMeasureInconsistency));
  const registry::LoadedDataset& d = *start.dataset;
  ASSIGN_OR_RETURN(
      const Methods methods,
      ResolveMethods(request.method(), request.repair_method(), d, {measure}));
  // Only the method that applies to the measure is part of the identity.
  const std::string method_name = methods.NameFor(measure);
  const std::string measure_name(core::measures::MeasureName(measure));
  const core::ledger::ReserveRequest reserve = ReserveFor(
      caller, start, registry::kMeasureInconsistency,
      {{"dataset", request.dataset_id()},
       {"version", absl::StrCat(d.version)},
       {"measure", measure_name},
       {"epsilon", internal::DoubleBits(request.epsilon())},
       {"method", method_name}},
      absl::StrCat("MeasureInconsistency ", measure_name, " ", method_name),
      start.epsilon);

  return internal::RunRelease<v1::MeasureInconsistencyResponse>(
      *ledger_, reserve, call,
      [&](v1::MeasureInconsistencyResponse* answer) -> absl::Status {
        // After the charge: how long the graph takes (after a server start)
        // depends on the data.
        ASSIGN_OR_RETURN(const registry::ConflictGraphData* graph,
                         d.WaitForConflictGraph(call.deadline, call.cancelled));
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(
            *answer->mutable_result(),
            Release(*graph, d, measure, methods, start.epsilon, *urbg, call));
        return absl::OkStatus();
      },
      response);
}

absl::Status BuyerServiceImpl::QualityReportImpl(
    const auth::Principal& caller, const v1::QualityReportRequest& request,
    v1::QualityReportResponse* response, const CallContext& call) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  ASSIGN_OR_RETURN(const ReleaseStart start,
                   StartRelease(*registry_, caller, request.dataset_id(),
                                request.request_id(), request.epsilon(),
                                registry::kQualityReport));
  const registry::LoadedDataset& d = *start.dataset;
  // Three parts that sum to at most epsilon exactly (design 5.6); each is
  // at least a third of the public floor 1e-6.
  const double part = core::dp::EqualPart(start.epsilon, 3);
  ASSIGN_OR_RETURN(
      const Methods methods,
      ResolveMethods(request.method(), request.repair_method(), d,
                     {Measure::kMinimalInconsistency, Measure::kRepair}));
  const std::string method_name =
      absl::StrCat(methods.NameFor(Measure::kMinimalInconsistency), ",",
                   methods.NameFor(Measure::kRepair));
  const core::ledger::ReserveRequest reserve = ReserveFor(
      caller, start, registry::kQualityReport,
      {{"dataset", request.dataset_id()},
       {"version", absl::StrCat(d.version)},
       {"measure", "MI,P,R"},
       {"epsilon", internal::DoubleBits(request.epsilon())},
       {"method", method_name}},
      absl::StrCat("QualityReport MI,P,R ", method_name), start.epsilon);

  return internal::RunRelease<v1::QualityReportResponse>(
      *ledger_, reserve, call,
      [&](v1::QualityReportResponse* answer) -> absl::Status {
        ASSIGN_OR_RETURN(const registry::ConflictGraphData* graph,
                         d.WaitForConflictGraph(call.deadline, call.cancelled));
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        for (const Measure measure : {Measure::kMinimalInconsistency,
                                      Measure::kProblematic,
                                      Measure::kRepair}) {
          ASSIGN_OR_RETURN(*answer->add_results(),
                           Release(*graph, d, measure, methods, part, *urbg,
                                   call));
        }
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
