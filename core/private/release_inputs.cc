#include "core/private/release_inputs.h"

#include <thread>
#include <utility>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/time/clock.h"
#include "core/private/cover_bound.h"
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
  // Read-only on the table and the DCs, so safe beside the build and the
  // cover bound. With the cover bound wanted too, they start after the
  // build (which then has every core), beside the cover bound's plain LP
  // and families, which run on one thread; its component LPs may then
  // overlap them briefly. Alone, they run beside the build.
  absl::StatusOr<std::vector<DcDegreeBound>> degree_bounds;
  std::thread side;
  // Joined on every path, errors and exceptions included.
  const absl::Cleanup join = [&] {
    if (side.joinable()) side.join();
  };
  auto start_degree_bounds = [&] {
    side =
        std::thread([&] { degree_bounds = ComputeDegreeBounds(table, dcs); });
  };
  if (wanted.degree_bounds && !wanted.cover_bound) start_degree_bounds();
  absl::StatusOr<graph::ConflictGraph> built =
      graph::BuildConflictGraph(table, dcs, options);
  if (built.ok() && wanted.degree_bounds && wanted.cover_bound) {
    start_degree_bounds();
  }
  RETURN_IF_ERROR(built.status());
  ReleaseInputs out;
  out.graph = *std::move(built);
  absl::StatusOr<uint64_t> cover_bound;
  if (wanted.cover_bound) {
    // Needs the graph: its families are asked for only over the rows the
    // LP's reduction leaves, a small share of the table.
    cover_bound =
        ComputeCoverBound(table, dcs, out.graph.graph, options.num_threads);
  }
  if (wanted.degree_bounds) {
    side.join();
    ASSIGN_OR_RETURN(out.degree_bounds, std::move(degree_bounds));
  }
  if (wanted.cover_bound) {
    ASSIGN_OR_RETURN(out.cover_bound, std::move(cover_bound));
  }
  return out;
}

}  // namespace dpq::core::private_measures
