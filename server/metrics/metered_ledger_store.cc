#include "server/metrics/metered_ledger_store.h"

#include <string>
#include <utility>

#include "absl/time/clock.h"
#include "core/ledger/epsilon_units.h"

namespace dpq::server::metrics {

absl::StatusOr<core::ledger::Reservation> MeteredLedgerStore::Reserve(
    const core::ledger::ReserveRequest& request) {
  const absl::Time start = absl::Now();
  absl::StatusOr<core::ledger::Reservation> reservation =
      inner_->Reserve(request);
  metrics_->RecordLedgerOperation("reserve", store_, absl::Now() - start);
  if (!reservation.ok() || !reservation->entry_id.has_value() ||
      reservation->resumed) {
    return reservation;
  }
  // The store reserved exactly these units (request.epsilon rounded up,
  // core/ledger/ledger.h), and it accepted the epsilon, so this is OK.
  const absl::StatusOr<int64_t> units =
      core::ledger::ChargeUnits(request.epsilon);
  if (!units.ok()) return reservation;
  metrics_->RecordEpsilonCharged(request.dataset_id, *units);
  absl::MutexLock lock(&mu_);
  unsettled_[*reservation->entry_id] = {request.dataset_id, *units};
  return reservation;
}

absl::Status MeteredLedgerStore::Commit(int64_t entry_id,
                                        const std::string& answer) {
  const absl::Time start = absl::Now();
  absl::Status status = inner_->Commit(entry_id, answer);
  metrics_->RecordLedgerOperation("commit", store_, absl::Now() - start);
  if (status.ok()) Settle(entry_id, /*refunded=*/false);
  return status;
}

absl::Status MeteredLedgerStore::ChargeWithoutAnswer(int64_t entry_id) {
  const absl::Time start = absl::Now();
  absl::Status status = inner_->ChargeWithoutAnswer(entry_id);
  metrics_->RecordLedgerOperation("charge_without_answer", store_,
                                  absl::Now() - start);
  if (status.ok()) Settle(entry_id, /*refunded=*/false);
  return status;
}

absl::Status MeteredLedgerStore::Refund(int64_t entry_id) {
  const absl::Time start = absl::Now();
  absl::Status status = inner_->Refund(entry_id);
  metrics_->RecordLedgerOperation("refund", store_, absl::Now() - start);
  if (status.ok()) Settle(entry_id, /*refunded=*/true);
  return status;
}

void MeteredLedgerStore::Settle(int64_t entry_id, bool refunded) {
  Charge charge;
  {
    absl::MutexLock lock(&mu_);
    const auto it = unsettled_.find(entry_id);
    if (it == unsettled_.end()) return;
    charge = std::move(it->second);
    unsettled_.erase(it);
  }
  if (refunded) metrics_->RecordEpsilonRefunded(charge.dataset, charge.units);
}

size_t MeteredLedgerStore::pending() const {
  absl::MutexLock lock(&mu_);
  return unsettled_.size();
}

}  // namespace dpq::server::metrics
