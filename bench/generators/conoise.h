// CONoise (paper "Inconsistency measures under DP", Section 6.1, after
// Livshits et al.): targeted violations. Each iteration picks a DC and two
// distinct tuples at random and, predicate by predicate, edits one of the
// two cells a predicate compares until the predicate holds:
//  - `=`, `<=`, `>=`: one side (chosen at random) is copied from the other;
//  - `<`, `>`, `!=`: one side (chosen at random) becomes a random value of
//    its column's active domain that satisfies the predicate, or, if none
//    does, a value just beyond the other side (number +- a random step,
//    a string extended or shortened).
// A predicate that already holds is left alone. If the chosen side cannot
// be made to satisfy the predicate (the other side is NULL), the other side
// is tried. Later predicates may undo earlier ones only when they edit the
// same cell, which no DC of the shipped datasets does.
#ifndef DPQ_TESTS_BENCH_GENERATORS_CONOISE_H_
#define DPQ_TESTS_BENCH_GENERATORS_CONOISE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bench/generators/cell_table.h"
#include "bench/generators/noise_log.h"
#include "core/constraints/denial_constraint.h"

namespace dpq::bench::generators {

struct CoNoiseOptions {
  size_t iterations = 200;  // the paper's default
  uint64_t seed = 1;
};

// One NoiseIteration per iteration, with its DC and rows recorded; each
// works on the table as the earlier iterations left it. Deterministic for a
// seed. kInvalidArgument if there are no DCs or fewer than 2 rows while
// iterations > 0.
absl::StatusOr<NoiseLog> GenerateCoNoise(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs,
    const CoNoiseOptions& options);

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_CONOISE_H_
