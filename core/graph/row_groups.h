// Grouping rows by the cells of some columns, as DC equalities compare
// them (string ids, int64 values, doubles with -0.0 == +0.0), on dense
// integer codes: a counting sort per column, no hashing per row where the
// values span a small range. Used by the FD clique families and the
// degree bounds (docs/performance.md "Loading and blocking").
#ifndef DPQ_CORE_GRAPH_ROW_GROUPS_H_
#define DPQ_CORE_GRAPH_ROW_GROUPS_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/table/table.h"

namespace dpq::core::graph {

// A non-NULL cell as an int64 that is equal for two cells iff a DC's
// equality holds between them (string ids, int64 values, doubles with
// -0.0 == +0.0).
int64_t CellGroupKey(const table::Column& column, size_t row);

// OK if `rows` is ascending and every entry is below num_rows (a list of
// rows to compute something over), else kInvalidArgument naming the first
// entry that is not.
absl::Status CheckRowList(absl::Span<const uint32_t> rows, size_t num_rows);

// A row outside every group.
inline constexpr uint32_t kNoRowGroup = std::numeric_limits<uint32_t>::max();

// Refines per-row group ids (*ids: one per row, in [0, num_groups) or
// kNoRowGroup) by the cells of `columns`: afterwards two rows share an id
// iff they shared one before and agree on every column. Rows outside stay
// outside; the caller keeps rows with a NULL in `columns` outside (a NULL
// equals nothing). Ids stay dense, their numbering arbitrary. Returns the
// number of groups. O(rows + the columns' value spans) per column.
uint32_t RefineRowGroups(const table::Table& t,
                         absl::Span<const size_t> columns, uint32_t num_groups,
                         std::vector<uint32_t>* ids);

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_ROW_GROUPS_H_
