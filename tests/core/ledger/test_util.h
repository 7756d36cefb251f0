// Helpers for the ledger tests.
#ifndef DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
#define DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_

#include <string>

#include "core/ledger/ledger.h"

namespace dpq::core::ledger::testing {

// A LedgerFilter (designated initialisers would trip
// -Wmissing-field-initializers).
inline LedgerFilter Filter(const std::string& buyer_id,
                           const std::string& dataset_id = "",
                           size_t limit = 100) {
  LedgerFilter filter;
  filter.buyer_id = buyer_id;
  filter.dataset_id = dataset_id;
  filter.limit = limit;
  return filter;
}

}  // namespace dpq::core::ledger::testing

#endif  // DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
