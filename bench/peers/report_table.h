// The side-by-side table of bench/peers/run.sh: one line per run of
// dpq and DuckDB on the same workload (docs/performance.md "Conflict
// detection against DuckDB").
#ifndef DPQ_TESTS_BENCH_PEERS_REPORT_TABLE_H_
#define DPQ_TESTS_BENCH_PEERS_REPORT_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::bench::peers {

// One measured run. Counts stay text: they are compared, never added.
struct PeerRun {
  std::string table;                // e.g. "tax 1M"
  std::string dcs;                  // e.g. "8 FDs"
  std::string dpq_count;            // dpq-measure --exact `value`
  double dpq_seconds = 0;           // whole process, start to printed result
  double dpq_cpu_seconds = 0;       // user + sys of the process
  int64_t dpq_rss_kb = 0;           // peak RSS (/usr/bin/time %M)
  std::string duckdb_count;         // count(*) of the union of self-joins
  double duckdb_load_seconds = 0;   // CREATE TABLE from the CSV
  double duckdb_query_seconds = 0;  // the count
  double duckdb_cpu_seconds = 0;    // user + sys of the whole Node.js process
  int64_t duckdb_rss_kb = 0;        // peak RSS of the Node.js process
  std::string load_average;         // "1.02 0.98 0.91" (1/5/15 min)
};

// Parses one tab-separated line of run.sh's results file, the 12 fields in
// the order of PeerRun. kInvalidArgument naming the field on a bad line.
absl::StatusOr<PeerRun> ParseRunLine(absl::string_view line);

// "0.14 s", "2.8 s", "44 s": two significant digits, at least 0.01 s.
std::string FormatSeconds(double seconds);
// Peak memory from KiB: "41 MB", "330 MB", "3.9 GB" (decimal units).
std::string FormatMemory(int64_t kib);
// DuckDB's time over dpq's: "6.3x", "0.54x".
std::string FormatSpeedup(double dpq_seconds, double duckdb_seconds);

// True if both systems counted the same pairs (and counted something).
bool CountsAgree(const PeerRun& run);

// A Markdown table, one row per run, in the given order. A row whose
// counts differ says so in its "pairs" column.
std::string RenderTable(const std::vector<PeerRun>& runs);

}  // namespace dpq::bench::peers

#endif  // DPQ_TESTS_BENCH_PEERS_REPORT_TABLE_H_
