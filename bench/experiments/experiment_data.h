// The datasets and noise configurations of the paper's Section 6 as dpq's
// experiment harness sees them: which files, which DCs, how to get the
// "dirty" table (a clean file plus RNoise or CONoise iterations, or a
// shipped dirty file).
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_DATA_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_DATA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/generators/cell_table.h"
#include "bench/generators/noise_log.h"
#include "core/constraints/denial_constraint.h"

namespace dpq::bench::experiments {

// A clean table with its DCs (and, if shipped, the dirty version).
struct Dataset {
  std::string name;
  generators::CellTable clean;
  std::vector<core::constraints::DenialConstraint> dcs;
  bool has_dirty = false;
  generators::CellTable dirty;
};

// The names accepted by LoadDataset, ordered from the sparsest to the
// densest conflict graph as in the paper's figures: stock, tax, hospital,
// flights, adult.
const std::vector<std::string>& AllDatasetNames();

// Loads `name` from `data_dir` (shared/data): a seeded random subset of
// `rows` rows (the paper's 10k subsets; smaller files are used whole), the
// paper's DC files where shipped (tax, hospital: constraints-paper.dc).
// "stock" is generated (generators/stock_generator.h) with `rows` rows.
// The dirty file, when there is one, is cut to the same rows.
// kInvalidArgument for an unknown name; file and parse errors.
absl::StatusOr<Dataset> LoadDataset(const std::string& name,
                                    const std::string& data_dir, size_t rows,
                                    uint64_t seed);

// How violations are added.
struct NoiseSpec {
  enum class Kind { kRNoise, kCoNoise, kDirty };
  Kind kind = Kind::kRNoise;
  double alpha = 0.01;      // RNoise
  size_t iterations = 200;  // CONoise
};

// "rnoise-0.01", "conoise-200", "dirty".
std::string NoiseLabel(const NoiseSpec& noise);

// Parses a NoiseLabel. kInvalidArgument otherwise.
absl::StatusOr<NoiseSpec> ParseNoiseLabel(const std::string& label);

// The generator's log for `noise` on `dataset.clean` (empty for kDirty).
absl::StatusOr<generators::NoiseLog> GenerateNoise(const Dataset& dataset,
                                                   const NoiseSpec& noise,
                                                   uint64_t seed);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_EXPERIMENT_DATA_H_
