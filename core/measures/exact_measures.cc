#include "core/measures/exact_measures.h"

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/graph/graph.h"
#include "core/measures/maximal_independent_sets.h"
#include "core/measures/measure.h"
#include "core/measures/vertex_cover.h"
#include "core/util/status_macros.h"

namespace dpq::core::measures {

using graph::Graph;

uint64_t DrasticMeasure(const Graph& g) { return g.num_edges() > 0 ? 1 : 0; }

uint64_t MinimalInconsistencyMeasure(const Graph& g) { return g.num_edges(); }

uint64_t ProblematicMeasure(const Graph& g) { return g.num_non_isolated(); }

absl::Status ValidateExactLimits(const ExactLimits& limits) {
  RETURN_IF_ERROR(ValidateVertexCoverLimits(limits.repair));
  return ValidateMaximalIndependentSetLimits(limits.maximal_consistency);
}

absl::StatusOr<ExactResult> ComputeExactMeasure(const Graph& g, Measure measure,
                                                const ExactLimits& limits) {
  RETURN_IF_ERROR(ValidateExactLimits(limits));
  ExactResult result;
  result.measure = measure;
  result.max_degree = g.max_degree();
  switch (measure) {
    case Measure::kDrastic:
      result.value = DrasticMeasure(g);
      break;
    case Measure::kMinimalInconsistency:
      result.value = MinimalInconsistencyMeasure(g);
      break;
    case Measure::kProblematic:
      result.value = ProblematicMeasure(g);
      break;
    case Measure::kMaximalConsistency: {
      ASSIGN_OR_RETURN(result.value, CountMaximalIndependentSets(
                                         g, limits.maximal_consistency));
      break;
    }
    case Measure::kRepair: {
      ASSIGN_OR_RETURN(VertexCoverResult cover,
                       MinimumVertexCover(g, limits.repair));
      result.value = cover.exact;
      result.lower_bound = cover.lower_bound;
      result.upper_bound = cover.upper_bound;
      result.repair = std::move(cover);
      return result;
    }
  }
  if (!result.value.has_value()) {
    return absl::InvalidArgumentError("Unknown measure.");
  }
  result.lower_bound = result.upper_bound = *result.value;
  return result;
}

}  // namespace dpq::core::measures
