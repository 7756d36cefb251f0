#include "core/graph/fd_cliques.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/graph/row_groups.h"
#include "core/util/status_macros.h"

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
// t1.B != t2.B, all on the same column both sides; false otherwise. A
// strict order t1.B < t2.B (or >) in place of != conflicts the same pairs
// (two rows of one X-group conflict, in one order or the other, iff their
// B differ), so it is read as the same FD.
bool SplitFdShape(const DenialConstraint& dc, std::vector<size_t>& x,
                  std::vector<size_t>& b) {
  for (const Predicate& p : dc.predicates) {
    if (!p.is_join() || p.lhs.column != p.rhs.column) return false;
    if (p.op == CompareOp::kEq) {
      x.push_back(p.lhs.column);
    } else if (p.op == CompareOp::kNe || p.op == CompareOp::kLt ||
               p.op == CompareOp::kGt) {
      b.push_back(p.lhs.column);
    } else {
      return false;
    }
  }
  std::sort(x.begin(), x.end());
  x.erase(std::unique(x.begin(), x.end()), x.end());
  // Two predicates on B (t1.B < t2.B & t1.B > t2.B is never violated) or
  // on two columns: not an FD.
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

// The cells some families read at a set of rows, gathered once, a column
// at a time: a few rows spread over a large table, read once per cell and
// not once per cell and family.
class RowCells {
 public:
  RowCells(const Table& t, std::vector<uint32_t> rows,
           const std::vector<size_t>& columns)
      : rows_(std::move(rows)),
        keys_(t.num_columns()),
        nulls_(t.num_columns()) {
    for (size_t c : columns) {
      if (!keys_[c].empty() || rows_.empty()) continue;
      const Column& column = t.column(c);
      keys_[c].resize(rows_.size());
      nulls_[c].resize(rows_.size());
      for (size_t i = 0; i < rows_.size(); ++i) {
        keys_[c][i] = CellGroupKey(column, rows_[i]);
        nulls_[c][i] = column.is_null(rows_[i]);
      }
    }
  }

  size_t size() const { return rows_.size(); }
  uint32_t row(size_t i) const { return rows_[i]; }
  // The columns asked for at construction only.
  int64_t key(size_t column, size_t i) const { return keys_[column][i]; }
  bool AnyNull(const std::vector<size_t>& columns, size_t i) const {
    for (size_t c : columns) {
      if (nulls_[c][i]) return true;
    }
    return false;
  }
  // -1, 0 or 1 as (row a's cells) compares with (row b's) on `columns`.
  int Compare(const std::vector<size_t>& columns, size_t a, size_t b) const {
    for (size_t c : columns) {
      if (keys_[c][a] != keys_[c][b]) return keys_[c][a] < keys_[c][b] ? -1 : 1;
    }
    return 0;
  }

 private:
  std::vector<uint32_t> rows_;
  // By table column; empty for the columns not gathered.
  std::vector<std::vector<int64_t>> keys_;
  std::vector<std::vector<uint8_t>> nulls_;
};

std::vector<size_t> Union(std::vector<size_t> a, const std::vector<size_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

// Every column `spec` reads.
std::vector<size_t> ColumnsOf(const FamilySpec& spec) {
  return Union(Union(Union(spec.key, spec.part_columns), spec.required),
               spec.excluded_if_null);
}

// Gives the kept groups and their parts the ids 0, 1, ... of `f` in the
// order Keep first meets them (row order), as every builder numbers them.
class KeptIds {
 public:
  KeptIds(uint32_t num_groups, uint32_t num_parts, CliqueFamily* f)
      : block_id_(num_groups, CliqueFamily::kNone),
        part_id_(num_parts, CliqueFamily::kNone),
        f_(f) {}

  // Slot `slot` of f is in group `group` (kept) and part `part`.
  void Keep(size_t slot, uint32_t group, uint32_t part) {
    uint32_t& b = block_id_[group];
    if (b == CliqueFamily::kNone) b = f_->num_blocks++;
    uint32_t& p = part_id_[part];
    if (p == CliqueFamily::kNone) p = f_->num_parts++;
    f_->block[slot] = b;
    f_->part[slot] = p;
  }

 private:
  std::vector<uint32_t> block_id_;
  std::vector<uint32_t> part_id_;
  CliqueFamily* f_;
};

// f's blocks and parts over `members` (indices into `cells`, ascending by
// row), as BuildDenseFamily's passes over all rows give them: members
// sorted by (key, part) cells, groups of two or more parts kept, numbered
// in row order. Member i's block and part go to f->block[slots[i]] and
// f->part[slots[i]].
void BuildSparseFamily(const RowCells& cells, const FamilySpec& spec,
                       const std::vector<uint32_t>& members,
                       const std::vector<uint32_t>& slots, CliqueFamily* f) {
  const size_t k = members.size();
  // One part per row when there are no part columns.
  auto compare_parts = [&](uint32_t a, uint32_t b) {
    if (!spec.part_columns.empty()) {
      return cells.Compare(spec.part_columns, a, b);
    }
    return cells.row(a) == cells.row(b)
               ? 0
               : (cells.row(a) < cells.row(b) ? -1 : 1);
  };
  std::vector<uint32_t> order(k);
  for (uint32_t i = 0; i < k; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) {
    const int by_key = cells.Compare(spec.key, members[i], members[j]);
    if (by_key != 0) return by_key < 0;
    return compare_parts(members[i], members[j]) < 0;
  });
  // Group and part ids by sorted position; parts per group.
  std::vector<uint32_t> group_of(k), part_of(k), parts_in_group;
  uint32_t num_parts = 0;
  for (size_t r = 0; r < k; ++r) {
    const uint32_t i = order[r];
    const uint32_t previous = r == 0 ? 0 : members[order[r - 1]];
    const bool new_group =
        r == 0 || cells.Compare(spec.key, members[i], previous) != 0;
    const bool new_part = new_group || compare_parts(members[i], previous) != 0;
    if (new_group) parts_in_group.push_back(0);
    if (new_part) {
      ++parts_in_group.back();
      ++num_parts;
    }
    group_of[i] = static_cast<uint32_t>(parts_in_group.size() - 1);
    part_of[i] = num_parts - 1;
  }
  KeptIds ids(static_cast<uint32_t>(parts_in_group.size()), num_parts, f);
  for (size_t i = 0; i < k; ++i) {
    if (parts_in_group[group_of[i]] >= 2) {
      ids.Keep(slots[i], group_of[i], part_of[i]);
    }
  }
}

// f's blocks and parts over the members (`rows`, ascending, more than
// 1/kSparseShare of the table) by passes over every row, into
// f->block[row] and f->part[row].
void BuildDenseFamily(const Table& t, const FamilySpec& spec,
                      const std::vector<uint32_t>& rows, CliqueFamily* f) {
  const size_t n = t.num_rows();
  // Members start in group 0 and are split by the key, then (a copy) by
  // the part columns, or one part per row.
  std::vector<uint32_t> group(n, CliqueFamily::kNone);
  for (uint32_t row : rows) group[row] = 0;
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
  KeptIds ids(num_groups, num_parts, f);
  for (size_t row = 0; row < n; ++row) {
    if (group[row] != CliqueFamily::kNone && parts_in_group[group[row]] >= 2) {
      ids.Keep(row, group[row], part[row]);
    }
  }
}

bool IsMember(const FamilySpec& spec, const auto& any_null) {
  return !any_null(spec.required) &&
         (spec.excluded_if_null.empty() || any_null(spec.excluded_if_null));
}

// Member rows of a family in [a list of] rows: their slot in the
// family's arrays (the position in the list, or the row itself) and row.
struct Members {
  std::vector<uint32_t> rows;
  std::vector<uint32_t> slots;
};

// The family of `spec` over every row of `t` (`listed` null), indexed by
// row, or over the listed rows (ascending), indexed by position in the
// list. Membership is read from the table.
CliqueFamily BuildFamily(const Table& t, const FamilySpec& spec,
                         const std::vector<uint32_t>* listed) {
  const size_t n = t.num_rows();
  const size_t size = listed != nullptr ? listed->size() : n;
  CliqueFamily f;
  f.description = spec.description;
  Members members;
  for (size_t i = 0; i < size; ++i) {
    const uint32_t row =
        listed != nullptr ? (*listed)[i] : static_cast<uint32_t>(i);
    if (IsMember(spec, [&](const std::vector<size_t>& columns) {
          return AnyNull(t, columns, row);
        })) {
      members.rows.push_back(row);
      members.slots.push_back(static_cast<uint32_t>(i));
    }
  }
  // No block without two members (the families of rows with a NULL
  // elsewhere are often empty): the caller drops a family without blocks.
  if (members.rows.size() < 2) return f;
  f.block.assign(size, CliqueFamily::kNone);
  f.part.assign(size, CliqueFamily::kNone);
  if (members.rows.size() <= n / kSparseShare) {
    // A few members: sorting them is cheaper than passes over every row.
    const RowCells cells(t, members.rows, ColumnsOf(spec));
    std::vector<uint32_t> positions(members.rows.size());
    for (uint32_t i = 0; i < positions.size(); ++i) positions[i] = i;
    BuildSparseFamily(cells, spec, positions, members.slots, &f);
    return f;
  }
  if (listed == nullptr) {
    BuildDenseFamily(t, spec, members.rows, &f);
    return f;
  }
  // Passes over every row, then renumbered in list order (ids as
  // BuildSparseFamily gives them).
  CliqueFamily by_row;
  by_row.block.assign(n, CliqueFamily::kNone);
  by_row.part.assign(n, CliqueFamily::kNone);
  BuildDenseFamily(t, spec, members.rows, &by_row);
  KeptIds ids(by_row.num_blocks, by_row.num_parts, &f);
  for (size_t i = 0; i < members.rows.size(); ++i) {
    const uint32_t row = members.rows[i];
    if (by_row.block[row] != CliqueFamily::kNone) {
      ids.Keep(members.slots[i], by_row.block[row], by_row.part[row]);
    }
  }
  return f;
}

// The family of `spec` over a short list of rows (at most 1/kSparseShare
// of the table) whose cells `listed` holds for every column the spec
// reads, indexed by position in the list: read from the gathered cells,
// never from the table.
CliqueFamily BuildShortListFamily(const FamilySpec& spec,
                                  const RowCells& listed) {
  CliqueFamily f;
  f.description = spec.description;
  std::vector<uint32_t> members;  // positions in `listed`
  for (uint32_t i = 0; i < listed.size(); ++i) {
    if (IsMember(spec, [&](const std::vector<size_t>& columns) {
          return listed.AnyNull(columns, i);
        })) {
      members.push_back(i);
    }
  }
  if (members.size() < 2) return f;
  f.block.assign(listed.size(), CliqueFamily::kNone);
  f.part.assign(listed.size(), CliqueFamily::kNone);
  BuildSparseFamily(listed, spec, members, members, &f);
  return f;
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
    joint.description =
        absl::StrCat("key ", ColumnList(t, key), ", one part per row");
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
        absl::StrCat("key ", ColumnList(t, key), ", parts ", ColumnList(t, {b}),
                     " (rows with a NULL elsewhere)");
    out.push_back(std::move(single));
  }
  return out;
}

