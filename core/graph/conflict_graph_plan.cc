// Planning one DC for the conflict-graph builder: eligibility filters, key
// columns, the choice of enumeration method, hash partitioning into blocks
// and the per-block sorting the method needs.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/table/table.h"

namespace dpq::core::graph::internal {
namespace {

using constraints::CompareOp;
using constraints::Constant;
using constraints::DenialConstraint;
using constraints::Predicate;
using constraints::TupleVar;
using table::Column;
using table::ColumnType;
using table::Table;

// Rows per item of the parallel passes over the table: large enough that the
// per-item overhead vanishes, small enough to balance.
constexpr size_t kRowChunk = size_t{1} << 15;

constexpr uint32_t kNoCode = std::numeric_limits<uint32_t>::max();

// The value space in which two columns are compared.
enum class Domain { kInt64, kDouble, kStringId };

// Validation guarantees that a string column is only compared with a string
// column. Mixed int64/double compare as doubles, as the reference evaluator
// does.
Domain CommonDomain(ColumnType x, ColumnType y) {
  if (x == ColumnType::kString) return Domain::kStringId;
  if (x == ColumnType::kInt64 && y == ColumnType::kInt64) {
    return Domain::kInt64;
  }
  return Domain::kDouble;
}

int64_t CellKey(const Column& column, Domain domain, size_t row) {
  switch (domain) {
    case Domain::kInt64:
      return column.int64s[row];
    case Domain::kStringId:
      return column.string_ids[row];
    case Domain::kDouble:
      return EncodeDouble(column.numeric_at(row));
  }
  return 0;
}

template <typename T>
int ThreeWay(T x, T y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

// A predicate on one tuple: column op column (same tuple) or column op
// constant, evaluated row by row when filtering.
class SingleTupleCheck {
 public:
  SingleTupleCheck(const Table& table, const Predicate& p)
      : lhs_(&table.column(p.lhs.column)), op_(p.op) {
    if (!p.rhs.is_constant) {
      rhs_ = &table.column(p.rhs.column);
      domain_ = CommonDomain(lhs_->type, rhs_->type);
      return;
    }
    const Constant& c = p.rhs.constant;
    if (lhs_->type == ColumnType::kString) {
      // Ids follow the strings' order, so the constant's place among them
      // (its lower bound, and whether it occurs) decides every comparison.
      const table::StringDictionary& dict = table.dictionary();
      size_t lo = 0, hi = dict.size();
      while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (dict.at(static_cast<uint32_t>(mid)) < c.string_value) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      string_bound_ = lo;
      string_found_ = lo < dict.size() &&
                      dict.at(static_cast<uint32_t>(lo)) == c.string_value;
    } else if (lhs_->type == ColumnType::kInt64 &&
               c.type == ColumnType::kInt64) {
      domain_ = Domain::kInt64;
      int_constant_ = c.int64_value;
    } else {
      domain_ = Domain::kDouble;
      double_constant_ = c.type == ColumnType::kInt64
                             ? static_cast<double>(c.int64_value)
                             : c.double_value;
    }
  }

  // Precondition: the lhs cell (and a column rhs) is not NULL.
  bool Holds(size_t row) const {
    int cmp = 0;
    if (rhs_ != nullptr) {
      cmp =
          ThreeWay(CellKey(*lhs_, domain_, row), CellKey(*rhs_, domain_, row));
    } else if (lhs_->type == ColumnType::kString) {
      const uint64_t id = lhs_->string_ids[row];
      cmp = id < string_bound_                       ? -1
            : (id == string_bound_ && string_found_) ? 0
                                                     : 1;
    } else if (domain_ == Domain::kInt64) {
      cmp = ThreeWay(lhs_->int64s[row], int_constant_);
    } else {
      cmp = ThreeWay(lhs_->numeric_at(row), double_constant_);
    }
    // cmp op 0 is the comparison the three-way result stands for.
    return constraints::ApplyCompareOp(cmp, op_, 0);
  }

 private:
  const Column* lhs_;
  const Column* rhs_ = nullptr;
  CompareOp op_;
  Domain domain_ = Domain::kStringId;
  uint64_t string_bound_ = 0;
  bool string_found_ = false;
  int64_t int_constant_ = 0;
  double double_constant_ = 0;
};

// What a tuple variable must satisfy on its own.
struct SideFilter {
  std::vector<const Column*> non_null;
  std::vector<SingleTupleCheck> checks;

  bool Eligible(size_t row) const {
    for (const Column* c : non_null) {
      if (c->is_null(row)) return false;
    }
    for (const SingleTupleCheck& check : checks) {
      if (!check.Holds(row)) return false;
    }
    return true;
  }
};

// Rows passing `filter`, ascending.
std::vector<uint32_t> EligibleRows(const SideFilter& filter, size_t num_rows,
                                   int num_threads) {
  const size_t chunks = (num_rows + kRowChunk - 1) / kRowChunk;
  std::vector<std::vector<uint32_t>> parts(chunks);
  ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
    const size_t end = std::min(num_rows, (chunk + 1) * kRowChunk);
    for (size_t row = chunk * kRowChunk; row < end; ++row) {
      if (filter.Eligible(row)) {
        parts[chunk].push_back(static_cast<uint32_t>(row));
      }
    }
  });
  std::vector<uint32_t> rows;
  for (const std::vector<uint32_t>& part : parts) {
    rows.insert(rows.end(), part.begin(), part.end());
  }
  return rows;
}

// Builds key columns once per (column, domain, complemented) for a DC.
class KeyColumns {
 public:
  KeyColumns(const Table& table, int num_threads, DcPlan* plan)
      : table_(table), num_threads_(num_threads), plan_(plan) {}

