// dpq-r2t: Table 1 of the inconsistency-measures paper (docs/r2t.md) on one
// dataset.
// Loads a CSV and its DCs, builds the conflict graph, and for `runs` runs
// prints the true I_MI, the R2T baseline's estimate (r2t.h) and dpq's own
// private I_MI (core/private ComputePrivateMeasure, one or more methods)
// with their relative errors |I - M| / I, then the mean and standard
// deviation. A benchmark for
// data owners and the paper reproduction: it reads the raw rows.
#ifndef DPQ_TESTS_BENCH_R2T_R2T_TOOL_H_
#define DPQ_TESTS_BENCH_R2T_R2T_TOOL_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace dpq::bench::r2t {

struct R2tToolOptions {
  std::string data_path;
  std::string dcs_path;
  double epsilon = 1;
  int runs = 10;
  std::optional<uint64_t> seed;  // HashDrbg streams; else OpenSSL's CSPRNG
  std::optional<uint64_t> public_max_rows;  // N; default the row count
  double beta = 0.1;
  double base = 2;
  std::string solver = "flow";
  bool authors_thresholds = false;  // ThresholdRule::kAuthorsCode
  // dpq's I_MI methods (core ParseSelectionMethod names), each released
  // once per run with its own noise stream: the first fills the CSV's
  // dpq_* columns (the paper's `optimized` by default, as Table 1 always
  // had), every further one appends dpq_<name>_estimate,
  // dpq_<name>_rel_error and dpq_<name>_seconds (by default `gem`, dpq's
  // default). --method takes a comma-separated list.
  std::vector<std::string> methods = {"optimized", "gem"};
  std::optional<std::string> csv_path;
  std::string label;  // dataset name in the CSV; default the data path
  int threads = 0;
};

// `--flag value` or `--flag=value`; argv[0] skipped. kInvalidArgument naming
// the flag for unknown flags and bad or missing values.
absl::StatusOr<R2tToolOptions> ParseR2tToolArgs(
    const std::vector<std::string>& args);
std::string R2tToolUsage();

// Runs everything, writing the human-readable report to `out` (and the CSV
// file if asked). Errors from loading, graph building, R2T or dpq.
absl::Status RunR2tTool(const R2tToolOptions& options, std::ostream& out);

}  // namespace dpq::bench::r2t

#endif  // DPQ_TESTS_BENCH_R2T_R2T_TOOL_H_
