// A LedgerStore that times the durable transactions of another (SQLite or
// PostgreSQL) into dpq_ledger_commit_duration_seconds and counts the
// epsilon its fresh reservations charge, and its refunds return, per
// dataset (dpq_epsilon_charged_total, dpq_epsilon_refunded_total), in
// exact units (core/ledger/epsilon_units.h). Replays (a recorded answer)
// and resumed retries charge nothing and count nothing. Everything else is
// forwarded unchanged. dpq-server wraps its store in one when metrics are
// on (--metrics-listen).
#ifndef DPQ_SERVER_METRICS_METERED_LEDGER_STORE_H_
#define DPQ_SERVER_METRICS_METERED_LEDGER_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "core/ledger/ledger.h"
#include "server/metrics/server_metrics.h"

namespace dpq::server::metrics {

class MeteredLedgerStore final : public core::ledger::LedgerStore {
 public:
  // `store` names the store in the series ("sqlite", "postgresql");
  // `metrics` outlives this.
  MeteredLedgerStore(std::unique_ptr<core::ledger::LedgerStore> inner,
                     std::string store, ServerMetrics* metrics)
      : inner_(std::move(inner)), store_(std::move(store)), metrics_(metrics) {}

  absl::StatusOr<core::ledger::BudgetState> Grant(const std::string& buyer_id,
                                                  const std::string& dataset_id,
                                                  double epsilon) override {
    return inner_->Grant(buyer_id, dataset_id, epsilon);
  }
  absl::StatusOr<core::ledger::BudgetState> SetGranted(
      const std::string& buyer_id, const std::string& dataset_id,
      double granted) override {
    return inner_->SetGranted(buyer_id, dataset_id, granted);
  }
  absl::Status SetDatasetCap(const std::string& dataset_id,
                             double cap) override {
    return inner_->SetDatasetCap(dataset_id, cap);
  }
  absl::StatusOr<core::ledger::DatasetTotals> GetDatasetTotals(
      const std::string& dataset_id) override {
    return inner_->GetDatasetTotals(dataset_id);
  }
  absl::StatusOr<core::ledger::BudgetState> GetBudget(
      const std::string& buyer_id, const std::string& dataset_id) override {
    return inner_->GetBudget(buyer_id, dataset_id);
  }
  absl::StatusOr<std::vector<core::ledger::BudgetState>> ListBudgets(
      const core::ledger::LedgerFilter& filter) override {
    return inner_->ListBudgets(filter);
  }
  absl::StatusOr<int64_t> RecoverPending() override {
    return inner_->RecoverPending();
  }
  absl::StatusOr<std::vector<core::ledger::LedgerEntry>> ListEntries(
      const core::ledger::LedgerFilter& filter) override {
    return inner_->ListEntries(filter);
  }

  // Timed; a fresh reservation counts its units as charged on its dataset.
  absl::StatusOr<core::ledger::Reservation> Reserve(
      const core::ledger::ReserveRequest& request) override
      ABSL_LOCKS_EXCLUDED(mu_);
  // Timed.
  absl::Status Commit(int64_t entry_id, const std::string& answer) override
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status ChargeWithoutAnswer(int64_t entry_id) override
      ABSL_LOCKS_EXCLUDED(mu_);
  // Timed; counts the refunded units on their dataset.
  absl::Status Refund(int64_t entry_id) override ABSL_LOCKS_EXCLUDED(mu_);

  // Reservations of this process not yet settled (tests).
  size_t pending() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // What a fresh reservation charged, until it is settled (committed,
  // charged without answer or refunded), so that a refund can name them.
  struct Charge {
    std::string dataset;
    int64_t units = 0;
  };
  void Settle(int64_t entry_id, bool refunded) ABSL_LOCKS_EXCLUDED(mu_);

  const std::unique_ptr<core::ledger::LedgerStore> inner_;
  const std::string store_;
  ServerMetrics* const metrics_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<int64_t, Charge> unsettled_ ABSL_GUARDED_BY(mu_);
};

}  // namespace dpq::server::metrics

#endif  // DPQ_SERVER_METRICS_METERED_LEDGER_STORE_H_
