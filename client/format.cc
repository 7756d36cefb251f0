#include "client/format.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "client/terminal_text.h"
#include "core/ledger/epsilon_units.h"

namespace dpq::client {

std::string OrDash(absl::string_view text) {
  return text.empty() ? "-" : TerminalSafe(text);
}

std::string OlderPageHint(absl::string_view next_page_token) {
  if (next_page_token.empty()) return "";
  return absl::StrCat("Older entries: the same command with --page-token ",
                      TerminalSafe(next_page_token), "\n");
}

std::string FormatReal(double value) {
  if (value == 0) return "0";  // also -0
  return absl::StrFormat("%.6g", value);
}

std::string FormatEpsilon(int64_t units, double value) {
  if (units == 0 && value != 0) return FormatReal(value);
  return core::ledger::UnitsDecimal(units);
}

std::string MeasureCode(dpq::v1::Measure measure) {
  switch (measure) {
    case dpq::v1::MEASURE_MI:
      return "MI";
    case dpq::v1::MEASURE_P:
      return "P";
    case dpq::v1::MEASURE_R:
      return "R";
    default:
      return "UNSPECIFIED";
  }
}

std::string MeasuresList(const dpq::v1::DatasetInfo& info,
                         absl::string_view sep) {
  std::vector<std::string> codes;
  for (int m : info.supported_measures()) {
    codes.push_back(MeasureCode(static_cast<dpq::v1::Measure>(m)));
  }
  return absl::StrJoin(codes, sep);
}

std::string MeasureLabel(dpq::v1::Measure measure) {
  switch (measure) {
    case dpq::v1::MEASURE_MI:
      return "I_MI (conflicting pairs)";
    case dpq::v1::MEASURE_P:
      return "I_P (tuples in conflicts)";
    case dpq::v1::MEASURE_R:
      return "I_R (minimal repair deletions)";
    default:
      return "unspecified measure";
  }
}

std::string IntervalRange(const dpq::v1::MeasureResult& result) {
  if (!result.upper_proved())
    return absl::StrCat("at least ", result.lower95());
  return absl::StrCat(result.lower95(), " to ", result.upper95());
}

std::string IntervalNote(const dpq::v1::MeasureResult& result) {
  if (!result.upper_proved()) return "no upper limit known: may undercount";
  if (result.estimate() == dpq::v1::ESTIMATE_LOWER_BOUND &&
      (result.measure() == dpq::v1::MEASURE_R || result.truncated())) {
    return "includes the possible undercount";
  }
  if (result.estimate() == dpq::v1::ESTIMATE_UPPER_BOUND) {
    return "includes the possible overcount";
  }
  return "noise only";
}

std::string ColumnTypeName(dpq::v1::ColumnType type) {
  switch (type) {
    case dpq::v1::COLUMN_TYPE_INT64:
      return "int64";
    case dpq::v1::COLUMN_TYPE_DOUBLE:
      return "double";
    case dpq::v1::COLUMN_TYPE_STRING:
      return "string";
    default:
      return "inferred";
  }
}

std::string LedgerStateName(dpq::v1::LedgerEntryState state) {
  switch (state) {
    case dpq::v1::LEDGER_ENTRY_STATE_RESERVED:
      return "RESERVED";
    case dpq::v1::LEDGER_ENTRY_STATE_COMMITTED:
      return "COMMITTED";
    case dpq::v1::LEDGER_ENTRY_STATE_REFUNDED:
      return "REFUNDED";
    case dpq::v1::LEDGER_ENTRY_STATE_CHARGED:
      return "CHARGED";
    default:
      return "UNSPECIFIED";
  }
}

std::string KindName(dpq::v1::DatasetKind kind) {
  return kind == dpq::v1::DATASET_KIND_GRAPH ? "graph" : "table";
}

std::string FormatCount(double count) {
  if (std::isnan(count)) return "nan";
  if (std::isinf(count)) return count > 0 ? "inf" : "-inf";
  // Below 2^53 every integer is exact, and the cast cannot overflow.
  if (std::fabs(count) < 9007199254740992.0 && count == std::trunc(count)) {
    return absl::StrCat(static_cast<int64_t>(count));
  }
  return absl::StrFormat("%.2f", count);
}

std::string FormatTimestamp(const google::protobuf::Timestamp& ts) {
  if (ts.seconds() == 0 && ts.nanos() == 0) return "-";
  const absl::Time t =
      absl::FromUnixSeconds(ts.seconds()) + absl::Nanoseconds(ts.nanos());
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

}  // namespace dpq::client
