// Minimal `--name value` / `--name=value` flag parsing for the bench tools.
#ifndef DPQ_TESTS_BENCH_GENERATORS_CLI_FLAGS_H_
#define DPQ_TESTS_BENCH_GENERATORS_CLI_FLAGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "absl/status/statusor.h"

namespace dpq::bench {

class CliFlags {
 public:
  // Parses argv[1..]; every argument must be a flag from `known` with a
  // value (`--help` alone is allowed and sets "help"). kInvalidArgument
  // naming an unknown flag, a missing value or a stray argument.
  static absl::StatusOr<CliFlags> Parse(int argc, char** argv,
                                        const std::set<std::string>& known);

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::string GetString(const std::string& name,
                        const std::string& fallback = "") const;
  // kInvalidArgument naming the flag if present but not a number.
  absl::StatusOr<double> GetDouble(const std::string& name,
                                   double fallback) const;
  absl::StatusOr<uint64_t> GetUint(const std::string& name,
                                   uint64_t fallback) const;
  // kInvalidArgument naming the flag if it is missing.
  absl::StatusOr<std::string> Require(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace dpq::bench

#endif  // DPQ_TESTS_BENCH_GENERATORS_CLI_FLAGS_H_
