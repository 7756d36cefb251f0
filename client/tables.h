// Tables that several commands print: budgets (budget, admin ledger),
// ledger entries (budget --history, admin ledger) and cuboids (describe,
// cuboids).
#ifndef DPQ_CLIENT_TABLES_H_
#define DPQ_CLIENT_TABLES_H_

#include <string>

#include "dpq/v1/dataset.pb.h"
#include "dpq/v1/ledger.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace dpq::client {

// DATASET GRANTED SPENT RESERVED REMAINING, after BUYER if `with_buyer`.
std::string BudgetTable(
    const google::protobuf::RepeatedPtrField<dpq::v1::Budget>& budgets,
    bool with_buyer);

// ENTRY CREATED [BUYER] DATASET OPERATION EPSILON STATE REQUEST_ID.
std::string LedgerTable(
    const google::protobuf::RepeatedPtrField<dpq::v1::LedgerEntry>& entries,
    bool with_buyer);

// A cuboid: one column per dimension, then COUNT (a cell's missing labels
// are empty).
std::string CuboidTable(const dpq::v1::Cuboid& cuboid);

// The name of a cuboid for people: "Sex, Age", or "(total)" for the apex.
std::string CuboidName(const dpq::v1::Cuboid& cuboid);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_TABLES_H_
