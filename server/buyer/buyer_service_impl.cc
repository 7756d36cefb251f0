#include "server/buyer/buyer_service_impl.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "core/dp/epsilon.h"
#include "core/dp/secure_urbg.h"
#include "core/ledger/charged_release.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/grpc_status.h"
#include "server/ledger_convert.h"
#include "server/request_log.h"

namespace dpq::server::buyer {

namespace pm = core::private_measures;
using core::measures::Measure;

namespace internal {

absl::Status ValidateRequestId(const std::string& request_id) {
  if (request_id.empty() || request_id.size() > kMaxRequestIdLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "request_id must have 1-", kMaxRequestIdLength,
        " printable ASCII characters, but has ", request_id.size(), "."));
  }
  for (size_t i = 0; i < request_id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(request_id[i]);
    if (c < 0x20 || c > 0x7e) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "request_id must be printable ASCII, but character %d is byte "
          "0x%02x.",
          i + 1, static_cast<int>(c)));
    }
  }
  return absl::OkStatus();
}

std::string NewRequestId() {
  unsigned char bytes[16];
  // A CSPRNG failure is not recoverable (style.md 3: CHECK-style abort).
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) std::abort();
  return absl::StrCat(
      "srv-", absl::BytesToHexString(absl::string_view(
                  reinterpret_cast<const char*>(bytes), sizeof(bytes))));
}

std::string Sha256Hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(),
                 nullptr) != 1) {
    std::abort();  // SHA-256 cannot fail on valid input
  }
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), length));
}

double ThirdOfEpsilon(double epsilon) {
  double third = epsilon / 3;
  // long double holds 3 * third exactly (x86-64: 64-bit, aarch64: 113-bit
  // mantissa), so the comparison is exact.
  while (third > 0 && static_cast<long double>(third) * 3 >
                          static_cast<long double>(epsilon)) {
    third = std::nextafter(third, 0.0);
  }
  return third;
}

}  // namespace internal

namespace {

// Canonical, unambiguous text of a request's parameters (everything but
// request_id); its SHA-256 is the ledger fingerprint. Epsilon by its bits:
// 0.1 and 0.1000000000000001 are different requests.
std::string Fingerprint(absl::string_view rpc, const std::string& dataset_id,
                        uint64_t version, absl::string_view measure,
                        double epsilon, absl::string_view method) {
  uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(epsilon));
  std::memcpy(&bits, &epsilon, sizeof(bits));
  return internal::Sha256Hex(absl::StrFormat(
      "dpq.v1.BuyerService/%s\ndataset=%s\nversion=%d\nmeasure=%s\n"
      "epsilon=%016x\nmethod=%s\n",
      rpc, dataset_id, version, measure, bits, method));
}

// kDeadlineExceeded / kCancelled once the call is over: nothing computed
// after that may be released.
absl::Status CheckCall(const CallContext& call) {
  if (call.cancelled && call.cancelled()) {
    return absl::CancelledError(
        "The client cancelled the call; nothing was charged.");
  }
  if (absl::Now() >= call.deadline) {
    return absl::DeadlineExceededError(
        "The call's deadline passed before the answer was recorded; nothing "
        "was charged. Retry with a longer deadline.");
  }
  return absl::OkStatus();
}

