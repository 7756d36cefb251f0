// dpq-stock: writes a synthetic Stock-like table (daily quotes) and its DCs.
//
//   dpq-stock --rows N [--seed S] --output F.csv --dcs-output F.dc
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "bench/generators/cli_flags.h"
#include "bench/generators/stock_generator.h"
#include "core/util/status_macros.h"

namespace dpq::bench {
namespace {

constexpr char kUsage[] =
    "usage: dpq-stock --rows N [--seed S] --output F.csv --dcs-output F.dc\n";

absl::Status Run(int argc, char** argv) {
  ASSIGN_OR_RETURN(
      CliFlags flags,
      CliFlags::Parse(argc, argv, {"rows", "seed", "output", "dcs-output"}));
  if (flags.Has("help")) {
    std::fputs(kUsage, stdout);
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::string output, flags.Require("output"));
  ASSIGN_OR_RETURN(std::string dcs_output, flags.Require("dcs-output"));
  ASSIGN_OR_RETURN(uint64_t rows, flags.GetUint("rows", 10'000));
  ASSIGN_OR_RETURN(uint64_t seed, flags.GetUint("seed", 1));
  ASSIGN_OR_RETURN(generators::CellTable table,
                   generators::GenerateStock({.rows = rows, .seed = seed}));
  RETURN_IF_ERROR(generators::WriteCsvFile(table, output));
  RETURN_IF_ERROR(
      generators::WriteTextFile(generators::StockConstraints(), dcs_output));
  std::printf("%zu\n", table.rows.size());
  return absl::OkStatus();
}

}  // namespace
}  // namespace dpq::bench

int main(int argc, char** argv) {
  const absl::Status status = dpq::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "dpq-stock: %s\n%s", status.ToString().c_str(),
                 dpq::bench::kUsage);
    return 2;
  }
  return 0;
}