  const int64_t* Get(size_t column, Domain domain, bool complemented) {
    for (const Entry& e : entries_) {
      if (e.column == column && e.domain == domain &&
          e.complemented == complemented) {
        return e.keys;
      }
    }
    const Column& c = table_.column(column);
    const size_t n = table_.num_rows();
    std::vector<int64_t>& keys = plan_->key_storage.emplace_back(n);
    const size_t chunks = (n + kRowChunk - 1) / kRowChunk;
    ParallelFor(chunks, num_threads_, [&](size_t chunk, int) {
      const size_t end = std::min(n, (chunk + 1) * kRowChunk);
      for (size_t row = chunk * kRowChunk; row < end; ++row) {
        // NULL cells keep key 0: their rows are never eligible.
        if (c.is_null(row)) continue;
        const int64_t k = CellKey(c, domain, row);
        keys[row] = complemented ? ~k : k;
      }
    });
    entries_.push_back({column, domain, complemented, keys.data()});
    return keys.data();
  }

 private:
  struct Entry {
    size_t column;
    Domain domain;
    bool complemented;
    const int64_t* keys;
  };
  const Table& table_;
  int num_threads_;
  DcPlan* plan_;
  std::vector<Entry> entries_;
};

JoinKey MakeJoinKey(const Table& table, const Predicate& p, KeyColumns* keys) {
  const Domain domain = CommonDomain(table.column(p.lhs.column).type,
                                     table.column(p.rhs.column).type);
  // t1.A < t2.B  <=>  ~B < ~A: complementing turns every inequality into
  // "t2 key below t1 key", so qualifying t2 rows are always a prefix.
  const bool complement = p.op == CompareOp::kLt || p.op == CompareOp::kLe;
  JoinKey k;
  k.a = keys->Get(p.lhs.column, domain, complement);
  k.b = keys->Get(p.rhs.column, domain, complement);
  switch (p.op) {
    case CompareOp::kEq:
      k.kind = JoinKey::kEq;
      break;
    case CompareOp::kNe:
      k.kind = JoinKey::kNe;
      break;
    case CompareOp::kLt:
    case CompareOp::kGt:
      k.kind = JoinKey::kLess;
      break;
    case CompareOp::kLe:
    case CompareOp::kGe:
      k.kind = JoinKey::kLessEq;
      break;
  }
  return k;
}

// Sorts rows[begin, end) by (key, row).
void SortByKey(std::vector<uint32_t>* rows, size_t begin, size_t end,
               const int64_t* key) {
  std::sort(rows->begin() + begin, rows->begin() + end,
            [key](uint32_t x, uint32_t y) {
              return key[x] < key[y] || (key[x] == key[y] && x < y);
            });
}

// Groups `rows` (one side) into blocks by `codes` (kNoCode = dropped) given
// the code -> block map; fills rows/offsets in block order, rows ascending
// within a block (counting sort, stable).
void Scatter(const std::vector<uint32_t>& rows,
             const std::vector<uint32_t>& codes,
             const std::vector<uint32_t>& block_of_code, size_t num_blocks,
             std::vector<uint32_t>* out_rows,
             std::vector<uint32_t>* out_offsets) {
  std::vector<uint32_t> offsets(num_blocks + 1, 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (codes[i] == kNoCode) continue;
    const uint32_t b = block_of_code[codes[i]];
    if (b != kNoCode) ++offsets[b + 1];
  }
  for (size_t b = 0; b < num_blocks; ++b) offsets[b + 1] += offsets[b];
  out_rows->assign(offsets[num_blocks], 0);
  std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (codes[i] == kNoCode) continue;
    const uint32_t b = block_of_code[codes[i]];
    if (b != kNoCode) (*out_rows)[cursor[b]++] = rows[i];
  }
  *out_offsets = std::move(offsets);
}

