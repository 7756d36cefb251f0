// RNoise (paper "Inconsistency measures under DP", Section 6.1, after
// Livshits et al.): changes an alpha fraction of the cells in the
// constrained attributes, each to another value of the column's active
// domain (probability `active_domain_probability`, the paper's 0.5) or to a
// typo.
#ifndef DPQ_TESTS_BENCH_GENERATORS_RNOISE_H_
#define DPQ_TESTS_BENCH_GENERATORS_RNOISE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bench/generators/cell_table.h"
#include "bench/generators/noise_log.h"
#include "core/constraints/denial_constraint.h"

namespace dpq::bench::generators {

struct RNoiseOptions {
  // Fraction of the constrained cells to change, in [0, 1].
  double alpha = 0.01;
  // Probability that a change picks an active-domain value rather than a
  // typo (paper: 0.5). A column with no other active-domain value always
  // gets a typo.
  double active_domain_probability = 0.5;
  uint64_t seed = 1;
};

// round(alpha * rows * |constrained columns|): the exact number of cells
// GenerateRNoise changes.
size_t RNoiseCellCount(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs, double alpha);

// One iteration per changed cell, in the order they were drawn. The cells
// are distinct (drawn without replacement) and every new value differs from
// the clean one, so applying k iterations changes exactly k cells, all in
// columns read by some DC. Deterministic for a seed.
// kInvalidArgument if alpha or the probability is outside [0, 1] or the
// DCs read no column while alpha > 0.
absl::StatusOr<NoiseLog> GenerateRNoise(
    const CellTable& clean,
    absl::Span<const core::constraints::DenialConstraint> dcs,
    const RNoiseOptions& options);

}  // namespace dpq::bench::generators

#endif  // DPQ_TESTS_BENCH_GENERATORS_RNOISE_H_
