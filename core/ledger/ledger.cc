#include "core/ledger/ledger.h"

namespace dpq::core::ledger {

const char* EntryStateName(EntryState state) {
  switch (state) {
    case EntryState::kReserved:
      return "reserved";
    case EntryState::kCommitted:
      return "committed";
    case EntryState::kRefunded:
      return "refunded";
  }
  return "unknown";
}

}  // namespace dpq::core::ledger