// Dense codes of one equality's keys: l_codes[i] for t1 row l0[i] and
// r_codes[j] for t2 row r0[j] (left empty if symmetric); equal keys get
// equal codes. Keys spanning a small range (string ids, small integers:
// the usual case) are coded as key - min, with no hashing at all; others
// through a hash map of the t1 keys (a t2 key no t1 row has gets kNoCode).
// Returns the number of codes.
uint32_t KeyCodes(const JoinKey& key, const std::vector<uint32_t>& l0,
                  const std::vector<uint32_t>& r0, bool symmetric,
                  int num_threads, std::vector<uint32_t>* l_codes,
                  std::vector<uint32_t>* r_codes) {
  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  for (uint32_t row : l0) {
    lo = std::min(lo, key.a[row]);
    hi = std::max(hi, key.a[row]);
  }
  if (!symmetric) {
    for (uint32_t row : r0) {
      lo = std::min(lo, key.b[row]);
      hi = std::max(hi, key.b[row]);
    }
  }
  l_codes->assign(l0.size(), kNoCode);
  r_codes->assign(symmetric ? 0 : r0.size(), kNoCode);
  if (l0.empty()) return 0;
  const uint64_t range =
      static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  const uint64_t small = 2 * (uint64_t{l0.size()} + r0.size()) + 1024;
  // Codes stay below kNoCode (2^32 - 1), which marks "no code".
  if (range != 0 && range <= small && range < kNoCode) {
    auto code = [lo](int64_t k) {
      return static_cast<uint32_t>(static_cast<uint64_t>(k) -
                                   static_cast<uint64_t>(lo));
    };
    const size_t chunks = (l0.size() + kRowChunk - 1) / kRowChunk;
    ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
      const size_t end = std::min(l0.size(), (chunk + 1) * kRowChunk);
      for (size_t i = chunk * kRowChunk; i < end; ++i) {
        (*l_codes)[i] = code(key.a[l0[i]]);
      }
    });
    for (size_t j = 0; j < r_codes->size(); ++j) {
      (*r_codes)[j] = code(key.b[r0[j]]);
    }
    return static_cast<uint32_t>(range);
  }
  absl::flat_hash_map<int64_t, uint32_t> first;
  first.reserve(l0.size());
  for (size_t i = 0; i < l0.size(); ++i) {
    const uint32_t next = static_cast<uint32_t>(first.size());
    (*l_codes)[i] = first.try_emplace(key.a[l0[i]], next).first->second;
  }
  const size_t chunks = (r_codes->size() + kRowChunk - 1) / kRowChunk;
  ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
    const size_t end = std::min(r_codes->size(), (chunk + 1) * kRowChunk);
    for (size_t j = chunk * kRowChunk; j < end; ++j) {
      auto it = first.find(key.b[r0[j]]);
      if (it != first.end()) (*r_codes)[j] = it->second;
    }
  });
  return static_cast<uint32_t>(first.size());
}

