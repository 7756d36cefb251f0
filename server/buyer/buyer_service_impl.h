// dpq.v1.BuyerService (proto/dpq/v1/buyer_service.proto): public metadata,
// the caller's own budget, and DP inconsistency measures charged to the
// caller's ledger (design.md 5.6, 5.7, 6).
//
// Every gRPC method is thin: it identifies the caller (auth::CallerOf),
// calls the matching pure `*Impl` function, converts the status and writes
// one RequestLog line. The `*Impl` functions are unit-testable without a
// server.
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

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/ledger/ledger.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "server/auth/principal.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// Longest client-chosen request_id (proto: 1-128 printable ASCII).
inline constexpr size_t kMaxRequestIdLength = 128;
// GetBudget history: default and largest limit (proto).
inline constexpr uint32_t kDefaultHistoryLimit = 100;
inline constexpr uint32_t kMaxHistoryLimit = 10'000;

// The parts of a gRPC call a release honours. Default: no deadline, never
// cancelled.
struct CallContext {
  // The client's deadline: a release still running when it passes is
  // abandoned before its charge is committed (DEADLINE_EXCEEDED, refunded).
  absl::Time deadline = absl::InfiniteFuture();
  // Returns true once the client has cancelled (CANCELLED, refunded).
  std::function<bool()> cancelled;

  // From a server context (its deadline and IsCancelled).
  static CallContext FromServerContext(const grpc::ServerContext& context);
};

class BuyerServiceImpl final : public v1::BuyerService::Service {
 public:
  // Neither pointer is owned; both must outlive the service. Thread-safe.
  BuyerServiceImpl(registry::DatasetRegistry* registry,
                   core::ledger::LedgerStore* ledger);

  grpc::Status ListDatasets(grpc::ServerContext* context,
                            const v1::ListDatasetsRequest* request,
                            v1::ListDatasetsResponse* response) override;
  grpc::Status DescribeDataset(grpc::ServerContext* context,
                               const v1::DescribeDatasetRequest* request,
                               v1::DescribeDatasetResponse* response) override;
  grpc::Status GetBudget(grpc::ServerContext* context,
                         const v1::GetBudgetRequest* request,
                         v1::GetBudgetResponse* response) override;
  grpc::Status MeasureInconsistency(
      grpc::ServerContext* context,
      const v1::MeasureInconsistencyRequest* request,
      v1::MeasureInconsistencyResponse* response) override;
  grpc::Status QualityReport(grpc::ServerContext* context,
                             const v1::QualityReportRequest* request,
                             v1::QualityReportResponse* response) override;

  // Public metadata of every dataset, sorted by id. Costs nothing.
  absl::Status ListDatasetsImpl(const auth::Principal& caller,
                                const v1::ListDatasetsRequest& request,
                                v1::ListDatasetsResponse* response) const;

  // Public metadata of one dataset. kInvalidArgument naming `dataset_id`
  // for a malformed id, kNotFound naming it if unknown.
  absl::Status DescribeDatasetImpl(const auth::Principal& caller,
                                   const v1::DescribeDatasetRequest& request,
                                   v1::DescribeDatasetResponse* response) const;

  // The caller's own budgets (all datasets, or `dataset_id` only) and, if
  // asked, the caller's own ledger entries, newest first. Never another
  // principal's. kInvalidArgument naming `dataset_id` or `history_limit`
  // (> kMaxHistoryLimit); kNotFound for a dataset that neither exists nor
  // has a budget of the caller (budgets outlive deleted datasets).
  absl::Status GetBudgetImpl(const auth::Principal& caller,
                             const v1::GetBudgetRequest& request,
                             v1::GetBudgetResponse* response) const;

  // One DP measure, charged to (caller, dataset) through
  // core::ledger::RunChargedRelease: reserve, compute with fresh OpenSSL
  // randomness on the cached conflict graph, commit the serialised answer,
  // then reply. Errors, with nothing charged:
  //  - kInvalidArgument naming `dataset_id`, `measure`, `method`, `epsilon`
  //    or `request_id`; kNotFound for an unknown dataset;
  //  - kResourceExhausted: over budget (the message names the remaining
  //    budget) or over the dataset cap; no noise is drawn;
  //  - kAlreadyExists: request_id reused with other parameters;
  //  - kAborted: the same request_id is still being computed;
  //  - kDeadlineExceeded / kCancelled: the call ended before the charge
  //    was committed (refunded).
  // A retry with the same request_id returns the recorded answer with
  // epsilon_charged 0 and replayed true. The request's parameters (dataset
  // version included: a retry after ReplaceDataset is a different request)
  // are fingerprinted with SHA-256. An empty request_id gets a fresh random
  // one ("srv-" + 32 hex digits).
  absl::Status MeasureInconsistencyImpl(
      const auth::Principal& caller,
      const v1::MeasureInconsistencyRequest& request,
      v1::MeasureInconsistencyResponse* response,
      const CallContext& call = {}) const;

  // I_MI, I_P and I_R for one charge of `epsilon`; each gets epsilon / 3
  // (rounded down so the three sum to at most epsilon: sequential
  // composition), the answer is recorded once. Same errors and retry rules
  // as MeasureInconsistencyImpl (`epsilon` / 3 must itself be a valid
  // epsilon).
  absl::Status QualityReportImpl(const auth::Principal& caller,
                                 const v1::QualityReportRequest& request,
                                 v1::QualityReportResponse* response,
                                 const CallContext& call = {}) const;

 private:
  registry::DatasetRegistry* registry_;
  core::ledger::LedgerStore* ledger_;
};

namespace internal {

// OK for 1-128 printable ASCII characters (0x20-0x7e); kInvalidArgument
// naming `request_id` otherwise.
absl::Status ValidateRequestId(const std::string& request_id);

// "srv-" + 32 lowercase hex digits from OpenSSL RAND_bytes.
std::string NewRequestId();

// Lowercase hex SHA-256 of `text`.
std::string Sha256Hex(const std::string& text);

// The per-measure epsilon of a QualityReport: the largest double e with
// e + e + e <= epsilon (in floating point), about epsilon / 3.
double ThirdOfEpsilon(double epsilon);

}  // namespace internal
}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_SERVICE_IMPL_H_
