#include "core/graph/order_chains.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "core/graph/row_groups.h"
#include "core/util/status_macros.h"

namespace dpq::core::graph {
namespace {

using constraints::CompareOp;
using constraints::DenialConstraint;
using constraints::Predicate;
using table::Column;
using table::ColumnType;
using table::Table;

bool IsSameColumnJoin(const Predicate& p) {
  return p.is_join() && p.lhs.column == p.rhs.column;
}

bool IsOrderOp(CompareOp op) {
  return op == CompareOp::kLt || op == CompareOp::kLe || op == CompareOp::kGt ||
         op == CompareOp::kGe;
}

// A non-NULL cell as an int64 in the order DC comparisons use: int64
// values, string ids (the dictionary is sorted), and finite doubles by
// their bits, negatives flipped so that the integer order is the numeric
// one (-0.0 first made +0.0: they compare equal). Tables hold no NaN (the
// readers make it NULL, csv_reader.h), which would compare false with
// everything and break the order.
int64_t OrderKey(const Column& column, size_t row) {
  switch (column.type) {
    case ColumnType::kInt64:
      return column.int64s[row];
    case ColumnType::kString:
      return column.string_ids[row];
    case ColumnType::kDouble: {
      const double d = column.doubles[row] == 0 ? 0.0 : column.doubles[row];
      const int64_t bits = std::bit_cast<int64_t>(d);
      return bits < 0 ? bits ^ INT64_MAX : bits;
    }
  }
  return 0;
}

// An order DC's predicates as read from t1's side: its equality columns
// and its order predicates (column, operator), in the DC's order.
struct OrderPredicates {
  std::vector<size_t> equal;
  std::vector<std::pair<size_t, CompareOp>> order;
};
OrderPredicates ReadPredicates(const DenialConstraint& dc) {
  OrderPredicates out;
  for (const Predicate& p : dc.predicates) {
    // t1 on the left (the parser's normal form); a DC built by hand may
    // have t2 there, which mirrors the operator.
    const CompareOp op = p.lhs.tuple == constraints::TupleVar::kT1
                             ? p.op
                             : constraints::SwapOperands(p.op);
    if (op == CompareOp::kEq) {
      out.equal.push_back(p.lhs.column);
    } else {
      out.order.emplace_back(p.lhs.column, op);
    }
  }
  return out;
}

// The same predicates in a canonical form: sorted, and mirrored (every
// operator swapped, i.e. t1 and t2 exchanged) so that the first order
// predicate reads < or <=. Two order DCs with one form have the same
// chains: the Tax pair `salary> & rate<` and `salary< & rate>` is one
// relation read from either end.
OrderPredicates Canonical(OrderPredicates p) {
  std::sort(p.equal.begin(), p.equal.end());
  p.equal.erase(std::unique(p.equal.begin(), p.equal.end()), p.equal.end());
  std::sort(p.order.begin(), p.order.end());
  if (p.order.front().second == CompareOp::kGt ||
      p.order.front().second == CompareOp::kGe) {
    for (auto& [column, op] : p.order) op = constraints::SwapOperands(op);
    std::sort(p.order.begin(), p.order.end());
  }
  return p;
}

ChainFamily FamilyOf(const Table& t, const DenialConstraint& dc,
                     absl::Span<const uint32_t> rows) {
  const auto [equal, order] = ReadPredicates(dc);
  ChainFamily f;
  f.description = dc.text;
  f.arity = static_cast<uint32_t>(order.size());
  for (const auto& [column, op] : order) {
    f.strict.push_back(op == CompareOp::kLt || op == CompareOp::kGt);
  }
  f.group.assign(rows.size(), ChainFamily::kNone);
  f.keys.assign(rows.size() * order.size(), 0);
  absl::flat_hash_map<std::vector<int64_t>, uint32_t> group_ids;
  std::vector<int64_t> cells;
  for (size_t i = 0; i < rows.size(); ++i) {
    const uint32_t row = rows[i];
    bool any_null = false;
    for (const Predicate& p : dc.predicates) {
      any_null = any_null || t.column(p.lhs.column).is_null(row);
    }
    if (any_null) continue;  // a comparison with NULL is false
    cells.clear();
    for (size_t c : equal) cells.push_back(CellGroupKey(t.column(c), row));
    const auto [it, added] =
        group_ids.try_emplace(cells, static_cast<uint32_t>(group_ids.size()));
    f.group[i] = it->second;
    for (size_t j = 0; j < order.size(); ++j) {
      const int64_t key = OrderKey(t.column(order[j].first), row);
      // ~ reverses the order without overflow: t1.A > t2.A reads
      // ~A(t1) < ~A(t2).
      const bool reversed = order[j].second == CompareOp::kGt ||
                            order[j].second == CompareOp::kGe;
      f.keys[i * order.size() + j] = reversed ? ~key : key;
    }
  }
  return f;
}

}  // namespace

bool IsOrderDc(const DenialConstraint& dc) {
  int orders = 0;
  for (const Predicate& p : dc.predicates) {
    if (!IsSameColumnJoin(p)) return false;
    if (IsOrderOp(p.op)) {
      ++orders;
    } else if (p.op != CompareOp::kEq) {
      return false;  // != is not transitive
    }
  }
  return orders >= 2;
}

absl::StatusOr<std::vector<ChainFamily>> OrderChainFamiliesOfRows(
    const Table& table, absl::Span<const DenialConstraint> dcs,
    absl::Span<const uint32_t> rows) {
  RETURN_IF_ERROR(CheckRowList(rows, table.num_rows()));
  std::vector<ChainFamily> out;
  std::vector<OrderPredicates> seen;  // canonical forms of `out`'s DCs
  for (const DenialConstraint& dc : dcs) {
    if (!IsOrderDc(dc)) continue;
    OrderPredicates form = Canonical(ReadPredicates(dc));
    if (std::any_of(seen.begin(), seen.end(), [&](const OrderPredicates& o) {
          return o.equal == form.equal && o.order == form.order;
        })) {
      continue;  // the same chains as an earlier DC's
    }
    seen.push_back(std::move(form));
    out.push_back(FamilyOf(table, dc, rows));
  }
  return out;
}

absl::StatusOr<std::vector<ChainFamily>> OrderChainFamilies(
    const Table& table, absl::Span<const DenialConstraint> dcs) {
  std::vector<uint32_t> rows(table.num_rows());
  for (uint32_t r = 0; r < rows.size(); ++r) rows[r] = r;
  return OrderChainFamiliesOfRows(table, dcs, rows);
}

}  // namespace dpq::core::graph