// Partitions the eligible rows into blocks of equal equality keys, on
// dense integer codes (KeyCodes, RefineCodes). t1 and t2 rows are coded
// together so that their codes agree; codes with no pair are dropped.
void PartitionByEqualities(const std::vector<JoinKey>& equalities,
                           const std::vector<uint32_t>& l0,
                           const std::vector<uint32_t>& r0, int num_threads,
                           DcPlan* plan) {
  const bool symmetric = plan->symmetric;
  std::vector<uint32_t> l_codes, r_codes;
  uint32_t num_codes = KeyCodes(equalities[0], l0, r0, symmetric, num_threads,
                                &l_codes, &r_codes);
  for (size_t e = 1; e < equalities.size(); ++e) {
    std::vector<uint32_t> l_more, r_more;
    const uint32_t num_more = KeyCodes(equalities[e], l0, r0, symmetric,
                                       num_threads, &l_more, &r_more);
    // Both sides at once: codes must stay comparable across them.
    std::vector<uint32_t> both = std::move(l_codes);
    both.insert(both.end(), r_codes.begin(), r_codes.end());
    l_more.insert(l_more.end(), r_more.begin(), r_more.end());
    num_codes = RefineCodes(num_codes, &both, num_more, l_more);
    r_codes.assign(both.begin() + l0.size(), both.end());
    both.resize(l0.size());
    l_codes = std::move(both);
  }
  if (symmetric) r_codes = l_codes;

  std::vector<uint32_t> l_count(num_codes, 0), r_count(num_codes, 0);
  for (uint32_t c : l_codes) {
    if (c != kNoCode) ++l_count[c];
  }
  for (uint32_t c : r_codes) {
    if (c != kNoCode) ++r_count[c];
  }
  // A block needs a pair: rows on both sides, two rows if they are the same.
  std::vector<uint32_t> block_of_code(num_codes, kNoCode);
  uint32_t num_blocks = 0;
  for (size_t c = 0; c < num_codes; ++c) {
    const bool keep =
        symmetric ? l_count[c] >= 2 : (l_count[c] > 0 && r_count[c] > 0);
    if (keep) block_of_code[c] = num_blocks++;
  }
  Scatter(l0, l_codes, block_of_code, num_blocks, &plan->l_rows,
          &plan->l_offsets);
  if (!symmetric) {
    Scatter(r0, r_codes, block_of_code, num_blocks, &plan->r_rows,
            &plan->r_offsets);
  }
}

