#include "bench/peers/report_table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace dpq::bench::peers {
namespace {

constexpr int kFields = 12;

absl::Status BadField(absl::string_view name, absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat("results line: bad ", name, " '", value, "'"));
}

// Two significant digits, without an exponent: 0.14, 2.8, 44, 120.
std::string TwoDigits(double value) {
  if (value >= 10) return absl::StrFormat("%.0f", value);
  if (value >= 1) return absl::StrFormat("%.1f", value);
  return absl::StrFormat("%.2f", value);
}

// "4,674,840": counts are long.
std::string GroupThousands(absl::string_view digits) {
  std::string out;
  const size_t n = digits.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string PairsCell(const PeerRun& run) {
  if (CountsAgree(run)) return GroupThousands(run.dpq_count);
  return absl::StrCat("**MISMATCH** dpq ", run.dpq_count, ", DuckDB ",
                      run.duckdb_count);
}

}  // namespace

absl::StatusOr<PeerRun> ParseRunLine(absl::string_view line) {
  const std::vector<absl::string_view> f = absl::StrSplit(line, '\t');
  if (f.size() != kFields) {
    return absl::InvalidArgumentError(absl::StrCat("results line: ", f.size(),
                                                   " fields, expected ",
                                                   kFields, ": '", line, "'"));
  }
  PeerRun run;
  run.table = std::string(f[0]);
  run.dcs = std::string(f[1]);
  run.dpq_count = std::string(f[2]);
  if (!absl::SimpleAtod(f[3], &run.dpq_seconds)) {
    return BadField("dpq seconds", f[3]);
  }
  if (!absl::SimpleAtod(f[4], &run.dpq_cpu_seconds)) {
    return BadField("dpq CPU seconds", f[4]);
  }
  if (!absl::SimpleAtoi(f[5], &run.dpq_rss_kb)) {
    return BadField("dpq RSS", f[5]);
  }
  run.duckdb_count = std::string(f[6]);
  if (!absl::SimpleAtod(f[7], &run.duckdb_load_seconds)) {
    return BadField("DuckDB load seconds", f[7]);
  }
  if (!absl::SimpleAtod(f[8], &run.duckdb_query_seconds)) {
    return BadField("DuckDB query seconds", f[8]);
  }
  if (!absl::SimpleAtod(f[9], &run.duckdb_cpu_seconds)) {
    return BadField("DuckDB CPU seconds", f[9]);
  }
  if (!absl::SimpleAtoi(f[10], &run.duckdb_rss_kb)) {
    return BadField("DuckDB RSS", f[10]);
  }
  run.load_average = std::string(f[11]);
  return run;
}

std::string FormatSeconds(double seconds) {
  return absl::StrCat(TwoDigits(std::max(seconds, 0.01)), " s");
}

std::string FormatMemory(int64_t kib) {
  const double mb = static_cast<double>(kib) * 1024 / 1e6;
  if (mb >= 1000) return absl::StrCat(TwoDigits(mb / 1000), " GB");
  return absl::StrFormat("%.0f MB", mb);
}

std::string FormatSpeedup(double dpq_seconds, double duckdb_seconds) {
  const double ratio = duckdb_seconds / std::max(dpq_seconds, 0.01);
  return absl::StrCat(TwoDigits(ratio), "x");
}

bool CountsAgree(const PeerRun& run) {
  return !run.dpq_count.empty() && run.dpq_count == run.duckdb_count;
}

std::string RenderTable(const std::vector<PeerRun>& runs) {
  std::string out =
      "| table | DCs | conflicting pairs | dpq | DuckDB load + query | dpq "
      "speed-up | CPU dpq / DuckDB | peak RSS dpq / DuckDB | load avg |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const PeerRun& r : runs) {
    const double duckdb = r.duckdb_load_seconds + r.duckdb_query_seconds;
    absl::StrAppend(
        &out, "| ", r.table, " | ", r.dcs, " | ", PairsCell(r), " | ",
        FormatSeconds(r.dpq_seconds), " | ", FormatSeconds(duckdb), " (",
        FormatSeconds(r.duckdb_load_seconds), " + ",
        FormatSeconds(r.duckdb_query_seconds), ") | ",
        FormatSpeedup(r.dpq_seconds, duckdb), " | ",
        FormatSeconds(r.dpq_cpu_seconds), " / ",
        FormatSeconds(r.duckdb_cpu_seconds), " | ", FormatMemory(r.dpq_rss_kb),
        " / ", FormatMemory(r.duckdb_rss_kb), " | ", r.load_average, " |\n");
  }
  return out;
}

}  // namespace dpq::bench::peers
