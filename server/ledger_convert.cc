#include "server/ledger_convert.h"

#include <cstdint>

namespace dpq::server {
namespace {

v1::LedgerEntryState ToProto(core::ledger::EntryState state) {
  switch (state) {
    case core::ledger::EntryState::kReserved:
      return v1::LEDGER_ENTRY_STATE_RESERVED;
    case core::ledger::EntryState::kCommitted:
      return v1::LEDGER_ENTRY_STATE_COMMITTED;
    case core::ledger::EntryState::kCharged:
      return v1::LEDGER_ENTRY_STATE_CHARGED;
    case core::ledger::EntryState::kRefunded:
      return v1::LEDGER_ENTRY_STATE_REFUNDED;
  }
  return v1::LEDGER_ENTRY_STATE_UNSPECIFIED;
}

}  // namespace

v1::Budget ToProto(const core::ledger::BudgetState& budget) {
  v1::Budget out;
  out.set_buyer_id(budget.buyer_id);
  out.set_dataset_id(budget.dataset_id);
  out.set_granted(budget.granted);
  out.set_spent(budget.spent);
  out.set_reserved(budget.reserved);
  out.set_remaining(budget.remaining());
  // The exact amounts, as the store counted them.
  out.set_granted_units(budget.granted_units);
  out.set_spent_units(budget.spent_units);
  out.set_reserved_units(budget.reserved_units);
  out.set_remaining_units(budget.remaining_units());
  return out;
}

v1::LedgerEntry ToProto(const core::ledger::LedgerEntry& entry) {
  v1::LedgerEntry out;
  // The per-buyer number, never the store's global handle: a buyer's
  // history must not count other buyers' entries (docs/security.md, item 8).
  out.set_entry_id(entry.buyer_seq);
  out.set_buyer_id(entry.buyer_id);
  out.set_dataset_id(entry.dataset_id);
  out.set_request_id(entry.request_id);
  out.set_operation(entry.operation);
  out.set_epsilon(entry.epsilon);
  out.set_epsilon_units(entry.epsilon_units);
  out.set_state(ToProto(entry.state));
  *out.mutable_created_at() = ToTimestamp(entry.created_at);
  if (entry.settled_at.has_value()) {
    *out.mutable_settled_at() = ToTimestamp(*entry.settled_at);
  }
  out.set_neighbouring(entry.neighbouring);
  return out;
}

}  // namespace dpq::server
