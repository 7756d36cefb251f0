#include "core/ledger/settling_ledger_store.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dpq::core::ledger {
namespace {

// Failures of the store itself (its disk, its database), as opposed to
// refusals (budget, request ids) that a working store answers.
bool IsStoreFault(absl::StatusCode code) {
  return code == absl::StatusCode::kInternal ||
         code == absl::StatusCode::kUnavailable ||
         code == absl::StatusCode::kDataLoss ||
         code == absl::StatusCode::kUnknown;
}

}  // namespace

SettlingLedgerStore::SettlingLedgerStore(
    std::unique_ptr<LedgerStore> store,
    std::function<absl::Status()> probe_write)
    : store_(std::move(store)), probe_write_(std::move(probe_write)) {}

absl::Status SettlingLedgerStore::Noted(absl::Status status) {
  if (!status.ok() && IsStoreFault(status.code())) {
    absl::MutexLock lock(&mu_);
    writes_failing_ = true;
  }
  return status;
}

void SettlingLedgerStore::Remember(int64_t entry_id) {
  absl::MutexLock lock(&mu_);
  unsettled_.insert(entry_id);
  writes_failing_ = true;
}

absl::StatusOr<BudgetState> SettlingLedgerStore::Grant(
    const std::string& buyer_id, const std::string& dataset_id,
    double epsilon) {
  return Noted(store_->Grant(buyer_id, dataset_id, epsilon));
}

absl::StatusOr<BudgetState> SettlingLedgerStore::SetGranted(
    const std::string& buyer_id, const std::string& dataset_id,
    double granted) {
  return Noted(store_->SetGranted(buyer_id, dataset_id, granted));
}

absl::Status SettlingLedgerStore::SetDatasetCap(const std::string& dataset_id,
                                                double cap) {
  return Noted(store_->SetDatasetCap(dataset_id, cap));
}

absl::StatusOr<DatasetTotals> SettlingLedgerStore::GetDatasetTotals(
    const std::string& dataset_id) {
  return store_->GetDatasetTotals(dataset_id);
}

absl::StatusOr<BudgetState> SettlingLedgerStore::GetBudget(
    const std::string& buyer_id, const std::string& dataset_id) {
  return store_->GetBudget(buyer_id, dataset_id);
}

absl::StatusOr<std::vector<BudgetState>> SettlingLedgerStore::ListBudgets(
    const LedgerFilter& filter) {
  return store_->ListBudgets(filter);
}

absl::StatusOr<Reservation> SettlingLedgerStore::Reserve(
    const ReserveRequest& request) {
  return Noted(store_->Reserve(request));
}

absl::Status SettlingLedgerStore::Commit(int64_t entry_id,
                                         const std::string& answer) {
  return Noted(store_->Commit(entry_id, answer));
}

absl::Status SettlingLedgerStore::ChargeWithoutAnswer(int64_t entry_id) {
  const absl::Status charged = store_->ChargeWithoutAnswer(entry_id);
  if (!charged.ok() && IsStoreFault(charged.code())) Remember(entry_id);
  return charged;
}

absl::Status SettlingLedgerStore::Refund(int64_t entry_id) {
  const absl::Status refunded = store_->Refund(entry_id);
  // A refund that could not be written leaves the entry reserved: it is
  // charged once the store can write (the answer was never sent, but a
  // charge is the safe side and the retry resumes it for free).
  if (!refunded.ok() && IsStoreFault(refunded.code())) Remember(entry_id);
  return refunded;
}

absl::StatusOr<int64_t> SettlingLedgerStore::RecoverPending() {
  return Noted(store_->RecoverPending());
}

absl::StatusOr<std::vector<LedgerEntry>> SettlingLedgerStore::ListEntries(
    const LedgerFilter& filter) {
  return store_->ListEntries(filter);
}

absl::Status SettlingLedgerStore::Settle() {
  absl::MutexLock settling(&settle_mu_);
  std::vector<int64_t> entries;
  {
    absl::MutexLock lock(&mu_);
    entries.assign(unsettled_.begin(), unsettled_.end());
  }
  absl::Status first = absl::OkStatus();
  for (const int64_t entry_id : entries) {
    const absl::Status charged = store_->ChargeWithoutAnswer(entry_id);
    // kFailedPrecondition: no longer reserved (committed or refunded after
    // all); settled either way.
    if (charged.ok() ||
        charged.code() == absl::StatusCode::kFailedPrecondition) {
      absl::MutexLock lock(&mu_);
      unsettled_.erase(entry_id);
    } else if (first.ok()) {
      first = charged;
    }
  }
  return first;
}

absl::Status SettlingLedgerStore::WriteHealth() {
  {
    absl::MutexLock lock(&mu_);
    if (!writes_failing_ && unsettled_.empty()) return absl::OkStatus();
  }
  absl::Status probe = probe_write_ ? probe_write_() : absl::OkStatus();
  if (probe.ok()) probe = Settle();
  absl::MutexLock lock(&mu_);
  if (probe.ok() && unsettled_.empty()) {
    writes_failing_ = false;
    return absl::OkStatus();
  }
  return absl::UnavailableError(absl::StrCat(
      "the ledger cannot write (", probe.message(), "); ", unsettled_.size(),
      " reservation(s) wait to be charged once it can"));
}

int64_t SettlingLedgerStore::unsettled() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(unsettled_.size());
}

}  // namespace dpq::core::ledger
