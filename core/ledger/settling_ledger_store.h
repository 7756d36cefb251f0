// A LedgerStore that leaves no reservation stuck when its store cannot
// write (a full disk in the embedded mode; docs/operations.md, "Storage
// faults"). Forwards every call to the store it wraps, and:
//
//  - remembers each reservation whose settlement failed: a Refund after an
//    answer could not be recorded, or a ChargeWithoutAnswer after a failed
//    computation. Such an entry stays RESERVED in the store, and a retry
//    of its request_id would be refused ABORTED (REQUEST_IN_PROGRESS)
//    until the next start-up charged it;
//  - notes when a write failed with a server fault (INTERNAL, UNAVAILABLE,
//    DATA_LOSS, UNKNOWN), the store's own state, never the data's.
//
// Settle(), run by the server's health loop, charges every remembered
// reservation without an answer once the store can write again (charged
// and resumable: a retry with its request_id then computes and returns
// the answer without a further charge; the safe side, since the release
// may have read the data). WriteHealth() is what the health service
// reports: NOT_SERVING while writes fail or reservations wait to be
// settled, SERVING again as soon as a probe write and every settlement
// succeed.
#ifndef DPQ_CORE_LEDGER_SETTLING_LEDGER_STORE_H_
#define DPQ_CORE_LEDGER_SETTLING_LEDGER_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "core/ledger/ledger.h"

namespace dpq::core::ledger {

class SettlingLedgerStore final : public LedgerStore {
 public:
  // `probe_write` (may be empty: then a settlement or the next write is
  // the probe) writes something small and durable where the store writes
  // and returns its status: how WriteHealth learns that writes work again
  // when nothing waits to be settled.
  SettlingLedgerStore(std::unique_ptr<LedgerStore> store,
                      std::function<absl::Status()> probe_write);

  absl::StatusOr<BudgetState> Grant(const std::string& buyer_id,
                                    const std::string& dataset_id,
                                    double epsilon) override;
  absl::StatusOr<BudgetState> SetGranted(const std::string& buyer_id,
                                         const std::string& dataset_id,
                                         double granted) override;
  absl::Status SetDatasetCap(const std::string& dataset_id,
                             double cap) override;
  absl::StatusOr<DatasetTotals> GetDatasetTotals(
      const std::string& dataset_id) override;
  absl::StatusOr<BudgetState> GetBudget(const std::string& buyer_id,
                                        const std::string& dataset_id) override;
  absl::StatusOr<std::vector<BudgetState>> ListBudgets(
      const LedgerFilter& filter) override;
  absl::StatusOr<Reservation> Reserve(const ReserveRequest& request) override;
  absl::Status Commit(int64_t entry_id, const std::string& answer) override;
  absl::Status ChargeWithoutAnswer(int64_t entry_id) override;
  absl::Status Refund(int64_t entry_id) override;
  absl::StatusOr<int64_t> RecoverPending() override;
  absl::StatusOr<std::vector<LedgerEntry>> ListEntries(
      const LedgerFilter& filter) override;

  // Charges every remembered reservation without an answer; one that is
  // no longer reserved (its answer reached the disk after all, say) is
  // forgotten. OK once none is left, else the first failure.
  absl::Status Settle() ABSL_LOCKS_EXCLUDED(mu_);
  // OK if no write failed since the last successful probe and nothing
  // waits to be settled; otherwise probes, settles and returns the first
  // failure (kUnavailable naming the number of unsettled reservations).
  absl::Status WriteHealth() ABSL_LOCKS_EXCLUDED(mu_);
  // Reservations waiting to be settled.
  int64_t unsettled() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Notes a failed write (returns `status` unchanged).
  absl::Status Noted(absl::Status status) ABSL_LOCKS_EXCLUDED(mu_);
  template <typename T>
  absl::StatusOr<T> Noted(absl::StatusOr<T> result) {
    if (!result.ok()) (void)Noted(result.status());
    return result;
  }
  void Remember(int64_t entry_id) ABSL_LOCKS_EXCLUDED(mu_);

  const std::unique_ptr<LedgerStore> store_;
  const std::function<absl::Status()> probe_write_;
  mutable absl::Mutex mu_;
  bool writes_failing_ ABSL_GUARDED_BY(mu_) = false;
  absl::btree_set<int64_t> unsettled_ ABSL_GUARDED_BY(mu_);
  // Settle runs one at a time (the health loop; tests).
  absl::Mutex settle_mu_;
};

}  // namespace dpq::core::ledger

#endif  // DPQ_CORE_LEDGER_SETTLING_LEDGER_STORE_H_
