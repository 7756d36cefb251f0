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
#include "bench/experiments/measure_evaluation.h"

namespace dpq::bench::experiments {

struct ExperimentOptions {
  std::string data_dir;
  // Datasets in plotting order (AllDatasetNames() by default).
  std::vector<std::string> datasets;
  // "fig3" (RNoise 0.01, true vs private over iterations, eps 1), "fig4"
  // (CONoise 200, same), "fig5" (the theta strategies, RNoise 0.01, eps 1),
  // "grid" (every noise of grid_noises x epsilon x method; Figure 6 is its
  // RNoise-0.005 slice), "fig7" (runtime: Tax sizes, Flights #DCs), each
  // with FigureMethods(figure),
  // "accuracy" (dpq's default methods against the paper's at epsilon 1:
  // AccuracyGraphs() x AccuracyMethods(); run it with n_factor 2 and 20
  // runs for the target table), "gem-tune" (gem_tuning.h; not run by
  // RunExperiments, only accepted).
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
  double accuracy_epsilon = 1.0;     // the "accuracy" figure's epsilon
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
  uint64_t public_max_rows = 0;  // N = ceil(n_factor * rows)
  double epsilon = 0;
  std::string method, measure;  // measure: "MI", "P", "R"
  std::string reference;        // "count" (I_MI, I_P), "exact" or "lp" (I_R)
  RunStats stats;
  // I_R rows: the non-private stable greedy cover Algorithm 5 perturbs.
  double greedy_cover = 0;
  double build_seconds = 0;
};

// The paper's methods (Section 6.1 "Algorithm variations" and Algorithm 5):
// baseline1, baseline2, basic, hierarchical, optimized, vertex_cover.
const std::vector<Method>& PaperMethods();
// dpq's defaults (docs/core.md): gem (I_MI, I_P), cover_bound (I_R) and
// exact (I_R, where the owner registered the exact minimum cover; a graph
// without a proved cover skips it).
const std::vector<Method>& DefaultMethods();
// The methods each figure runs, the paper's next to dpq's defaults:
// "fig3", "fig4": optimized and vertex_cover (the paper's "ours"), gem,
// cover_bound and exact; "fig5": PaperMethods() and gem (the theta
// strategies); "grid" (Figure 6): PaperMethods() and DefaultMethods();
// "fig7": optimized, vertex_cover, gem and cover_bound (exact releases a
// number computed at registration, nothing to time). Empty for other names.
std::vector<Method> FigureMethods(const std::string& figure);

// The graphs of the "accuracy" figure and of gem_tuning.h: every dataset at
// RNoise alpha 0.01, plus its shipped dirty file (hospital, tax, flights).
inline constexpr char kAccuracyNoise[] = "rnoise-0.01";
// gem and optimized (I_MI, I_P); cover_bound, exact and vertex_cover (I_R).
const std::vector<Method>& AccuracyMethods();

// One graph of the accuracy set, built as the figures build theirs.
struct NamedGraph {
  std::string dataset, noise;
  GraphCase graph_case;
};

// Builds the accuracy graphs of `options.datasets` (rows, seed, n_factor and
// vertex_cover_seconds as for the figures): for each dataset kAccuracyNoise,
// then "dirty" if it ships a dirty file. Errors of loading, noise and the
// graph build.
absl::StatusOr<std::vector<NamedGraph>> BuildAccuracyGraphs(
    const ExperimentOptions& options);

// Runs the requested figures (all but "gem-tune"). kInvalidArgument for unknown
// names; errors of loading, noise generation and the core.
absl::StatusOr<std::vector<ResultRow>> RunExperiments(
    const ExperimentOptions& options);

// The CSV header and one line per row (numbers with 6 significant digits).
std::string ResultsCsv(const std::vector<ResultRow>& rows);

// The "accuracy" rows of `rows` as a Markdown table, one line per graph
// (dataset and noise, in the order of `rows`): the median relative error of
// each AccuracyMethods() x measure, the graph's max degree, I_R's reference
// and the theta gem chose most often for I_MI and I_P. "n/a" where a
// method did not run (exact without a proved cover). A note after the
// table names every cell whose mean error is above 1.
std::string AccuracyMarkdown(const std::vector<ResultRow>& rows);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_RUNNER_H_
