#include "core/ledger/ledger.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/ledger/epsilon_units.h"

namespace dpq::core::ledger {

void BudgetState::SetUnits(int64_t granted_u, int64_t spent_u,
                           int64_t reserved_u) {
  granted_units = granted_u;
  spent_units = spent_u;
  reserved_units = reserved_u;
  granted = FromUnits(granted_u);
  spent = FromUnits(spent_u);
  reserved = FromUnits(reserved_u);
}

int64_t BudgetState::remaining_units() const {
  return std::max<int64_t>(0, granted_units - spent_units - reserved_units);
}

double BudgetState::remaining() const { return FromUnits(remaining_units()); }

absl::StatusOr<std::pair<double, double>> LedgerStore::DatasetCapAndSpent(
    const std::string& dataset_id) {
  absl::StatusOr<DatasetTotals> totals = GetDatasetTotals(dataset_id);
  if (!totals.ok()) return totals.status();
  return std::make_pair(FromUnits(totals->cap_units),
                        FromUnits(totals->spent_units));
}

const char* EntryStateName(EntryState state) {
  switch (state) {
    case EntryState::kReserved:
      return "reserved";
    case EntryState::kCommitted:
      return "committed";
    case EntryState::kCharged:
      return "charged";
    case EntryState::kRefunded:
      return "refunded";
  }
  return "unknown";
}

}  // namespace dpq::core::ledger