// The families over every row (`listed` null) or over the listed rows.
absl::StatusOr<std::vector<CliqueFamily>> Families(
    const Table& table, absl::Span<const DenialConstraint> dcs,
    const std::vector<uint32_t>* listed) {
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
      return absl::InvalidArgumentError(
          absl::StrCat("DC '", dc.text, "' reads column ", b[0],
                       " of a table with ", table.num_columns(), " columns."));
    }
    KeyDcs& k = keys[x];
    if (b.empty()) {
      k.has_key_constraint = true;
    } else {
      k.rhs = Union(k.rhs, b);
    }
  }
  std::vector<FamilySpec> specs;
  for (const auto& [key, key_dcs] : keys) {
    for (FamilySpec& spec : SpecsOfKey(table, key, key_dcs)) {
      specs.push_back(std::move(spec));
    }
  }
  // A short list: the cells of every column the families read, gathered
  // once for all of them (a few rows spread over a large table).
  std::optional<RowCells> cells;
  if (listed != nullptr && listed->size() <= table.num_rows() / kSparseShare) {
    std::vector<size_t> columns;
    for (const FamilySpec& spec : specs) {
      columns = Union(columns, ColumnsOf(spec));
    }
    cells.emplace(table, *listed, columns);
  }
  std::vector<CliqueFamily> out;
  for (const FamilySpec& spec : specs) {
    CliqueFamily f = cells.has_value() ? BuildShortListFamily(spec, *cells)
                                       : BuildFamily(table, spec, listed);
    if (f.num_blocks > 0) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<CliqueFamily>> FdCliqueFamilies(
    const Table& table, absl::Span<const DenialConstraint> dcs) {
  return Families(table, dcs, nullptr);
}

absl::StatusOr<std::vector<CliqueFamily>> FdCliqueFamiliesOfRows(
    const Table& table, absl::Span<const DenialConstraint> dcs,
    absl::Span<const uint32_t> rows) {
  RETURN_IF_ERROR(CheckRowList(rows, table.num_rows()));
  const std::vector<uint32_t> listed(rows.begin(), rows.end());
  return Families(table, dcs, &listed);
}

}  // namespace dpq::core::graph
