// The "general" figure: cover_bound's accuracy for I_R on 1,000-row tables
// whose DCs are not FDs (inequalities, cross-column comparisons, many
// triangles), against the exact minimum cover, with the LP's gap before
// and after the order-chain constraints (core/graph/order_chains.h;
// docs/experiments.md "I_R on general DCs").
//
// Tables: generated event logs whose timestamps run out of order in
// shuffled runs (DC seq up => ts up), generated bookings with overlapping
// intervals (a cross-column DC no family covers), and 1,000-row samples of
// the shared Tax (the paper's 9 DCs), Adult (its inequality DC) and
// Flights (a cross-column DC) with RNoise or their dirty files.
#ifndef DPQ_TESTS_BENCH_EXPERIMENTS_GENERAL_DC_TABLES_H_
#define DPQ_TESTS_BENCH_EXPERIMENTS_GENERAL_DC_TABLES_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/experiments/measure_evaluation.h"
#include "bench/experiments/small_tables.h"

namespace dpq::bench::experiments {

// `rows` log rows with seq = 0..rows-1 and ts = 10 * seq, except that runs
// of [min_run, max_run] consecutive rows, starting with probability
// run_share at each row, have their timestamps shuffled. DC:
// not(t1.seq<t2.seq&t1.ts>t2.ts). Each run's conflict graph is the
// permutation graph of its shuffle: cliques as long as its decreasing
// subsequences. With host_typos > 0, rows also have a batch (seq / 40)
// and a host, constant per batch except in a share host_typos of rows, and
// the FD batch -> host mixes its stars into the runs' components.
struct ShuffledLogSpec {
  size_t rows = 1000;
  double run_share = 0.03;
  size_t min_run = 10, max_run = 30;
  uint64_t seed = 1;
  double host_typos = 0;
};
absl::StatusOr<TableWithDcs> GenerateShuffledLog(const ShuffledLogSpec& spec);

// `rooms` rooms with back-to-back hour slots, `rows` rows in all; a share
// `moved` of them start up to 90 minutes off and last 30 to max_minutes
// minutes. DC:
// not(t1.room=t2.room&t1.start<t2.end&t1.end>t2.start) (overlap).
struct BookingSpec {
  size_t rows = 1000;
  size_t rooms = 100;
  double moved = 0.3;
  uint64_t seed = 1;
  int64_t max_minutes = 180;
};
absl::StatusOr<TableWithDcs> GenerateBookings(const BookingSpec& spec);

// The small figure's options (data_dir, runs, epsilon, n_factor, seed,
// progress).
using GeneralDcOptions = SmallTablesOptions;

struct GeneralDcRow {
  std::string table;
  uint64_t rows = 0, edges = 0;
  uint64_t exact = 0;            // the minimum cover, I_R
  uint64_t bound_triangles = 0;  // the bound without the order chains
  uint64_t bound = 0;            // cover_bound's (with them)
  RunStats stats;                // cover_bound's releases
  RunStats stats_triangles;      // releases of bound_triangles
};

absl::StatusOr<std::vector<GeneralDcRow>> RunGeneralDcTables(
    const GeneralDcOptions& options);

std::string GeneralDcCsv(const std::vector<GeneralDcRow>& rows);
std::string GeneralDcMarkdown(const std::vector<GeneralDcRow>& rows);

}  // namespace dpq::bench::experiments

#endif  // DPQ_TESTS_BENCH_EXPERIMENTS_GENERAL_DC_TABLES_H_
