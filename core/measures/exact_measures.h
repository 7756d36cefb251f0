// Exact (non-private) inconsistency measures on a conflict graph (paper
// Def. 1 and Table 2; docs/core.md "Exact measures"). These are the true
// values: for data owners and tests only, never for buyers, who get the DP
// estimates of core/private.
#ifndef DPQ_CORE_MEASURES_EXACT_MEASURES_H_
#define DPQ_CORE_MEASURES_EXACT_MEASURES_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/graph/graph.h"
#include "core/measures/maximal_independent_sets.h"
#include "core/measures/measure.h"
#include "core/measures/vertex_cover.h"

namespace dpq::core::measures {

// Drastic measure I_D: 1 if the conflict graph has an edge, else 0 (the
// paper's text has the cases swapped; 1 means "inconsistent"). O(1).
uint64_t DrasticMeasure(const graph::Graph& g);

// Minimal inconsistency measure I_MI: the number of minimally inconsistent
// subsets, i.e. edges (DCs over pairs). O(1).
uint64_t MinimalInconsistencyMeasure(const graph::Graph& g);

// Problematic measure I_P: the number of tuples in some conflict, i.e.
// nodes of positive degree. O(1).
uint64_t ProblematicMeasure(const graph::Graph& g);

// Work limits of the two hard measures.
struct ExactLimits {
  VertexCoverLimits repair;                         // I_R
  MaximalIndependentSetLimits maximal_consistency;  // I_MC
};

// Validates both parts; kInvalidArgument naming the bad field. O(1).
absl::Status ValidateExactLimits(const ExactLimits& limits);

// One exact measure. Always lower_bound <= true value <= upper_bound; when
// `value` is set (always, except for I_R past its search limits) both
// bounds equal it.
struct ExactResult {
  Measure measure = Measure::kDrastic;
  std::optional<uint64_t> value;
  uint64_t lower_bound = 0;
  uint64_t upper_bound = 0;
  // I_R only: LP value, stable greedy 2-approximation, search statistics
  // and, when inexact, the reason.
  std::optional<VertexCoverResult> repair;
  // Maximum degree of the conflict graph, reported with every measure since
  // it governs the sensitivity of I_MI and I_P (paper Section 4).
  uint32_t max_degree = 0;

  bool exact() const { return value.has_value(); }
};

// Computes `measure` on conflict graph `g`.
// Errors: kInvalidArgument for invalid limits; for I_MC, the errors of
// CountMaximalIndependentSets (kFailedPrecondition when the graph is too
// large, kOutOfRange on overflow, kDeadlineExceeded). I_R never fails on a
// hit limit: it returns bounds instead (`value` empty).
// Complexity: O(1) for I_D, I_MI, I_P; see MinimumVertexCover (I_R) and
// CountMaximalIndependentSets (I_MC).
absl::StatusOr<ExactResult> ComputeExactMeasure(const graph::Graph& g,
                                                Measure measure,
                                                const ExactLimits& limits = {});

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_EXACT_MEASURES_H_
