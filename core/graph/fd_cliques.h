// The cliques of a conflict graph that its table's functional dependencies
// and key constraints imply, as families of complete multipartite blocks.
//
// Rows agreeing on the columns X of an FD X -> B and differing on B conflict,
// so within one group of equal X the conflict graph of that FD is complete
// multipartite with one part per value of B. FDs with the same X together
// conflict rows that differ on any of their right-hand sides: still complete
// multipartite, parts by the tuple of right-hand values. A key constraint
// (only t1.X = t2.X predicates) conflicts every pair of a group: one part
// per row. Every transversal of a block (one row from each of several
// parts) is a clique of the conflict graph, which is what the clique LP of
// the repair bound (core/measures/clique_lp_bound.h) needs.
//
// Each row's block and part depend on that row's cells only, so adding or
// removing a row moves only that row's membership: a family is hereditary,
// which the bound's sensitivity proof uses.
#ifndef DPQ_CORE_GRAPH_FD_CLIQUES_H_
#define DPQ_CORE_GRAPH_FD_CLIQUES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/table.h"

namespace dpq::core::graph {

// One family: a partition of some rows into blocks (groups of equal X),
// each block into parts. Only blocks of two or more parts are kept (a block
// of one part holds no conflict); other rows have block kNone.
struct CliqueFamily {
  static constexpr uint32_t kNone = UINT32_MAX;
  // Which DCs it comes from, e.g. "key (zip), parts (city, state)".
  std::string description;
  // Per row: its block (0..num_blocks-1) or kNone, and its part, numbered
  // across blocks (0..num_parts-1; meaningful only when block != kNone).
  std::vector<uint32_t> block;
  std::vector<uint32_t> part;
  uint32_t num_blocks = 0;
  uint32_t num_parts = 0;
};

// The families implied by `dcs` on `table`, in a canonical order (by key
// columns, then right-hand columns), one per distinct key X over the FDs and
// key constraints of `dcs`: parts by the tuple of all their right-hand
// columns (one part per row if a key constraint has this X), over the rows
// with no NULL among X and those columns (a comparison with NULL is false).
// For a key with several right-hand columns, each FD also gets a family of
// its own over the rows left out of the joint one for a NULL elsewhere.
// Other DCs contribute no family (their edges stay plain edges).
// O(rows * columns read) expected time; 8 bytes per row and family.
absl::StatusOr<std::vector<CliqueFamily>> FdCliqueFamilies(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs);

// The same families over the listed rows only (`rows` ascending, each
// below table.num_rows(), else kInvalidArgument), indexed by position in
// the list: entry i of `block` and `part` is row rows[i]'s. A block is
// kept when it has two or more parts among those rows. Two of those rows
// share a block and differ in part exactly when they do in the families
// over all rows (that depends on their own cells only); blocks with a
// single part among them are dropped. The clique LP of the subgraph the
// rows induce therefore has the same constraints either way, up to
// constraints over a single part, which its bounds imply
// (core/measures/clique_lp_bound.h uses this for the rows its
// Nemhauser-Trotter reduction leaves). A short list is sorted, never
// passed over the whole table: O(k log k) for k rows.
absl::StatusOr<std::vector<CliqueFamily>> FdCliqueFamiliesOfRows(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    absl::Span<const uint32_t> rows);

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_FD_CLIQUES_H_
