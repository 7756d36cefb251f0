// Scaling generator for benchmarks (docs/performance.md): a table of any row
// count made of replicas of a template table (e.g. the 50k-row tax file) that
// keeps the template's conflict density.
//
// Replica k = 0, 1, 2, ... is the template's rows in a seeded permutation,
// with the cells of the "distinct columns" (the FD left-hand sides, e.g. zip,
// area_code, f_name, state for tax) moved into a key range of their own:
// key group g = k / density: a cell v becomes "v~g" for g > 0 (equality
// is kept, order is not; NULL stays NULL; group 0 is the template
// verbatim). Read the template with ReadTemplateCsv, which keeps every cell
// as text, so that the output repeats the template's bytes ("0.0" stays
// "0.0", zip "01907" keeps its zero).
// With density 1 (the default) no two replicas share a key, so every block
// of an equality join (FD group) stays as large as in the template and the
// edges grow linearly with the rows: 2 replicas have exactly 2x the edges of
// the template under DCs whose equality predicates include a distinct
// column. With density D > 1, D consecutive replicas share one key group:
// every block is D times larger and the edges per row grow about D-fold
// (the "dense" variant). The last replica may be partial: the first rows of
// its permutation.
//
// Output is streamed: memory is the template's rendered cells, independent
// of the row count. Deterministic for (template, options): the permutation
// uses SplitMix64, not a standard-library distribution whose output differs
// across implementations. Not for DP: benchmark inputs only.
#ifndef DPQ_TESTS_BENCH_SCALE_SCALE_GENERATOR_H_
#define DPQ_TESTS_BENCH_SCALE_SCALE_GENERATOR_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/table/table.h"

namespace dpq::bench::scale {

struct ScaleOptions {
  // Data rows to write (the header comes on top). Must be > 0.
  uint64_t rows = 0;
  uint64_t seed = 1;
  // Replicas per key group: 1 keeps the template's density, D > 1 makes
  // blocks D times larger. Must be >= 1.
  uint32_t density = 1;
  // Columns whose values are made distinct per key group: string columns
  // (anything else, or an unknown name, is kInvalidArgument).
  std::vector<std::string> distinct_columns = {"zip", "area_code", "f_name",
                                               "state"};
};

// Reads a CSV template with every column typed as string. Errors from
// core::table::ReadCsv.
absl::StatusOr<core::table::Table> ReadTemplateCsv(absl::string_view text);

// Writes the header and `options.rows` rows as CSV (RFC 4180 quoting where
// needed, LF line ends) to `out`. kInvalidArgument for bad options or an
// empty template, kInternal if the stream fails. O(rows * columns) time,
// O(template) memory.
absl::Status WriteScaledTable(const core::table::Table& templ,
                              const ScaleOptions& options, std::ostream& out);

}  // namespace dpq::bench::scale

#endif  // DPQ_TESTS_BENCH_SCALE_SCALE_GENERATOR_H_
