#include "core/graph/fd_cliques.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/graph/row_groups.h"

namespace dpq::core::graph {
namespace {

using constraints::CompareOp;
using constraints::DenialConstraint;
using constraints::Predicate;
using table::Column;
using table::Table;

// The DCs of one key X: the right-hand columns of its FDs, and whether a
// key constraint (no right-hand side) conflicts every pair of a group.
struct KeyDcs {
  std::vector<size_t> rhs;  // sorted, unique
  bool has_key_constraint = false;
};

// X and B if `dc` is t1.X = t2.X (at least one) plus at most one
// t1.B != t2.B, all on the same column both sides; false otherwise.
bool SplitFdShape(const DenialConstraint& dc, std::vector<size_t>& x,
                  std::vector<size_t>& b) {
  for (const Predicate& p : dc.predicates) {
    if (!p.is_join() || p.lhs.column != p.rhs.column) return false;
    if (p.op == CompareOp::kEq) {
      x.push_back(p.lhs.column);
    } else if (p.op == CompareOp::kNe) {
      b.push_back(p.lhs.column);
    } else {
      return false;
    }
  }
  std::sort(x.begin(), x.end());
  x.erase(std::unique(x.begin(), x.end()), x.end());
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  if (x.empty() || b.size() > 1) return false;
  // t1.A = t2.A and t1.A != t2.A: never violated, no conflicts at all.
  return b.empty() || !std::binary_search(x.begin(), x.end(), b[0]);
}

bool AnyNull(const Table& t, const std::vector<size_t>& columns, size_t row) {
  for (size_t c : columns) {
    if (t.column(c).is_null(row)) return true;
  }
  return false;
}

std::string ColumnList(const Table& t, const std::vector<size_t>& columns) {
  std::vector<std::string> names;
  for (size_t c : columns) names.push_back(t.schema().column(c).name);
  return absl::StrCat("(", absl::StrJoin(names, ", "), ")");
}

// Which rows a family holds and how it splits them into parts.
struct FamilySpec {
  std::vector<size_t> key;
  std::vector<size_t> part_columns;  // empty: one part per row
  // Rows with no NULL among these are members...
  std::vector<size_t> required;
  // ...unless they have a NULL among these (left to the joint family).
  std::vector<size_t> excluded_if_null;
  std::string description;
};

// Members fewer than one in this many rows take the sorting path.
constexpr size_t kSparseShare = 16;

// The cells of `columns` of `row`, as CellGroupKey compares them.
std::vector<int64_t> GroupKey(const Table& t,
                              const std::vector<size_t>& columns,
                              uint32_t row) {
  std::vector<int64_t> key;
  key.reserve(columns.size());
  for (size_t c : columns) key.push_back(CellGroupKey(t.column(c), row));
  return key;
}

// f's blocks and parts over `rows` (ascending, the members), as
// BuildFamily's passes over all rows give them: rows sorted by (key, part)
// cells, groups of two or more parts kept, numbered in row order.
void BuildSparseFamily(const Table& t, const FamilySpec& spec,
                       const std::vector<uint32_t>& rows, CliqueFamily* f) {
  const size_t k = rows.size();
  std::vector<std::vector<int64_t>> key(k), part(k);
  for (size_t i = 0; i < k; ++i) {
    key[i] = GroupKey(t, spec.key, rows[i]);
    // One part per row when there are no part columns.
    part[i] = spec.part_columns.empty()
                  ? std::vector<int64_t>{rows[i]}
                  : GroupKey(t, spec.part_columns, rows[i]);
  }
  std::vector<uint32_t> order(k);
  for (uint32_t i = 0; i < k; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return std::tie(key[a], part[a]) < std::tie(key[b], part[b]);
  });
  // Group and part ids by sorted position; parts per group.
  std::vector<uint32_t> group_of(k), part_of(k), parts_in_group;
  uint32_t num_parts = 0;
  for (size_t r = 0; r < k; ++r) {
    const uint32_t i = order[r];
    const bool new_group = r == 0 || key[i] != key[order[r - 1]];
    const bool new_part = new_group || part[i] != part[order[r - 1]];
    if (new_group) parts_in_group.push_back(0);
    if (new_part) {
      ++parts_in_group.back();
      ++num_parts;
    }
    group_of[i] = static_cast<uint32_t>(parts_in_group.size() - 1);
    part_of[i] = num_parts - 1;
  }
  f->block.assign(t.num_rows(), CliqueFamily::kNone);
  f->part.assign(t.num_rows(), CliqueFamily::kNone);
  std::vector<uint32_t> block_id(parts_in_group.size(), CliqueFamily::kNone);
  std::vector<uint32_t> part_id(num_parts, CliqueFamily::kNone);
  for (size_t i = 0; i < k; ++i) {
    if (parts_in_group[group_of[i]] < 2) continue;
    uint32_t& b = block_id[group_of[i]];
    if (b == CliqueFamily::kNone) b = f->num_blocks++;
    uint32_t& p = part_id[part_of[i]];
    if (p == CliqueFamily::kNone) p = f->num_parts++;
    f->block[rows[i]] = b;
    f->part[rows[i]] = p;
  }
}

CliqueFamily BuildFamily(const Table& t, const FamilySpec& spec,
                         absl::Span<const uint8_t> rows) {
  const size_t n = t.num_rows();
  CliqueFamily f;
  f.description = spec.description;
  auto member = [&](size_t row) {
    return (rows.empty() || rows[row] != 0) &&
           !AnyNull(t, spec.required, row) &&
           (spec.excluded_if_null.empty() ||
            AnyNull(t, spec.excluded_if_null, row));
  };
  std::vector<uint32_t> member_rows;
  for (size_t row = 0; row < n; ++row) {
    if (member(row)) member_rows.push_back(static_cast<uint32_t>(row));
  }
  // No block without two members (the families of rows with a NULL
  // elsewhere are often empty): the caller drops a family without blocks.
  if (member_rows.size() < 2) return f;
  // A few members (a row mask): sorting them is cheaper than passes over
  // every row.
  if (member_rows.size() <= n / kSparseShare) {
    BuildSparseFamily(t, spec, member_rows, &f);
    return f;
  }
  // Members start in group 0 and are split by the key, then (a copy) by
  // the part columns, or one part per row.
  std::vector<uint32_t> group(n, CliqueFamily::kNone);
  for (uint32_t row : member_rows) group[row] = 0;
  member_rows = {};
  const uint32_t num_groups = RefineRowGroups(t, spec.key, 1, &group);
  std::vector<uint32_t> part = group;
  uint32_t num_parts = 0;
  if (spec.part_columns.empty()) {
    for (size_t row = 0; row < n; ++row) {
      if (part[row] != CliqueFamily::kNone) part[row] = num_parts++;
    }
  } else {
    num_parts = RefineRowGroups(t, spec.part_columns, num_groups, &part);
  }
  // Parts per group (part ids refine group ids), then keep the groups of
  // two or more parts, renumbering blocks and parts in row order.
  std::vector<uint32_t> parts_in_group(num_groups, 0);
  std::vector<uint8_t> part_seen(num_parts, 0);
  for (size_t row = 0; row < n; ++row) {
    if (group[row] == CliqueFamily::kNone || part_seen[part[row]]) continue;
    part_seen[part[row]] = 1;
    ++parts_in_group[group[row]];
  }
  f.block.assign(n, CliqueFamily::kNone);
  f.part.assign(n, CliqueFamily::kNone);
  std::vector<uint32_t> block_id(num_groups, CliqueFamily::kNone);
  std::vector<uint32_t> part_id(num_parts, CliqueFamily::kNone);
  for (size_t row = 0; row < n; ++row) {
    if (group[row] == CliqueFamily::kNone || parts_in_group[group[row]] < 2) {
      continue;
    }
    uint32_t& b = block_id[group[row]];
    if (b == CliqueFamily::kNone) b = f.num_blocks++;
    uint32_t& p = part_id[part[row]];
    if (p == CliqueFamily::kNone) p = f.num_parts++;
    f.block[row] = b;
    f.part[row] = p;
  }
  return f;
}

std::vector<size_t> Union(std::vector<size_t> a, const std::vector<size_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

// The family specs of one key, as FdCliqueFamilies describes.
std::vector<FamilySpec> SpecsOfKey(const Table& t,
                                   const std::vector<size_t>& key,
                                   const KeyDcs& dcs) {
  std::vector<FamilySpec> out;
  FamilySpec joint;
  joint.key = key;
  if (dcs.has_key_constraint) {
    // Every pair of a group conflicts whatever the other columns hold.
    joint.required = key;
    joint.description = absl::StrCat("key ", ColumnList(t, key),
                                     ", one part per row");
    out.push_back(std::move(joint));
    return out;
  }
  joint.part_columns = dcs.rhs;
  joint.required = Union(key, dcs.rhs);
  joint.description = absl::StrCat("key ", ColumnList(t, key), ", parts ",
                                   ColumnList(t, dcs.rhs));
  out.push_back(std::move(joint));
  if (dcs.rhs.size() < 2) return out;
  for (size_t b : dcs.rhs) {
    FamilySpec single;
    single.key = key;
    single.part_columns = {b};
    single.required = Union(key, {b});
    for (size_t other : dcs.rhs) {
      if (other != b) single.excluded_if_null.push_back(other);
    }
    single.description =
        absl::StrCat("key ", ColumnList(t, key), ", parts ",
                     ColumnList(t, {b}), " (rows with a NULL elsewhere)");
    out.push_back(std::move(single));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<CliqueFamily>> FdCliqueFamilies(
    const Table& table, absl::Span<const DenialConstraint> dcs,
    absl::Span<const uint8_t> rows) {
  if (!rows.empty() && rows.size() != table.num_rows()) {
    return absl::InvalidArgumentError(
        absl::StrCat("The row mask has ", rows.size(),
                     " entries; the table has ", table.num_rows(), " rows."));
  }
  std::map<std::vector<size_t>, KeyDcs> keys;  // ordered: canonical output
  for (const DenialConstraint& dc : dcs) {
    std::vector<size_t> x, b;
    if (!SplitFdShape(dc, x, b)) continue;
    for (size_t c : x) {
      if (c >= table.num_columns()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "DC '", dc.text, "' reads column ", c, " of a table with ",
            table.num_columns(), " columns."));
      }
    }
    if (!b.empty() && b[0] >= table.num_columns()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "DC '", dc.text, "' reads column ", b[0], " of a table with ",
          table.num_columns(), " columns."));
    }
    KeyDcs& k = keys[x];
    if (b.empty()) {
      k.has_key_constraint = true;
    } else {
      k.rhs = Union(k.rhs, b);
    }
  }
  std::vector<CliqueFamily> out;
  for (const auto& [key, key_dcs] : keys) {
    for (const FamilySpec& spec : SpecsOfKey(table, key, key_dcs)) {
      CliqueFamily f = BuildFamily(table, spec, rows);
      if (f.num_blocks > 0) out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace dpq::core::graph
