// dpq-measure: the data owner's local tool. It reads a private CSV and its
// DCs and prints one inconsistency measure, exact or under DP, as one JSON
// object. Buyers never run it: it reads the raw rows.
#ifndef DPQ_SERVER_TOOLS_MEASURE_TOOL_H_
#define DPQ_SERVER_TOOLS_MEASURE_TOOL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace dpq::server::tools {

struct MeasureToolOptions {
  std::string data_path;
  std::string constraints_path;
  // Column types (`name: int64|double|string` lines). Without it every
  // column is text: a data-independent default, never a per-run inference
  // (which one added row could flip: docs/core.md).
  std::optional<std::string> schema_path;
  // --print-schema: print the types inference suggests for data_path (in
  // the --schema format) and exit; the owner reviews and freezes them.
  bool print_schema = false;
  std::string measure;  // mi | p | r | d | mc
  bool exact = false;   // exactly one of exact / epsilon
  std::optional<double> epsilon;
  // DP only. Empty: the measure's default (gem for mi and p, cover_bound
  // for r). "exact" for r computes the exact minimum cover first (as the
  // service does at registration) and fails if it cannot be proven.
  std::string method;
  std::optional<uint64_t> public_max_rows;
  std::optional<uint64_t> seed;  // reproducible noise (owners only)
  bool stats = false;
  int threads = 0;  // 0 = all cores
};

// Parses the command line (argv[0] is skipped). Accepts `--flag value` and
// `--flag=value`. kInvalidArgument with a message naming the flag for an
// unknown flag, a missing or malformed value, a missing required flag, or
// --exact together with --epsilon (or neither).
absl::StatusOr<MeasureToolOptions> ParseMeasureToolArgs(
    const std::vector<std::string>& args);

// The usage text printed with usage errors and for --help.
std::string MeasureToolUsage();

// Runs the tool and returns the JSON line (without newline), or with
// --print-schema the schema text. Warnings for the user (e.g. that N
// defaults to the true row count, or that every column is read as text) are
// appended to `warnings`. Errors come from the core library (loading,
// parsing, building, measuring) and are returned unchanged.
absl::StatusOr<std::string> RunMeasureTool(const MeasureToolOptions& options,
                                           std::vector<std::string>* warnings);

}  // namespace dpq::server::tools

#endif  // DPQ_SERVER_TOOLS_MEASURE_TOOL_H_
