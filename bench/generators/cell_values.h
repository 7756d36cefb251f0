// Typed views of text cells for the violation generators: comparison with a
// column's type, the active domain, and typos that keep the column's type.
#ifndef DPQ_TESTS_BENCH_GENERATORS_CELL_VALUES_H_
#define DPQ_TESTS_BENCH_GENERATORS_CELL_VALUES_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/generators/cell_table.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"

namespace dpq::bench::generators {

// Deterministic data generation (not DP noise): std::mt19937_64 with the
// user's seed, so a seed reproduces a dataset exactly.
using GeneratorRng = std::mt19937_64;

// Uniform in [0, n); n > 0.
size_t UniformIndex(GeneratorRng& rng, size_t n);

// a op b under the column type (numbers by value, strings byte-wise, as
// core/constraints/dc_evaluation.h). False if either side is NULL or does
// not parse as the type.
bool CompareCells(core::table::ColumnType type, const Cell& a,
                  core::constraints::CompareOp op, const Cell& b);

// A constant as the cell text it stands for.
Cell ConstantCell(const core::constraints::Constant& constant);

// The distinct non-NULL values of `column`, sorted in the column's order
// (numeric or byte-wise).
std::vector<std::string> ActiveDomain(const CellTable& cells, size_t column);

// A typo of `value` that still parses as `type` and differs from it: for
// strings one character replaced, inserted or deleted; for numbers one digit
// replaced (never creating a leading zero). A NULL cell becomes a random
// one-character value.
std::string MakeTypo(core::table::ColumnType type, const Cell& value,
                     GeneratorRng& rng);

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_CELL_VALUES_H_