absl::Status RequireCaller(const auth::Principal& caller) {
  if (caller.id.empty()) {
    return absl::UnauthenticatedError("The caller has no principal id.");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const registry::LoadedDataset>> GetDataset(
    const registry::DatasetRegistry& registry, const std::string& dataset_id) {
  RETURN_IF_ERROR(registry::ValidateId(dataset_id, "dataset_id"));
  return registry.Get(dataset_id);
}

// The request_id to record under: the client's (validated) or a new one.
absl::StatusOr<std::string> ResolveRequestId(const std::string& request_id) {
  if (request_id.empty()) return internal::NewRequestId();
  RETURN_IF_ERROR(internal::ValidateRequestId(request_id));
  return request_id;
}

// One release of `measure` on the dataset's cached graph.
absl::StatusOr<v1::MeasureResult> Release(const registry::LoadedDataset& d,
                                          Measure measure,
                                          pm::SelectionMethod method,
                                          double epsilon,
                                          core::dp::SecureUrbg& urbg) {
  pm::PrivateMeasureRequest request;
  request.measure = measure;
  request.method = method;
  request.epsilon = epsilon;
  request.public_max_rows = d.manifest.public_max_rows();
  if (method == pm::SelectionMethod::kOptimized) {
    request.degree_bounds = d.degree_bounds;
  }
  ASSIGN_OR_RETURN(pm::PrivateMeasureResult result,
                   pm::ComputePrivateMeasure(urbg, d.graph.graph, request));
  return ToMeasureResult(MeasureToProto(measure), result);
}

template <typename Response>
absl::Status ParseRecorded(const std::string& answer, Response* response) {
  if (!response->ParseFromString(answer)) {
    return absl::DataLossError(
        "The recorded answer of this request_id cannot be read.");
  }
  return absl::OkStatus();
}

// The dataset id for the request log: only well-formed ids are written, so
// a request cannot forge log lines.
std::string LoggedDataset(const std::string& dataset_id) {
  return registry::ValidateId(dataset_id, "dataset_id").ok() ? dataset_id
                                                             : "(invalid)";
}

}  // namespace

CallContext CallContext::FromServerContext(const grpc::ServerContext& context) {
  CallContext call;
  const std::chrono::system_clock::time_point deadline = context.deadline();
  if (deadline != std::chrono::system_clock::time_point::max()) {
    call.deadline = absl::FromChrono(deadline);
  }
  const grpc::ServerContext* ctx = &context;
  call.cancelled = [ctx] { return ctx->IsCancelled(); };
  return call;
}

BuyerServiceImpl::BuyerServiceImpl(registry::DatasetRegistry* registry,
                                   core::ledger::LedgerStore* ledger)
    : registry_(registry), ledger_(ledger) {}

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
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(const Measure measure, MeasureFromProto(request.measure()));
  ASSIGN_OR_RETURN(const pm::SelectionMethod method,
                   MethodFromProto(request.method()));
  RETURN_IF_ERROR(core::dp::ValidateEpsilon(request.epsilon(), "epsilon"));
  ASSIGN_OR_RETURN(const std::string request_id,
                   ResolveRequestId(request.request_id()));
  ASSIGN_OR_RETURN(std::shared_ptr<const registry::LoadedDataset> d,
                   registry_->Get(request.dataset_id()));

  // I_R ignores the method: it is not part of the request's identity.
  const std::string method_name =
      measure == Measure::kRepair
          ? std::string(pm::kVertexCoverMethodName)
          : std::string(pm::SelectionMethodName(method));
  const std::string measure_name(core::measures::MeasureName(measure));

  // A call already past its deadline (or cancelled) reserves nothing.
  RETURN_IF_ERROR(CheckCall(call));
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = caller.id;
  reserve.dataset_id = request.dataset_id();
  reserve.request_id = request_id;
  reserve.fingerprint =
      Fingerprint("MeasureInconsistency", request.dataset_id(), d->version,
                  measure_name, request.epsilon(), method_name);
  reserve.operation =
      absl::StrCat("MeasureInconsistency ", measure_name, " ", method_name);
  reserve.neighbouring = registry::kTupleNeighbouring;
  reserve.epsilon = request.epsilon();

  auto compute = [&]() -> absl::StatusOr<std::string> {
    RETURN_IF_ERROR(CheckCall(call));
    core::dp::OpenSslUrbg urbg;
    v1::MeasureInconsistencyResponse answer;
    ASSIGN_OR_RETURN(*answer.mutable_result(),
                     Release(*d, measure, method, request.epsilon(), urbg));
    answer.set_request_id(request_id);
    // Too late to reply: drop the answer and refund (nothing released).
    RETURN_IF_ERROR(CheckCall(call));
    return answer.SerializeAsString();
  };
  ASSIGN_OR_RETURN(core::ledger::ReleaseOutcome outcome,
                   core::ledger::RunChargedRelease(*ledger_, reserve, compute));

  response->Clear();
  RETURN_IF_ERROR(ParseRecorded(outcome.answer, response));
  response->set_epsilon_charged(outcome.epsilon_charged);
  response->set_remaining_budget(outcome.remaining);
  response->set_replayed(outcome.replayed);
  return absl::OkStatus();
}

absl::Status BuyerServiceImpl::QualityReportImpl(
    const auth::Principal& caller, const v1::QualityReportRequest& request,
    v1::QualityReportResponse* response, const CallContext& call) const {
  RETURN_IF_ERROR(RequireCaller(caller));
  RETURN_IF_ERROR(registry::ValidateId(request.dataset_id(), "dataset_id"));
  ASSIGN_OR_RETURN(const pm::SelectionMethod method,
                   MethodFromProto(request.method()));
  RETURN_IF_ERROR(core::dp::ValidateEpsilon(request.epsilon(), "epsilon"));
  const double part = internal::ThirdOfEpsilon(request.epsilon());
  {
    const absl::Status part_ok = core::dp::ValidateEpsilon(part, "epsilon / 3");
    if (!part_ok.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("epsilon is too small to split over three measures: ",
                       part_ok.message()));
    }
  }
  ASSIGN_OR_RETURN(const std::string request_id,
                   ResolveRequestId(request.request_id()));
  ASSIGN_OR_RETURN(std::shared_ptr<const registry::LoadedDataset> d,
                   registry_->Get(request.dataset_id()));

  const std::string method_name(pm::SelectionMethodName(method));
  // A call already past its deadline (or cancelled) reserves nothing.
  RETURN_IF_ERROR(CheckCall(call));
  core::ledger::ReserveRequest reserve;
  reserve.buyer_id = caller.id;
  reserve.dataset_id = request.dataset_id();
  reserve.request_id = request_id;
  reserve.fingerprint =
      Fingerprint("QualityReport", request.dataset_id(), d->version, "MI,P,R",
                  request.epsilon(), method_name);
  reserve.operation = absl::StrCat("QualityReport MI,P,R ", method_name);
  reserve.neighbouring = registry::kTupleNeighbouring;
  reserve.epsilon = request.epsilon();

  auto compute = [&]() -> absl::StatusOr<std::string> {
    RETURN_IF_ERROR(CheckCall(call));
    core::dp::OpenSslUrbg urbg;
    v1::QualityReportResponse answer;
    for (const Measure measure : {Measure::kMinimalInconsistency,
                                  Measure::kProblematic, Measure::kRepair}) {
      ASSIGN_OR_RETURN(*answer.add_results(),
                       Release(*d, measure, method, part, urbg));
      RETURN_IF_ERROR(CheckCall(call));
    }
    answer.set_request_id(request_id);
    return answer.SerializeAsString();
  };
  ASSIGN_OR_RETURN(core::ledger::ReleaseOutcome outcome,
                   core::ledger::RunChargedRelease(*ledger_, reserve, compute));

  response->Clear();
  RETURN_IF_ERROR(ParseRecorded(outcome.answer, response));
  response->set_epsilon_charged(outcome.epsilon_charged);
  response->set_remaining_budget(outcome.remaining);
  response->set_replayed(outcome.replayed);
  return absl::OkStatus();
}

}  // namespace dpq::server::buyer
