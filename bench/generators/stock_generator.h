// A synthetic stand-in for the paper's Stock dataset (daily quotes; the real
// file is not in shared/data): one row per (ticker, trading day) with
// open/high/low/close from a seeded geometric random walk and a volume.
// Consistent with its DCs by construction; the key (ticker, date) is unique,
// so RNoise on ticker or date creates conflicts of degree about 1, the
// sparsity the paper reports for Stock (Table 5: max degree 1).
#ifndef DPQ_TESTS_BENCH_GENERATORS_STOCK_GENERATOR_H_
#define DPQ_TESTS_BENCH_GENERATORS_STOCK_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bench/generators/cell_table.h"

namespace dpq::bench::generators {

struct StockOptions {
  size_t rows = 10'000;
  // Trading days per ticker (business days from 2015-01-02); tickers are
  // added until `rows` rows exist (the last one may have fewer days).
  size_t days_per_ticker = 252;
  uint64_t seed = 1;
};

// Columns: ticker (string), date (YYYY-MM-DD string), open, high, low,
// close (double, cents), volume (int64). Deterministic for a seed.
// kInvalidArgument if rows or days_per_ticker is 0.
absl::StatusOr<CellTable> GenerateStock(const StockOptions& options);

// The DCs, native syntax, one per line: FDs ticker,date -> open, high, low,
// close, volume and the pair inequality "same ticker and day, one quote's
// high below the other's low".
std::string StockConstraints();

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_STOCK_GENERATOR_H_
