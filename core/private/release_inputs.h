// Everything the private releases of one table need besides the table,
// computed once per dataset version: the conflict graph, each DC's degree
// bound and the cover bound. The parts that do not need the graph (degree
// bounds, the FD clique families) run on a thread of their own while the
// graph is built, so a registration is ready soon after the graph is
// (docs/performance.md "Conflict detection against DuckDB").
#ifndef DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_
#define DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/degree_bound.h"
#include "core/table/table.h"

namespace dpq::core::private_measures {

struct ReleaseInputs {
  graph::ConflictGraph graph;
  std::vector<DcDegreeBound> degree_bounds;  // ComputeDegreeBounds
  uint64_t cover_bound = 0;                  // ComputeCoverBound
};

// The three of them, with BuildConflictGraph's options and errors first,
// then those of ComputeDegreeBounds and ComputeCoverBound. The values are
// those of the three functions called one after the other.
absl::StatusOr<ReleaseInputs> ComputeReleaseInputs(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    const graph::ConflictGraphOptions& options);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_
