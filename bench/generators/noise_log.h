// The edits a violation generator made, in order, so that a prefix of its
// iterations can be replayed (the paper's Figures 3-5 plot the measures
// against the number of noise iterations).
#ifndef DPQ_TESTS_BENCH_GENERATORS_NOISE_LOG_H_
#define DPQ_TESTS_BENCH_GENERATORS_NOISE_LOG_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "bench/generators/cell_table.h"

namespace dpq::bench::generators {

struct CellChange {
  size_t row = 0;
  size_t column = 0;
  Cell value;  // the new content
};

// One generator iteration: RNoise changes one cell per iteration; a CONoise
// iteration targets one DC and one pair of rows and changes 0 or more cells.
struct NoiseIteration {
  std::vector<CellChange> changes;
  // CONoise only: the targeted DC (index into the DC list) and rows (t1 =
  // row_t1, t2 = row_t2).
  std::optional<size_t> dc_index;
  size_t row_t1 = 0;
  size_t row_t2 = 0;
};

struct NoiseLog {
  std::vector<NoiseIteration> iterations;
};

// `clean` with the first `iterations` iterations of `log` applied (all of
// them if iterations >= log.iterations.size()).
CellTable ApplyNoise(const CellTable& clean, const NoiseLog& log,
                     size_t iterations);

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_NOISE_LOG_H_
