// Helpers for the ledger tests.
#ifndef DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
#define DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_

#include <string>

#include "core/ledger/epsilon_units.h"
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

// A MeasureInconsistency reservation of `epsilon` by `buyer` on `dataset`,
// its fingerprint made from the dataset and epsilon. The epsilon is
// quantised as the service does: a request's epsilon is whole ledger units
// (0.1 is then charged 0.1 exactly, not 0.1 + 10^-12).
inline ReserveRequest Request(const std::string& request_id, double epsilon,
                              const std::string& buyer = "alice",
                              const std::string& dataset = "hospital") {
  ReserveRequest request;
  request.buyer_id = buyer;
  request.dataset_id = dataset;
  request.request_id = request_id;
  request.fingerprint = "fp:" + dataset + ":" + std::to_string(epsilon);
  request.operation = "MeasureInconsistency MI optimized";
  request.neighbouring = "tuple";
  request.epsilon = QuantizedEpsilon(epsilon);
  return request;
}

}  // namespace dpq::core::ledger::testing

#endif  // DPQ_TESTS_CORE_LEDGER_TEST_UTIL_H_
