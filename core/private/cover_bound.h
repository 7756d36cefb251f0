// The value the cover_bound repair method releases (with discrete Laplace
// noise of scale 1/epsilon): a lower bound on I_R of sensitivity 1,
// computed once per dataset.
#ifndef DPQ_CORE_PRIVATE_COVER_BOUND_H_
#define DPQ_CORE_PRIVATE_COVER_BOUND_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/graph.h"
#include "core/table/table.h"

namespace dpq::core::private_measures {

// ceil of the clique LP of measures::CliqueLpCoverBound over the FD blocks
// of graph::FdCliqueFamilies(table, dcs), the chains of the order DCs
// (graph::OrderChainFamilies) and every triangle of `g`, the conflict graph
// of `table` under `dcs` (sensitivity 1: the proof is in
// core/measures/clique_lp_bound.h). At least ceil(plain LP relaxation), at
// most I_R. The families are computed only over the rows the LP's
// Nemhauser-Trotter reduction leaves, by graph::FdCliqueFamiliesOfRows and
// graph::OrderChainFamiliesOfRows (the same bound, see
// CliqueLpCoverBoundOverHalfRows). `num_threads` as
// CliqueLpCoverBound's. Errors: those of the functions named.
absl::StatusOr<uint64_t> ComputeCoverBound(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs, const graph::Graph& g,
    int num_threads = 1);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_COVER_BOUND_H_
