// Protobuf messages written as text in the client tests: FromText parses
// one (a parse error fails the test); HospitalInfo and AliceBudget are the
// dataset and the budget that several commands' output tests print.
#ifndef DPQ_TESTS_CLIENT_PROTO_TEXT_TESTING_H_
#define DPQ_TESTS_CLIENT_PROTO_TEXT_TESTING_H_

#include <string>

#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace dpq::client {

// The T that `text` (protobuf text format) holds.
template <typename T>
T FromText(const std::string& text) {
  T message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message))
      << text;
  return message;
}

// A registered table dataset whose description needs escaping, with every
// measure and a public row bound.
inline ::dpq::v1::DatasetInfo HospitalInfo() {
  return FromText<::dpq::v1::DatasetInfo>(R"pb(
    dataset_id: "hospital"
    description: "Hospital \"quality\" data"
    columns { name: "zip" type: COLUMN_TYPE_INT64 }
    columns { name: "city" type: COLUMN_TYPE_STRING }
    constraints: "zip -> city"
    public_max_rows: 1000
    supported_measures: MEASURE_MI
    supported_measures: MEASURE_P
    supported_measures: MEASURE_R
    neighbouring: "one row added or removed (unbounded DP)"
    version: 2
    registered_at { seconds: 1714564800 }
  )pb");
}

// alice's budget on hospital (part of it reserved) with one committed
// ledger entry.
inline ::dpq::v1::GetBudgetResponse AliceBudget() {
  return FromText<::dpq::v1::GetBudgetResponse>(R"pb(
    budgets {
      buyer_id: "alice"
      dataset_id: "hospital"
      granted: 3
      spent: 1
      reserved: 0.5
      remaining: 1.5
    }
    history {
      entry_id: 7
      buyer_id: "alice"
      dataset_id: "hospital"
      request_id: "r-1"
      operation: "MeasureInconsistency MI optimized"
      epsilon: 1
      state: LEDGER_ENTRY_STATE_COMMITTED
      created_at { seconds: 1714564800 }
      settled_at { seconds: 1714564801 }
      neighbouring: "one row"
    }
  )pb");
}

}  // namespace dpq::client

#endif  // DPQ_TESTS_CLIENT_PROTO_TEXT_TESTING_H_
