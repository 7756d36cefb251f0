#include "core/ledger/ledger.h"

#include <algorithm>
#include <cstdint>

#include "core/ledger/epsilon_units.h"

namespace dpq::core::ledger {
namespace {

// The units of an amount the store set from units (exact round trip below
// 4.5 * 10^15 units; clamped otherwise).
int64_t Units(double amount) {
  const absl::StatusOr<int64_t> units = AmountUnits(amount, "amount");
  return units.ok() ? *units : (amount > 0 ? kMaxUnits : 0);
}

}  // namespace

double BudgetState::remaining() const {
  return FromUnits(
      std::max<int64_t>(0, Units(granted) - Units(spent) - Units(reserved)));
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
