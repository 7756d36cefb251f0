// dpq.v1.BuyerService (proto/dpq/v1/buyer_service.proto): public metadata,
// the caller's own budget, and DP inconsistency measures charged to the
// caller's ledger (docs/privacy.md 3; docs/architecture.md 3).
//
// Every gRPC method is thin: it sets its log fields and runs the matching
// pure `*Impl` function through the handler skeleton
// (server/call_handler.h: caller, deadline and cancellation, status
// conversion, one RequestLog line). The `*Impl` functions are
// unit-testable without a server. Every release `*Impl` is the same three
// steps: PrepareRelease (release_pipeline.h: every check, in core, before
// anything is reserved), a heavy-job slot for the heavy ones, then
// internal::RunRelease (release_helpers.h) around the computation.
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
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/dp/secure_urbg.h"
#include "core/ledger/ledger.h"
#include "core/private/measure_release.h"
#include "dpq/v1/buyer_service.grpc.pb.h"
#include "dpq/v1/buyer_service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "server/auth/accounts_store.h"
#include "server/auth/principal.h"
#include "server/buyer/heavy_job_limiter.h"
#include "server/buyer/heavy_release_queue.h"
#include "server/buyer/node_scores_cache.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_pipeline.h"
#include "server/call_context.h"
#include "server/registry/dataset_registry.h"

namespace dpq::server::buyer {

// GetBudget history: default and largest limit (proto).
inline constexpr uint32_t kDefaultHistoryLimit = 100;
inline constexpr uint32_t kMaxHistoryLimit = 10'000;

// The limits of the release requests are core's, next to their checks:
// ReleaseCuboids core/cube/cuboid_request.h (kMaxCuboidsPerRequest,
// kMaxReleasedCells, kMaxNoisedCells), TrainDecisionTree
// core/selection/tree/tree_request.h (kDefaultGenerations, kMaxGenerations,
// kDefaultPopulation, kMinPopulation, kMaxPopulation),
// SelectInfluentialNodes core/selection/nodes/influential_nodes_request.h
// (kMaxNodesK).
// Heavy jobs (tree training, node selection) running at once by default;
// per buyer, see DefaultMaxHeavyJobsPerBuyer (heavy_job_limiter.h).
inline constexpr int kDefaultMaxHeavyJobs = 2;

// Where a release draws its randomness. The server always uses OpenSSL's
// CSPRNG (docs/privacy.md 4.1); only tests (the privacy audit, which needs
// reproducible releases through the production handlers) pass another.
using UrbgFactory = std::function<std::unique_ptr<core::dp::SecureUrbg>()>;

class BuyerServiceImpl final : public v1::BuyerService::Service {
 public:
  // No pointer is owned; all must outlive the service. Thread-safe.
  // `accounts` authenticates every call's bearer token (call_handler.h).
  // The service owns its heavy-job limiter and its cache of node selection
  // scores (node_scores_cache.h).
  // `max_heavy_jobs` (>= 1) bounds the TrainDecisionTree and
  // SelectInfluentialNodes computations that run at once, and
  // `max_heavy_jobs_per_buyer` (1..max_heavy_jobs; 0 = the default, half
  // of them) those of one caller. `max_heavy_releases` (>= 1) bounds the
  // measure computations on heavy datasets that run at once, after their
  // charge (heavy_release_queue.h). `urbg` (tests
  // only; the server passes none): a generator per release instead of
  // core::dp::OpenSslUrbg.
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
  // then reply. Errors before the reservation, with nothing charged:
  //  - kInvalidArgument naming `dataset_id`, `measure`, `method`, `epsilon`
  //    or `request_id`; kNotFound for an unknown dataset;
  //  - kResourceExhausted: over budget (the message names the remaining
  //    budget) or over the dataset cap; no noise is drawn;
  //  - kAlreadyExists: request_id reused with other parameters;
  //  - kAborted: the same request_id is still being computed;
  //  - kDeadlineExceeded / kCancelled: the call was over before the
  //    reservation.
  // After the reservation the charge stands: a call that ends meanwhile
  // (waiting for the conflict graph, say) gets kDeadlineExceeded /
  // kCancelled saying so, and the same request_id resumes it.
  // A retry with the same request_id returns the recorded answer with
  // epsilon_charged 0 and replayed true. The request's parameters (dataset
  // version included: a retry after ReplaceDataset is a different request)
  // are fingerprinted with SHA-256. request_id is required: an empty one
  // is kInvalidArgument (field "request_id"), nothing reserved.
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