// Sorts inside every block as the method needs (see DcPlan).
void PrepareBlocks(int num_threads, DcPlan* plan) {
  if (plan->method == Method::kAll) return;
  const size_t num_blocks = plan->num_blocks();
  std::vector<uint32_t>& l_rows = plan->l_rows;
  std::vector<uint32_t>& r_rows = plan->symmetric ? plan->l_rows : plan->r_rows;
  const std::vector<uint32_t>& l_off = plan->l_offsets;
  const std::vector<uint32_t>& r_off = plan->t2_offsets();
  if (plan->method == Method::kIeJoin) {
    plan->r_rank2.assign(r_rows.size(), 0);
    plan->r_by_rank2.assign(r_rows.size(), 0);
  }
  // Sorting a few thousand rows is faster than starting threads.
  if (r_rows.size() + l_rows.size() < kRowChunk) num_threads = 1;
  ParallelFor(num_blocks, num_threads, [&](size_t b, int) {
    const size_t rb = r_off[b], re = r_off[b + 1];
    SortByKey(&r_rows, rb, re, plan->driver1.b);
    if (plan->method != Method::kIeJoin) return;
    SortByKey(&l_rows, l_off[b], l_off[b + 1], plan->driver1.a);
    std::vector<uint32_t> by_rank(re - rb);
    std::iota(by_rank.begin(), by_rank.end(), 0u);
    const int64_t* key2 = plan->driver2.b;
    std::sort(by_rank.begin(), by_rank.end(), [&](uint32_t x, uint32_t y) {
      const int64_t kx = key2[r_rows[rb + x]], ky = key2[r_rows[rb + y]];
      return kx < ky || (kx == ky && x < y);
    });
    for (uint32_t rank = 0; rank < by_rank.size(); ++rank) {
      plan->r_rank2[rb + by_rank[rank]] = rank;
      plan->r_by_rank2[rb + rank] = r_rows[rb + by_rank[rank]];
    }
  });
}

// RefineCodes through a table of every (old, new) pair: codes numbered as
// the pairs first appear. O(items + pairs).
uint32_t RefineCodesByTable(uint32_t num_new, std::vector<uint32_t>* old_codes,
                            const std::vector<uint32_t>& new_codes,
                            uint64_t pairs) {
  std::vector<uint32_t> code_of_pair(pairs, kNoCode);
  uint32_t next = 0;
  for (size_t i = 0; i < old_codes->size(); ++i) {
    uint32_t& code = (*old_codes)[i];
    if (code == kNoCode) continue;
    if (new_codes[i] == kNoCode) {
      code = kNoCode;
      continue;
    }
    uint32_t& combined = code_of_pair[uint64_t{code} * num_new + new_codes[i]];
    if (combined == kNoCode) combined = next++;
    code = combined;
  }
  return next;
}

}  // namespace

uint32_t RefineCodes(uint32_t num_old, std::vector<uint32_t>* old_codes,
                     uint32_t num_new, const std::vector<uint32_t>& new_codes) {
  const size_t m = old_codes->size();
  // When the (old, new) pairs fit a table no larger than the counting
  // sort's own buffers, one pass numbers them through it: the first
  // refinement (num_old == 1, a column's codes as they are) and a small
  // column (a flag, a status) after a key.
  const uint64_t pairs = uint64_t{num_old} * num_new;
  if (pairs <= std::max<uint64_t>(2 * uint64_t{m} + 1024, num_new)) {
    return RefineCodesByTable(num_new, old_codes, new_codes, pairs);
  }
  std::vector<uint32_t> start(static_cast<size_t>(num_new) + 1, 0);
  for (size_t i = 0; i < m; ++i) {
    if ((*old_codes)[i] != kNoCode && new_codes[i] != kNoCode) {
      ++start[new_codes[i] + 1];
    }
  }
  for (size_t c = 0; c < num_new; ++c) start[c + 1] += start[c];
  std::vector<uint32_t> order(start[num_new]);
  std::vector<uint32_t> cursor(start.begin(), start.end() - 1);
  for (size_t i = 0; i < m; ++i) {
    if ((*old_codes)[i] != kNoCode && new_codes[i] != kNoCode) {
      order[cursor[new_codes[i]]++] = static_cast<uint32_t>(i);
    }
  }
  std::vector<uint32_t> stamp(num_old, kNoCode), combined(num_old, 0);
  std::vector<uint32_t> out(m, kNoCode);
  uint32_t next = 0;
  for (uint32_t c = 0; c < num_new; ++c) {
    for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
      const uint32_t i = order[k];
      const uint32_t old = (*old_codes)[i];
      if (stamp[old] != c) {
        stamp[old] = c;
        combined[old] = next++;
      }
      out[i] = combined[old];
    }
  }
  *old_codes = std::move(out);
  return next;
}

