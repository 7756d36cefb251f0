// dpq-experiments: reproduces the experiments of Section 6 of "Computing
// Inconsistency Measures Under Differential Privacy" with dpq's core and
// writes results.csv plus one gnuplot PNG per figure; "accuracy" writes
// accuracy.csv and prints its Markdown table ("small" small.csv, "general"
// general.csv, likewise), "gem-tune" writes
// gem-tune.csv and prints its ranking. See docs/experiments.md; the full
// run is bench/experiments/run-all.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bench/experiments/experiment_data.h"
#include "bench/experiments/experiment_runner.h"
#include "bench/experiments/figure_plots.h"
#include "bench/experiments/gem_tuning.h"
#include "bench/experiments/general_dc_tables.h"
#include "bench/experiments/small_tables.h"
#include "bench/generators/cell_table.h"
#include "bench/generators/cli_flags.h"
#include "core/util/status_macros.h"

namespace dpq::bench::experiments {
namespace {

constexpr char kUsage[] =
    "usage: dpq-experiments --out-dir DIR [--figures "
    "fig3,fig4,fig5,grid,fig7,accuracy,small,general,gem-tune]\n"
    "         [--datasets stock,tax,hospital,flights,adult] [--runs 10]\n"
    "         [--epsilons 0.1,0.2,0.5,1,2,3,5] [--noises "
    "rnoise-0.005,rnoise-0.01,conoise-200,dirty]\n"
    "         [--checkpoints 5] [--rows 10000] [--seed 1] [--n-factor 1]\n"
    "         [--accuracy-epsilon 1]\n"
    "         [--vc-seconds 10] [--runtime-sizes 100,1000,10000,50000]\n"
    "         [--data-dir shared/data] [--plot 1]\n";

std::vector<std::string> List(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

absl::StatusOr<std::vector<double>> Doubles(const std::string& flag,
                                            const std::string& text) {
  std::vector<double> out;
  for (const std::string& s : List(text)) {
    double v = 0;
    if (!absl::SimpleAtod(s, &v)) {
      return absl::InvalidArgumentError("--" + flag + ": '" + s +
                                        "' is not a number.");
    }
    out.push_back(v);
  }
  return out;
}

absl::Status Run(int argc, char** argv) {
  ASSIGN_OR_RETURN(
      CliFlags flags,
      CliFlags::Parse(
          argc, argv,
          {"out-dir", "figures", "datasets", "runs", "epsilons", "noises",
           "checkpoints", "rows", "seed", "n-factor", "vc-seconds",
           "runtime-sizes", "data-dir", "plot", "accuracy-epsilon"}));
  if (flags.Has("help")) {
    std::fputs(kUsage, stdout);
    return absl::OkStatus();
  }
  ExperimentOptions o;
  ASSIGN_OR_RETURN(std::string out_dir, flags.Require("out-dir"));
  o.data_dir = flags.GetString("data-dir", DPQ_SHARED_DATA_DIR);
  o.figures = List(flags.GetString("figures", "fig3,fig4,fig5,grid,fig7"));
  o.datasets = flags.Has("datasets") ? List(flags.GetString("datasets"))
                                     : AllDatasetNames();
  if (flags.Has("noises")) o.grid_noises = List(flags.GetString("noises"));
  if (flags.Has("epsilons")) {
    ASSIGN_OR_RETURN(o.epsilons,
                     Doubles("epsilons", flags.GetString("epsilons")));
  }
  if (flags.Has("runtime-sizes")) {
    ASSIGN_OR_RETURN(
        std::vector<double> sizes,
        Doubles("runtime-sizes", flags.GetString("runtime-sizes")));
    o.runtime_sizes.assign(sizes.begin(), sizes.end());
  }
  ASSIGN_OR_RETURN(o.runs, flags.GetUint("runs", 10));
  ASSIGN_OR_RETURN(o.checkpoints, flags.GetUint("checkpoints", 5));
  ASSIGN_OR_RETURN(o.rows, flags.GetUint("rows", 10'000));
  ASSIGN_OR_RETURN(o.seed, flags.GetUint("seed", 1));
  ASSIGN_OR_RETURN(o.n_factor, flags.GetDouble("n-factor", 1.0));
  ASSIGN_OR_RETURN(o.accuracy_epsilon,
                   flags.GetDouble("accuracy-epsilon", 1.0));
  ASSIGN_OR_RETURN(o.vertex_cover_seconds, flags.GetDouble("vc-seconds", 10));
  ASSIGN_OR_RETURN(uint64_t plot, flags.GetUint("plot", 1));
  if (!(o.n_factor >= 1)) {
    return absl::InvalidArgumentError("--n-factor must be >= 1 (N >= rows).");
  }
  std::error_code mkdir_error;
  std::filesystem::create_directories(out_dir, mkdir_error);
  if (mkdir_error) {
    return absl::InternalError("Cannot create --out-dir " + out_dir + ": " +
                               mkdir_error.message());
  }
  o.progress = &std::cerr;
  const auto wants = [&](const std::string& figure) {
    return std::find(o.figures.begin(), o.figures.end(), figure) !=
           o.figures.end();
  };
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t)
        .count();
  };
  auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(std::vector<ResultRow> all_rows, RunExperiments(o));
  std::vector<ResultRow> rows, accuracy;
  for (ResultRow& r : all_rows) {
    (r.figure == "accuracy" ? accuracy : rows).push_back(std::move(r));
  }
  // results.csv only when a paper figure was asked for, so that
  // "--figures accuracy" does not replace the paper's results.
  if (!rows.empty()) {
    RETURN_IF_ERROR(
        generators::WriteTextFile(ResultsCsv(rows), out_dir + "/results.csv"));
    RETURN_IF_ERROR(WritePlots(rows, o.datasets, out_dir, plot != 0));
    std::fprintf(stderr, "wrote %zu rows to %s/results.csv\n", rows.size(),
                 out_dir.c_str());
  }
  if (wants("accuracy")) {
    RETURN_IF_ERROR(generators::WriteTextFile(ResultsCsv(accuracy),
                                              out_dir + "/accuracy.csv"));
    std::fputs(AccuracyMarkdown(accuracy).c_str(), stdout);
    std::fprintf(stderr, "wrote %zu rows to %s/accuracy.csv\n", accuracy.size(),
                 out_dir.c_str());
  }
  std::fprintf(stderr, "figures other than gem-tune: %.1f s\n",
               seconds_since(start));
  // The small and general figures' options.
  SmallTablesOptions small;
  small.data_dir = o.data_dir;
  small.runs = o.runs;
  small.epsilon = o.accuracy_epsilon;
  small.n_factor = o.n_factor;
  small.seed = o.seed;
  small.progress = &std::cerr;
  if (wants("small")) {
    start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(const std::vector<SmallTableRow> small_rows,
                     RunSmallTables(small));
    RETURN_IF_ERROR(generators::WriteTextFile(SmallTablesCsv(small_rows),
                                              out_dir + "/small.csv"));
    std::fputs(SmallTablesMarkdown(small_rows).c_str(), stdout);
    std::fprintf(stderr, "small: %.1f s; wrote %s/small.csv\n",
                 seconds_since(start), out_dir.c_str());
  }
  if (wants("general")) {
    start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(const std::vector<GeneralDcRow> general_rows,
                     RunGeneralDcTables(small));
    RETURN_IF_ERROR(generators::WriteTextFile(GeneralDcCsv(general_rows),
                                              out_dir + "/general.csv"));
    std::fputs(GeneralDcMarkdown(general_rows).c_str(), stdout);
    std::fprintf(stderr, "general: %.1f s; wrote %s/general.csv\n",
                 seconds_since(start), out_dir.c_str());
  }
  if (wants("gem-tune")) {
    start = std::chrono::steady_clock::now();
    ASSIGN_OR_RETURN(GemTuneResult tune,
                     RunGemTuning(o, DefaultGemTuneGrid(), /*epsilon=*/1.0));
    RETURN_IF_ERROR(
        generators::WriteTextFile(GemTuneCsv(tune), out_dir + "/gem-tune.csv"));
    if (wants("accuracy")) std::fputs("\n", stdout);
    std::fputs(GemTuneTable(tune).c_str(), stdout);
    std::fputs("\n", stdout);
    std::fputs(GemTuneProfiles(tune).c_str(), stdout);
    std::fprintf(stderr,
                 "gem-tune: %zu settings, %.1f s; wrote %s/gem-tune.csv\n",
                 tune.settings.size(), seconds_since(start), out_dir.c_str());
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace dpq::bench::experiments

int main(int argc, char** argv) {
  const absl::Status status = dpq::bench::experiments::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "dpq-experiments: %s\n%s", status.ToString().c_str(),
                 dpq::bench::experiments::kUsage);
    return 2;
  }
  return 0;
}
