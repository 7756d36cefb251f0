// dpq-noise: adds RNoise or CONoise violations (paper Section 6.1) to a
// clean CSV file. Prints the number of changed cells on stdout.
//
//   dpq-noise --input clean.csv --dcs c.dc --method rnoise|conoise
//             [--alpha 0.001] [--iterations 200] [--seed S] --output out.csv
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "bench/generators/cli_flags.h"
#include "bench/generators/conoise.h"
#include "bench/generators/rnoise.h"
#include "core/constraints/dc_parser.h"
#include "core/util/status_macros.h"

namespace dpq::bench {
namespace {

constexpr char kUsage[] =
    "usage: dpq-noise --input clean.csv --dcs c.dc --method rnoise|conoise\n"
    "                 [--alpha 0.001] [--iterations 200] [--seed S] --output "
    "out.csv\n";

absl::Status Run(int argc, char** argv) {
  ASSIGN_OR_RETURN(CliFlags flags,
                   CliFlags::Parse(argc, argv,
                                   {"input", "dcs", "method", "alpha",
                                    "iterations", "seed", "output"}));
  if (flags.Has("help")) {
    std::fputs(kUsage, stdout);
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::string input, flags.Require("input"));
  ASSIGN_OR_RETURN(std::string dcs_path, flags.Require("dcs"));
  ASSIGN_OR_RETURN(std::string method, flags.Require("method"));
  ASSIGN_OR_RETURN(std::string output, flags.Require("output"));
  ASSIGN_OR_RETURN(double alpha, flags.GetDouble("alpha", 0.001));
  ASSIGN_OR_RETURN(uint64_t iterations, flags.GetUint("iterations", 200));
  ASSIGN_OR_RETURN(uint64_t seed, flags.GetUint("seed", 1));

  ASSIGN_OR_RETURN(generators::CellTable clean,
                   generators::ReadCellTable(input));
  ASSIGN_OR_RETURN(auto dcs, core::constraints::ReadDenialConstraintsFile(
                                 dcs_path, clean.schema));
  generators::NoiseLog log;
  if (method == "rnoise") {
    ASSIGN_OR_RETURN(log, generators::GenerateRNoise(
                              clean, dcs, {.alpha = alpha, .seed = seed}));
  } else if (method == "conoise") {
    ASSIGN_OR_RETURN(log,
                     generators::GenerateCoNoise(
                         clean, dcs, {.iterations = iterations, .seed = seed}));
  } else {
    return absl::InvalidArgumentError(
        "--method must be 'rnoise' or 'conoise', but is '" + method + "'.");
  }
  const generators::CellTable noisy =
      generators::ApplyNoise(clean, log, log.iterations.size());
  RETURN_IF_ERROR(generators::WriteCsvFile(noisy, output));
  std::printf("%zu\n", generators::CountChangedCells(clean, noisy));
  return absl::OkStatus();
}

}  // namespace
}  // namespace dpq::bench

int main(int argc, char** argv) {
  const absl::Status status = dpq::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "dpq-noise: %s\n%s", status.ToString().c_str(),
                 dpq::bench::kUsage);
    return 2;
  }
  return 0;
}
