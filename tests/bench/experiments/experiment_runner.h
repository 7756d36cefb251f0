// The experiments of the paper's Section 6 ("Inconsistency measures under
// DP"), run with dpq's own core: which graphs, epsilons and methods each
// figure needs, the result rows, and the CSV they are written to.
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_RUNNER_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tests/bench/experiments/measure_evaluation.h"

namespace dpq::bench::experiments {

struct ExperimentOptions {
  std::string data_dir;
  // Datasets in plotting order (AllDatasetNames() by default).
  std::vector<std::string> datasets;
  // "fig3" (RNoise 0.01, true vs private over iterations, eps 1), "fig4"
  // (CONoise 200, same), "fig5" (all methods, RNoise 0.01, eps 1), "grid"
  // (every noise of grid_noises x epsilon x method; Figure 6 is its
  // RNoise-0.005 slice), "fig7" (runtime: Tax sizes, Flights #DCs).
  std::vector<std::string> figures;
  std::vector<double> epsilons = {0.1, 0.2, 0.5, 1, 2, 3, 5};
  std::vector<std::string> grid_noises = {"rnoise-0.005", "rnoise-0.01",
                                          "conoise-200", "dirty"};
  // Iteration checkpoints of Figures 3-5 (evenly spaced, the last one is
  // the full noise level).
  size_t checkpoints = 5;
  size_t runs = 10;
  size_t rows = 10'000;              // the paper's 10k subsets
  uint64_t seed = 1;                 // data subsets, noise and DP noise
  double n_factor = 1.0;             // N = n_factor * rows
  double vertex_cover_seconds = 10;  // exact I_R search per graph
  // Figure 7's Tax sizes (rows of the 50k file; the paper goes to 1M).
  std::vector<size_t> runtime_sizes = {100, 1000, 10'000, 50'000};
  std::ostream* progress = nullptr;  // one line per graph, if set
};

struct ResultRow {
  std::string figure, dataset, noise;
  size_t iterations = 0;     // noise iterations applied (x of Figs 3-5)
  size_t changed_cells = 0;  // cells differing from the clean table
  size_t num_dcs = 0;
  uint64_t nodes = 0, edges = 0;
  uint32_t max_degree = 0;
  double epsilon = 0;
  std::string method, measure;  // measure: "MI", "P", "R"
  std::string reference;        // "count" (I_MI, I_P), "exact" or "lp" (I_R)
  RunStats stats;
  // I_R rows: the non-private stable greedy cover Algorithm 5 perturbs.
  double greedy_cover = 0;
  double build_seconds = 0;
};

// Runs the requested figures. kInvalidArgument for unknown names; errors of
// loading, noise generation and the core.
absl::StatusOr<std::vector<ResultRow>> RunExperiments(
    const ExperimentOptions& options);

// The CSV header and one line per row (numbers with 6 significant digits).
std::string ResultsCsv(const std::vector<ResultRow>& rows);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_RUNNER_H_
