// The "gem-tune" evaluation: the gem method's public tuning constants
// (core/private/gem_release.h GemParameters, and the candidate grid Theta)
// measured on the accuracy graphs (BuildAccuracyGraphs), calling
// ReleaseWithGem directly. Every setting sees the same seeded noise stream
// per graph and measure (common random numbers), so the settings differ by
// their parameters, not by their luck.
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_GEM_TUNING_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_GEM_TUNING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/experiments/experiment_runner.h"
#include "core/measures/measure.h"
#include "core/private/gem_release.h"

namespace dpq::bench::experiments {

// Theta grids by name: "1-2-5" (DefaultThetaCandidates(N), the service's
// default) and "pow2" (PowersOfTwoCandidates(N)).
inline constexpr char kGrid125[] = "1-2-5";
inline constexpr char kGridPow2[] = "pow2";

// {1, 2, 4, ...} strictly below `max_rows`, plus `max_rows`. Precondition:
// max_rows >= 1.
std::vector<uint32_t> PowersOfTwoCandidates(uint32_t max_rows);

// The candidates of grid `grid` for N = `max_rows`; kInvalidArgument for an
// unknown grid name.
absl::StatusOr<std::vector<uint32_t>> GemTuneCandidates(const std::string& grid,
                                                        uint32_t max_rows);

struct GemTuneSetting {
  core::private_measures::GemParameters params;
  std::string grid = kGrid125;
};

// selection_share {0.1, 0.2, 0.3} x beta {0.1, 0.3, 0.6} x noise_cost
// {1, 2} x grid {1-2-5, pow2}: 36 settings.
std::vector<GemTuneSetting> DefaultGemTuneGrid();

// One setting on one graph and measure.
struct GemTuneCell {
  size_t setting = 0;  // index into GemTuneResult::settings
  size_t graph = 0;    // index into GemTuneResult::graphs
  core::measures::Measure measure =
      core::measures::Measure::kMinimalInconsistency;
  double true_value = 0;
  double error_median = 0, error_mean = 0;  // relative errors
  // Runs whose relative error exceeds 1 (worse than releasing 0): GEM's
  // rare far choices (probability below beta), which the median hides.
  size_t runs_over_one = 0;
  uint32_t theta_mode = 0;  // the most frequent choice
};

// The flow extension f_theta of one graph and measure on the 1-2-5 grid
// (what GEM trades off; the same for every setting).
struct GemTuneProfile {
  size_t graph = 0;
  core::measures::Measure measure =
      core::measures::Measure::kMinimalInconsistency;
  uint32_t max_degree = 0;
  double true_value = 0;
  std::vector<uint32_t> thetas;
  std::vector<int64_t> values;  // f_theta(G) <= true_value
};

struct GemTuneResult {
  std::vector<GemTuneSetting> settings;
  std::vector<std::string> graphs;  // "dataset noise"
  double epsilon = 0;
  size_t runs = 0;
  std::vector<GemTuneCell> cells;        // settings x graphs x {MI, P}
  std::vector<GemTuneProfile> profiles;  // graphs x {MI, P}
};

// Releases I_MI and I_P `options.runs` times per setting and graph with
// ReleaseWithGem at `epsilon`. Errors of building the graphs, of a setting
// the core refuses, or runs == 0.
absl::StatusOr<GemTuneResult> RunGemTuning(
    const ExperimentOptions& options,
    const std::vector<GemTuneSetting>& settings, double epsilon);

// One CSV line per cell.
std::string GemTuneCsv(const GemTuneResult& result);

// A Markdown table, one line per setting sorted by its worst median error
// (the maximum over graphs and over I_MI and I_P; ties by the mean of the
// medians): the parameters, each graph's median error for I_MI and I_P, the
// worst for I_MI, for I_P and overall, the mean of the medians, and the
// tail: the worst mean error over graphs and measures, and the number of
// runs (of graphs x 2 x runs) with an error above 1.
std::string GemTuneTable(const GemTuneResult& result);

// Per graph and measure, for each theta of the 1-2-5 grid: the truncation
// loss (f - f_theta) / f and the expected release noise Delta_theta / (eps2
// f) at the default split (GemParameters{}), both relative to f.
std::string GemTuneProfiles(const GemTuneResult& result);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_GEM_TUNING_H_
