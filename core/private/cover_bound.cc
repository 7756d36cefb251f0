#include "core/private/cover_bound.h"

#include "core/graph/fd_cliques.h"
#include "core/graph/order_chains.h"
#include "core/measures/clique_lp_bound.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<uint64_t> ComputeCoverBound(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs, const graph::Graph& g,
    int num_threads) {
  ASSIGN_OR_RETURN(
      const measures::CliqueLpBound bound,
      measures::CliqueLpCoverBoundOverHalfRows(
          g,
          [&](absl::Span<const graph::NodeId> rows)
              -> absl::StatusOr<measures::CliqueConstraints> {
            ASSIGN_OR_RETURN(std::vector<graph::CliqueFamily> blocks,
                             graph::FdCliqueFamiliesOfRows(table, dcs, rows));
            ASSIGN_OR_RETURN(std::vector<graph::ChainFamily> chains,
                             graph::OrderChainFamiliesOfRows(table, dcs, rows));
            return measures::CliqueConstraints(std::move(blocks),
                                               std::move(chains));
          },
          num_threads));
  return bound.bound;
}

}  // namespace dpq::core::private_measures