int64_t EncodeDouble(double value) {
  if (value == 0) value = 0;  // -0.0 == +0.0
  const int64_t bits = std::bit_cast<int64_t>(value);
  // Non-negative doubles order like their bit patterns; negative ones in
  // reverse, which flipping all bits but the sign undoes.
  return bits >= 0 ? bits : bits ^ std::numeric_limits<int64_t>::max();
}

absl::StatusOr<DcPlan> PlanDc(const Table& table, const DenialConstraint& dc,
                              int num_threads) {
  DcPlan plan;
  // A DC without predicates is violated by nothing (the reference
  // evaluator's convention; the parser never produces one).
  if (dc.predicates.empty()) return plan;
  KeyColumns keys(table, num_threads, &plan);
  SideFilter filter[2];
  std::vector<JoinKey> equalities, unequalities, inequalities;
  bool symmetric_predicates = true;
  for (const Predicate& raw : dc.predicates) {
    // The parser already normalised it; hand-built DCs may not be.
    const Predicate p = constraints::NormalizePredicate(raw);
    if (p.is_join()) {
      filter[0].non_null.push_back(&table.column(p.lhs.column));
      filter[1].non_null.push_back(&table.column(p.rhs.column));
      const JoinKey k = MakeJoinKey(table, p, &keys);
      if (k.kind == JoinKey::kEq) {
        equalities.push_back(k);
      } else if (k.kind == JoinKey::kNe) {
        unequalities.push_back(k);
      } else {
        inequalities.push_back(k);
      }
      symmetric_predicates &=
          p.lhs.column == p.rhs.column &&
          (p.op == CompareOp::kEq || p.op == CompareOp::kNe);
      continue;
    }
    SideFilter& side = filter[p.lhs.tuple == TupleVar::kT1 ? 0 : 1];
    side.non_null.push_back(&table.column(p.lhs.column));
    if (!p.rhs.is_constant) {
      side.non_null.push_back(&table.column(p.rhs.column));
    }
    side.checks.emplace_back(table, p);
  }

  const size_t n = table.num_rows();
  std::vector<uint32_t> l0 = EligibleRows(filter[0], n, num_threads);
  std::vector<uint32_t> r0 = EligibleRows(filter[1], n, num_threads);
  plan.eligible_t1 = l0.size();
  plan.eligible_t2 = r0.size();
  // With same-column `=`/`!=` join predicates and the same eligible rows on
  // both sides, (x, y) violates iff (y, x) does: unordered pairs suffice.
  plan.symmetric = symmetric_predicates && l0 == r0;
  plan.has_equality = !equalities.empty();

  if (inequalities.size() >= 2) {
    plan.method = Method::kIeJoin;
    plan.driver1 = inequalities[0];
    plan.driver2 = inequalities[1];
    plan.checks.assign(inequalities.begin() + 2, inequalities.end());
    plan.checks.insert(plan.checks.end(), unequalities.begin(),
                       unequalities.end());
  } else if (inequalities.size() == 1) {
    plan.method = Method::kSort;
    plan.driver1 = inequalities[0];
    plan.checks = unequalities;
  } else if (!unequalities.empty()) {
    plan.method = Method::kGroup;
    plan.driver1 = unequalities[0];
    plan.checks.assign(unequalities.begin() + 1, unequalities.end());
  } else {
    plan.method = Method::kAll;
  }

  if (plan.has_equality) {
    PartitionByEqualities(equalities, l0, r0, num_threads, &plan);
  } else if (plan.symmetric ? l0.size() >= 2 : (!l0.empty() && !r0.empty())) {
    // No equality: the whole table is one block.
    plan.l_offsets = {0, static_cast<uint32_t>(l0.size())};
    plan.l_rows = std::move(l0);
    if (!plan.symmetric) {
      plan.r_offsets = {0, static_cast<uint32_t>(r0.size())};
      plan.r_rows = std::move(r0);
    }
  }
  PrepareBlocks(num_threads, &plan);
  return plan;
}

}  // namespace dpq::core::graph::internal
