// The words and numbers of `dpq`'s tables and sentences for people: reals,
// counts, timestamps, and the names of measures, estimates, types, ledger
// states and dataset kinds.
#ifndef DPQ_CLIENT_FORMAT_H_
#define DPQ_CLIENT_FORMAT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "dpq/v1/buyer_service.pb.h"
#include "dpq/v1/dataset.pb.h"
#include "dpq/v1/ledger.pb.h"
#include "google/protobuf/timestamp.pb.h"

namespace dpq::client {

// Server text made safe for a terminal (TerminalSafe), or "-" if empty.
std::string OrDash(absl::string_view text);
// "Older entries: the same command with --page-token T\n" for a page's
// next_page_token T; "" on the last page.
std::string OlderPageHint(absl::string_view next_page_token);
// Reals with up to 6 significant digits: 1, 0.333333.
std::string FormatReal(double value);
// An epsilon amount of the API exactly, from its *_units sibling
// (core::ledger::UnitsDecimal: "15.6", "0.000000000001"); `value` (its
// double) with FormatReal only when units is 0 and value is not (a server
// that predates the units fields).
std::string FormatEpsilon(int64_t units, double value);
// "MI", "P", "R" (or "UNSPECIFIED").
std::string MeasureCode(dpq::v1::Measure measure);
// "I_MI (conflicting pairs)", "I_P (tuples in conflicts)",
// "I_R (minimal repair deletions)".
std::string MeasureLabel(dpq::v1::Measure measure);
// The codes of the measures a dataset answers, joined by `sep`: "MI,P,R".
std::string MeasuresList(const dpq::v1::DatasetInfo& info,
                         absl::string_view sep);
// The 95% interval of a result in words: "610 to 980" or, when nothing
// bounds the undercount, "at least 610".
std::string IntervalRange(const dpq::v1::MeasureResult& result);
// What the interval covers: "noise only" (the estimate cannot miss more),
// "includes the possible undercount" (theta may cut rows, or I_R's LP
// bound; the upper end says by how much at most), "includes the possible
// overcount" (vertex_cover) or "no upper limit known: may undercount"
// (one-sided).
std::string IntervalNote(const dpq::v1::MeasureResult& result);
// "int64", "double", "string", "inferred".
std::string ColumnTypeName(dpq::v1::ColumnType type);
// "RESERVED", "COMMITTED", "REFUNDED", "CHARGED", "UNSPECIFIED".
std::string LedgerStateName(dpq::v1::LedgerEntryState state);
// "table" (also for UNSPECIFIED, the default) or "graph".
std::string KindName(dpq::v1::DatasetKind kind);
// A count for tables: integers exactly ("12", "-3"), other values with two
// decimals ("12.35"); non-finite values as "nan"/"inf".
std::string FormatCount(double count);
// RFC 3339 in UTC, e.g. "2024-05-01T12:00:00Z"; "-" if unset (zero).
std::string FormatTimestamp(const google::protobuf::Timestamp& ts);

}  // namespace dpq::client

#endif  // DPQ_CLIENT_FORMAT_H_