  // Noisy cuboids of a table dataset (core::cube::ReleaseCuboids),
  // calibrated to its public exact cuboids and consistent with them; the
  // whole epsilon is charged. Checked before anything is reserved:
  // kInvalidArgument naming `cuboids` (none, more than
  // kMaxCuboidsPerRequest, a dimension that is not one of the dataset's
  // cube dimensions, a dimension twice), `epsilon` or `request_id`;
  // kResourceExhausted above kMaxReleasedCells / kMaxNoisedCells cells;
  // kFailedPrecondition for a graph dataset. Errors of core after the
  // reservation (e.g. kFailedPrecondition for unsupported exact cuboids)
  // are refunded. Same budget, deadline and retry rules as
  // MeasureInconsistencyImpl.
  absl::Status ReleaseCuboidsImpl(const auth::Principal& caller,
                                  const v1::ReleaseCuboidsRequest& request,
                                  v1::ReleaseCuboidsResponse* response,
                                  const CallContext& call = {}) const;

  // A DP decision tree (core::selection::TrainDpDecisionTree) of a table
  // dataset; charges epsilon + accuracy_epsilon. kInvalidArgument naming
  // the field for an unknown label or feature column, the label among the
  // features, an empty positive_class, weights with PARETO or not two
  // finite weights with AGGREGATION, generations > kMaxGenerations,
  // population outside [kMinPopulation, kMaxPopulation], an invalid
  // epsilon or accuracy_epsilon, a positive_class that is not a label of
  // the label dimension; kFailedPrecondition for a graph dataset or a
  // label/feature that is not a declared cube dimension (trees use only
  // public domains); kUnavailable when the caller already runs
  // max_heavy_jobs_per_buyer heavy jobs or max_heavy_jobs are running in
  // all (nothing reserved). All checked before any budget is reserved.
  // Same budget, deadline and retry rules otherwise; the training stops
  // soon after the call ends (deadline or cancellation), which frees its
  // slot.
  absl::Status TrainDecisionTreeImpl(
      const auth::Principal& caller,
      const v1::TrainDecisionTreeRequest& request,
      v1::TrainDecisionTreeResponse* response,
      const CallContext& call = {}) const;

  // The k most influential nodes of a graph dataset
  // (core::selection::SelectInfluentialNodes, edge-DP), its scores from the
  // service's NodeScoresCache when the same dataset version and parameters
  // were scored before. kInvalidArgument
  // for k = 0 or k > min(kMaxNodesK, node count), an unknown or repeated
  // objective, weights with PARETO or not one finite weight per objective
  // with AGGREGATION, an invalid epsilon; kFailedPrecondition for a table
  // dataset; kUnavailable when the caller already runs
  // max_heavy_jobs_per_buyer heavy jobs or max_heavy_jobs are running in
  // all (nothing reserved). The score computation stops soon after the
  // call ends, which frees its slot.
  absl::Status SelectInfluentialNodesImpl(
      const auth::Principal& caller,
      const v1::SelectInfluentialNodesRequest& request,
      v1::SelectInfluentialNodesResponse* response,
      const CallContext& call = {}) const;

  // The node selection scores kept for SelectInfluentialNodes (for tests
  // and monitoring).
  const NodeScoresCache& node_scores() const { return node_scores_; }

 private:
  // A fresh generator for one release.
  std::unique_ptr<core::dp::SecureUrbg> NewUrbg() const;

  // The measures of a prepared MeasureInconsistency or QualityReport, in
  // order, each at its part of epsilon, on the dataset's conflict graph
  // (waited for: after the charge).
  // The report's row count (ReleaseRowCount with the release's epsilon
  // share, or the owner's public count).
  absl::StatusOr<v1::RowCount> ReleaseRows(
      const PreparedRelease<core::private_measures::MeasureRelease>& prepared)
      const;
  // The measures of a charged release; on a heavy dataset their
  // computation first waits for a slot of heavy_releases_.
  absl::StatusOr<std::vector<v1::MeasureResult>> ReleaseMeasures(
      const auth::Principal& caller,
      const PreparedRelease<core::private_measures::MeasureRelease>& prepared,
      const CallContext& call) const;

  registry::DatasetRegistry* registry_;
  core::ledger::LedgerStore* ledger_;
  const auth::AccountsStore* accounts_;
  mutable HeavyJobLimiter heavy_jobs_;
  mutable HeavyReleaseQueue heavy_releases_;
  mutable NodeScoresCache node_scores_;
  UrbgFactory urbg_;
};

}  // namespace dpq::server::buyer

#endif  // DPQ_SERVER_BUYER_BUYER_SERVICE_IMPL_H_
