#include "core/graph/row_groups.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/table/table.h"

namespace dpq::core::graph {
namespace {

using table::Column;
using table::Table;

// Dense codes of `column`'s cells on the rows in a group (which have no
// NULL there): string ids renumbered through a table as they first appear
// (the dictionary is shared by all columns, so a column's ids are sparse
// in it, and RefineCodes is fastest with few codes), numbers as key - min
// when they span a small range, else through a hash map. Returns the
// number of codes.
uint32_t ValueCodes(const Table& t, const Column& column,
                    const std::vector<uint32_t>& ids,
                    std::vector<uint32_t>* codes) {
  const size_t n = ids.size();
  codes->assign(n, kNoRowGroup);
  // Codes stay below kNoRowGroup (2^32 - 1), which marks "outside".
  if (column.type == table::ColumnType::kString &&
      t.dictionary().size() < kNoRowGroup) {
    std::vector<uint32_t> code_of_id(t.dictionary().size(), kNoRowGroup);
    uint32_t next = 0;
    for (size_t row = 0; row < n; ++row) {
      if (ids[row] == kNoRowGroup) continue;
      uint32_t& code = code_of_id[column.string_ids[row]];
      if (code == kNoRowGroup) code = next++;
      (*codes)[row] = code;
    }
    return next;
  }
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  for (size_t row = 0; row < n; ++row) {
    if (ids[row] == kNoRowGroup) continue;
    lo = std::min(lo, CellGroupKey(column, row));
    hi = std::max(hi, CellGroupKey(column, row));
  }
  if (lo > hi) return 0;
  const uint64_t range =
      static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (range != 0 && range <= 2 * uint64_t{n} + 1024 && range < kNoRowGroup) {
    for (size_t row = 0; row < n; ++row) {
      if (ids[row] == kNoRowGroup) continue;
      (*codes)[row] = static_cast<uint32_t>(
          static_cast<uint64_t>(CellGroupKey(column, row)) -
          static_cast<uint64_t>(lo));
    }
    return static_cast<uint32_t>(range);
  }
  absl::flat_hash_map<int64_t, uint32_t> dense;
  for (size_t row = 0; row < n; ++row) {
    if (ids[row] == kNoRowGroup) continue;
    (*codes)[row] = dense
                        .try_emplace(CellGroupKey(column, row),
                                     static_cast<uint32_t>(dense.size()))
                        .first->second;
  }
  return static_cast<uint32_t>(dense.size());
}

}  // namespace

int64_t CellGroupKey(const Column& c, size_t row) {
  switch (c.type) {
    case table::ColumnType::kString:
      return c.string_ids[row];
    case table::ColumnType::kInt64:
      return c.int64s[row];
    case table::ColumnType::kDouble:
      return internal::EncodeDouble(c.doubles[row]);  // -0.0 == +0.0
  }
  return 0;
}

uint32_t RefineRowGroups(const Table& t, absl::Span<const size_t> columns,
                         uint32_t num_groups, std::vector<uint32_t>* ids) {
  std::vector<uint32_t> codes;
  for (size_t c : columns) {
    const uint32_t num_codes = ValueCodes(t, t.column(c), *ids, &codes);
    num_groups = internal::RefineCodes(num_groups, ids, num_codes, codes);
  }
  return num_groups;
}

absl::Status CheckRowList(absl::Span<const uint32_t> rows, size_t num_rows) {
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] >= num_rows || (i > 0 && rows[i] <= rows[i - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Row ", rows[i], " at position ", i,
          " of the row list: rows must be ascending and below the table's ",
          num_rows, " rows."));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::core::graph
