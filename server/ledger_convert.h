// Proto <-> core conversions shared by the BuyerService and AdminService
// handlers (docs/architecture.md 2: conversion lives in server/*_convert.*).
#ifndef DPQ_SERVER_LEDGER_CONVERT_H_
#define DPQ_SERVER_LEDGER_CONVERT_H_

#include "absl/time/time.h"
#include "core/ledger/ledger.h"
#include "dpq/v1/ledger.pb.h"
#include "server/timestamp.h"

namespace dpq::server {

// All fields, with remaining = granted - spent - reserved; the *_units
// fields straight from the store's units (never through a double).
v1::Budget ToProto(const core::ledger::BudgetState& budget);

// All public fields of the entry (fingerprint and the recorded answer are
// not part of the proto). settled_at is unset while the entry is reserved.
v1::LedgerEntry ToProto(const core::ledger::LedgerEntry& entry);

}  // namespace dpq::server

#endif  // DPQ_SERVER_LEDGER_CONVERT_H_
