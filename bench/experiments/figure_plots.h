// Gnuplot renderings of the experiment results, one PNG per figure of the
// paper's Section 6. Each script carries its data inline, so the .gp files
// next to the PNGs re-render without the CSV.
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_FIGURE_PLOTS_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_FIGURE_PLOTS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench/experiments/experiment_runner.h"

namespace dpq::bench::experiments {

// The legend of `method` in every figure: "gem (dpq default)",
// "cover_bound (dpq default)", "exact (dpq default with exact_repair)", and
// "<name> (paper)" for the paper's methods (optimized, vertex_cover, ...).
std::string MethodLegend(const std::string& method);

// Writes `<out_dir>/<figure>.gp` for every figure with rows (fig6 comes
// from the grid's rnoise-0.005 rows; every figure draws dpq's default
// methods next to the paper's, see FigureMethods in experiment_runner.h)
// and, if `render`, runs gnuplot on each to make `<figure>.png`. Returns the
// script paths' error if one cannot be written, kInternal if gnuplot fails.
absl::Status WritePlots(const std::vector<ResultRow>& rows,
                        const std::vector<std::string>& datasets,
                        const std::string& out_dir, bool render);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_FIGURE_PLOTS_H_
