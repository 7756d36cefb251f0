#include "core/private/release_inputs.h"

#include <thread>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "core/graph/fd_cliques.h"
#include "core/measures/clique_lp_bound.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<ReleaseInputs> ComputeReleaseInputs(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    const graph::ConflictGraphOptions& options,
    const ReleaseInputsWanted& wanted) {
  // What the build would refuse is refused before any side work starts.
  RETURN_IF_ERROR(graph::ValidateConstraintsForTable(table, dcs));
  if (absl::Now() > options.deadline) {
    return absl::DeadlineExceededError(
        "Deadline exceeded before the conflict graph was started.");
  }
  // Read-only on the table and the DCs, so safe beside the build.
  absl::StatusOr<std::vector<DcDegreeBound>> degree_bounds;
  absl::StatusOr<std::vector<graph::CliqueFamily>> families;
  std::thread side([&] {
    if (wanted.degree_bounds) degree_bounds = ComputeDegreeBounds(table, dcs);
    if (wanted.cover_bound) families = graph::FdCliqueFamilies(table, dcs);
  });
  absl::StatusOr<graph::ConflictGraph> built =
      graph::BuildConflictGraph(table, dcs, options);
  side.join();
  RETURN_IF_ERROR(built.status());
  ReleaseInputs out;
  out.graph = *std::move(built);
  if (wanted.degree_bounds) {
    ASSIGN_OR_RETURN(out.degree_bounds, std::move(degree_bounds));
  }
  if (wanted.cover_bound) {
    RETURN_IF_ERROR(families.status());
    // The same as ComputeCoverBound(table, dcs, graph), whose first step
    // is the families.
    ASSIGN_OR_RETURN(const measures::CliqueLpBound bound,
                     measures::CliqueLpCoverBound(out.graph.graph, *families,
                                                  options.num_threads));
    out.cover_bound = bound.bound;
  }
  return out;
}

}  // namespace dpq::core::private_measures
