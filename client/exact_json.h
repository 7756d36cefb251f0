// Exact epsilon amounts in `dpq --json` output. Every epsilon amount of the
// API is a double with an exact int64 sibling `<name>_units` (units of
// 10^-12 epsilon; docs/service.md, "Exact amounts"). protobuf's JSON
// printer shows the double's shortest round-trip digits, which for amounts
// of more than 15 significant digits is float noise
// ("1234.0000000000011"). WithExactAmounts replaces, in every object that
// has both, the number of "x" by the exact decimal of "xUnits"
// (core::ledger::UnitsDecimal) as a JSON number literal: "remaining":15.6.
#ifndef DPQ_CLIENT_EXACT_JSON_H_
#define DPQ_CLIENT_EXACT_JSON_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::client {

// `json` (one JSON value, as protobuf's JSON printer writes it) with each
// member "x" whose value is a number replaced by the exact decimal of the
// sibling member "xUnits" (a decimal integer, in a string as proto3 JSON
// writes int64, or a bare number). A "0" units value beside a non-zero
// number (a server that predates the units fields) leaves the number as it
// is. Everything else is copied unchanged, whitespace included.
// kInternal if `json` is not well-formed.
absl::StatusOr<std::string> WithExactAmounts(absl::string_view json);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_EXACT_JSON_H_
