// Everything the private releases of one table need besides the table,
// computed once per dataset version: the conflict graph, each DC's degree
// bound and the cover bound. The cover bound follows the graph: its plain
// LP on one thread, its FD clique families computed only over the rows
// that LP's reduction leaves (about 1% of them), its component LPs on
// `num_threads` threads. The degree bounds need only the table and run on
// a thread of their own: beside the cover bound's single-threaded start
// when both are wanted (the graph then has every core), else beside the
// graph. So a registration is ready soon after the graph is
// (docs/performance.md "Conflict detection against DuckDB").
#ifndef DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_
#define DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/private/degree_bound.h"
#include "core/table/table.h"

namespace dpq::core::private_measures {

// Which of the graph's companions to compute (dpq-measure asks only for
// what its one release needs; the server for both).
struct ReleaseInputsWanted {
  bool degree_bounds = true;  // gem and optimized (I_MI, I_P)
  bool cover_bound = true;    // cover_bound (I_R)
};

struct ReleaseInputs {
  graph::ConflictGraph graph;
  std::vector<DcDegreeBound> degree_bounds;  // ComputeDegreeBounds, if wanted
  std::optional<uint64_t> cover_bound;       // ComputeCoverBound, if wanted
};

// The graph and the wanted companions, with BuildConflictGraph's options
// and errors first, then those of ComputeDegreeBounds and
// ComputeCoverBound. The values are those of the three functions called
// one after the other.
absl::StatusOr<ReleaseInputs> ComputeReleaseInputs(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    const graph::ConflictGraphOptions& options,
    const ReleaseInputsWanted& wanted = {});

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_RELEASE_INPUTS_H_
