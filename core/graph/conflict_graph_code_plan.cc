// Planning the DCs every FD is made of (X -> B: t1.X = t2.X, t1.B != t2.B)
// on integer codes alone: rows are bucketed by one equality column's code
// (a counting sort, shared by the DCs that bucket on that column), each
// bucket is sorted by the other codes held next to the row (no
// indirection into key columns), and only blocks that can violate are
// kept. Linear in the rows when blocks stay small, which is
// what keeps the 10M-row build at 10x the 1M-row one (docs/performance.md
// "Loading and blocking").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/table/table.h"

namespace dpq::core::graph::internal {
namespace {

using constraints::CompareOp;
using constraints::DenialConstraint;
using constraints::Predicate;
using table::Column;
using table::ColumnType;
using table::Table;

constexpr uint32_t kNoCode = std::numeric_limits<uint32_t>::max();
// Rows per item of the parallel passes over the table.
constexpr size_t kRowChunk = size_t{1} << 15;
// Threads of a counting sort with per-thread counts over all codes.
constexpr int kMaxCountThreads = 8;
// Bucket positions between a prefetch and its use when gathering keys.
constexpr uint32_t kGatherAhead = 16;
// Items of the parallel per-bucket pass (balanced by rows).
constexpr size_t kBucketTasksPerThread = 16;

// The shape SameColumnPlanner handles, or std::nullopt.
std::optional<SameColumnShape> MatchShape(const DenialConstraint& dc) {
  SameColumnShape shape;
  for (const Predicate& raw : dc.predicates) {
    const Predicate p = constraints::NormalizePredicate(raw);
    if (!p.is_join() || p.lhs.column != p.rhs.column) return std::nullopt;
    if (p.op == CompareOp::kEq) {
      shape.equal.push_back(p.lhs.column);
    } else if (p.op == CompareOp::kNe && !shape.unequal.has_value()) {
      shape.unequal = p.lhs.column;
    } else {
      return std::nullopt;
    }
  }
  if (shape.equal.empty()) return std::nullopt;
  return shape;
}

// Codes of one column's cells below range(): equal cells (as the builder
// compares them: string ids, int64 values, doubles with -0.0 == +0.0) get
// equal codes; NULL cells are never asked for. String ids and int64
// columns of a small span are offset, not copied; other numbers are coded
// once through a hash map.
class ColumnCodes {
 public:
  ColumnCodes(const Column& column, size_t num_rows, int num_threads)
      : column_(column) {
    // A span up to about twice the rows is cheap to count over; the ids
    // of a string column can span much more (one dictionary serves every
    // column), and so can numbers.
    // Codes stay below kNoCode (2^32 - 1), which marks "no code".
    const uint64_t small =
        std::min<uint64_t>(2 * uint64_t{num_rows} + 1024, kNoCode - 1);
    if (column.type == ColumnType::kString) {
      const auto [lo, hi] =
          MinMax(column.string_ids.data(), num_rows, num_threads);
      if (hi < lo || static_cast<uint64_t>(hi - lo) < small) {
        kind_ = kIds;
        min_ = lo;
        range_ = hi < lo ? 0 : static_cast<uint64_t>(hi - lo) + 1;
        return;
      }
    } else if (column.type == ColumnType::kInt64) {
      const auto [lo, hi] = MinMax(column.int64s.data(), num_rows, num_threads);
      if (hi >= lo &&
          static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) < small) {
        kind_ = kInts;
        min_ = lo;
        range_ = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
        return;
      }
    }
    Materialize(num_rows);
  }

  uint64_t range() const { return range_; }

  // Precondition: the cell is not NULL.
  uint32_t Code(size_t row) const {
    switch (kind_) {
      case kIds:
        return static_cast<uint32_t>(column_.string_ids[row] - min_);
      case kInts:
        return static_cast<uint32_t>(
            static_cast<uint64_t>(column_.int64s[row]) -
            static_cast<uint64_t>(min_));
      case kTable:
        return table_[row];
    }
    return kNoCode;
  }

 private:
  enum Kind { kIds, kInts, kTable };

  // Min and max over the non-NULL cells (lo > hi if there is none).
  template <typename T>
  std::pair<int64_t, int64_t> MinMax(const T* values, size_t num_rows,
                                     int num_threads) const {
    const size_t chunks = (num_rows + kRowChunk - 1) / kRowChunk;
    std::vector<std::pair<int64_t, int64_t>> part(
        chunks, {std::numeric_limits<int64_t>::max(),
                 std::numeric_limits<int64_t>::min()});
    ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
      auto& [lo, hi] = part[chunk];
      const size_t end = std::min(num_rows, (chunk + 1) * kRowChunk);
      for (size_t row = chunk * kRowChunk; row < end; ++row) {
        if (column_.is_null(row)) continue;
        lo = std::min<int64_t>(lo, values[row]);
        hi = std::max<int64_t>(hi, values[row]);
      }
    });
    std::pair<int64_t, int64_t> all = {std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min()};
    for (const auto& [lo, hi] : part) {
      all.first = std::min(all.first, lo);
      all.second = std::max(all.second, hi);
    }
    return all;
  }

  void Materialize(size_t num_rows) {
    kind_ = kTable;
    table_.assign(num_rows, kNoCode);
    absl::flat_hash_map<int64_t, uint32_t> code_of;
    for (size_t row = 0; row < num_rows; ++row) {
      if (column_.is_null(row)) continue;
      int64_t key = 0;
      switch (column_.type) {
        case ColumnType::kString:
          key = column_.string_ids[row];
          break;
        case ColumnType::kInt64:
          key = column_.int64s[row];
          break;
        case ColumnType::kDouble:
          key = EncodeDouble(column_.doubles[row]);
          break;
      }
      table_[row] =
          code_of.try_emplace(key, static_cast<uint32_t>(code_of.size()))
              .first->second;
    }
    range_ = code_of.size();
  }

  const Column& column_;
  Kind kind_ = kTable;
  int64_t min_ = 0;
  uint64_t range_ = 0;
  std::vector<uint32_t> table_;
};

// The codes one DC reads beyond its bucket column, and which rows have
// all of its columns.
class DcCodes {
 public:
  DcCodes(const Table& table, const SameColumnShape& shape, size_t bucket,
          int num_threads) {
    const size_t n = table.num_rows();
    for (size_t column : shape.equal)
      nullable_.push_back(&table.column(column));
    if (shape.unequal) nullable_.push_back(&table.column(*shape.unequal));
    std::vector<size_t> further;
    for (size_t column : shape.equal) {
      if (column != bucket) further.push_back(column);
    }
    if (!further.empty()) RefineFurther(table, further, num_threads);
    if (shape.unequal) {
      unequal_.emplace(table.column(*shape.unequal), n, num_threads);
    }
  }

  bool Eligible(size_t row) const {
    for (const Column* c : nullable_) {
      if (c->is_null(row)) return false;
    }
    return true;
  }
  uint64_t Key(size_t row) const {
    const uint64_t high = further_.empty() ? 0 : further_[row];
    const uint64_t low = unequal_ ? unequal_->Code(row) : 0;
    return high << 32 | low;
  }
  // Rows with every column of the DC, counted on all threads.
  uint64_t CountEligible(size_t n, int num_threads) const {
    const size_t chunks = (n + kRowChunk - 1) / kRowChunk;
    std::vector<uint64_t> part(chunks, 0);
    ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
      const size_t end = std::min(n, (chunk + 1) * kRowChunk);
      for (size_t row = chunk * kRowChunk; row < end; ++row) {
        part[chunk] += Eligible(row);
      }
    });
    uint64_t total = 0;
    for (uint64_t c : part) total += c;
    return total;
  }

 private:
  // One code for the equalities other than the bucket's (refined; rows
  // missing a column get kNoCode and are never read).
  void RefineFurther(const Table& table, const std::vector<size_t>& further,
                     int num_threads) {
    const size_t n = table.num_rows();
    std::vector<uint32_t> next(n, kNoCode);
    for (size_t e = 0; e < further.size(); ++e) {
      const ColumnCodes codes(table.column(further[e]), n, num_threads);
      const size_t chunks = (n + kRowChunk - 1) / kRowChunk;
      ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
        const size_t end = std::min(n, (chunk + 1) * kRowChunk);
        for (size_t row = chunk * kRowChunk; row < end; ++row) {
          next[row] = Eligible(row) ? codes.Code(row) : kNoCode;
        }
      });
      if (e == 0) {
        further_ = std::move(next);
        num_further_ = static_cast<uint32_t>(codes.range());
        next.assign(n, kNoCode);
      } else {
        num_further_ = RefineCodes(num_further_, &further_,
                                   static_cast<uint32_t>(codes.range()), next);
      }
    }
  }

  std::vector<const Column*> nullable_;
  std::optional<ColumnCodes> unequal_;
  std::vector<uint32_t> further_;
  uint32_t num_further_ = 0;
};

// What one range of buckets contributes to the plan.
struct Piece {
  uint64_t pairs = 0;  // violating pairs in its blocks
  std::vector<uint32_t> rows;
  std::vector<uint32_t> block_sizes;
  std::vector<uint32_t> run_starts;  // relative to the piece's rows
};

// Resizes a scratch buffer kept across DCs (a larger one is allocated
// afresh: growing would copy what is about to be overwritten).
template <typename T>
void ResizeScratch(std::vector<T>* v, size_t n) {
  if (v->capacity() < n) std::vector<T>().swap(*v);
  v->resize(n);
}

// Marks a row without every column of the DC in the keys by row (a real
// key never is: its two codes are below 2^32 - 1).
constexpr uint64_t kIneligible = std::numeric_limits<uint64_t>::max();

// Every row's key (DcCodes::Key) or kIneligible, written in row order on
// all threads: the buckets then read one word per row where they would
// otherwise gather a NULL byte per column and each code.
void FillKeys(const DcCodes& codes, size_t n, int num_threads,
              std::vector<uint64_t>* keys) {
  ResizeScratch(keys, n);
  const size_t chunks = (n + kRowChunk - 1) / kRowChunk;
  ParallelFor(chunks, num_threads, [&](size_t chunk, int) {
    const size_t end = std::min(n, (chunk + 1) * kRowChunk);
    for (size_t row = chunk * kRowChunk; row < end; ++row) {
      (*keys)[row] = codes.Eligible(row) ? codes.Key(row) : kIneligible;
    }
  });
}

// The violating pairs of a kept block: all pairs, or with `runs` those of
// rows in different runs, (B^2 - sum of run sizes^2) / 2.
uint64_t BlockPairs(const KeyedRow* first, const KeyedRow* last, bool runs) {
  const uint64_t size = last - first;
  if (!runs) return size * (size - 1) / 2;
  uint64_t same_run = 0;
  for (const KeyedRow* run = first; run < last;) {
    const KeyedRow* end = run + 1;
    while (end < last && end->key == run->key) ++end;
    same_run += static_cast<uint64_t>(end - run) * (end - run);
    run = end;
  }
  return (size * size - same_run) / 2;
}

// Buckets [b0, b1): the DC's eligible rows of each with their keys, sorted
// by key; keeps the blocks (equal further codes) of two rows or more, and
// with `runs` of two values or more. `items` is scratch over the buckets'
// positions.
void KeepBlocks(const ColumnBuckets& buckets, const std::vector<uint64_t>& keys,
                size_t b0, size_t b1, bool runs, std::vector<KeyedRow>* items,
                Piece* piece) {
  for (size_t b = b0; b < b1; ++b) {
    KeyedRow* first = items->data() + buckets.start[b];
    KeyedRow* last = first;
    const uint32_t end = buckets.start[b + 1];
    for (uint32_t p = buckets.start[b]; p < end; ++p) {
      // Rows of a bucket lie anywhere in the table: fetch ahead.
      if (p + kGatherAhead < buckets.rows.size()) {
        __builtin_prefetch(&keys[buckets.rows[p + kGatherAhead]]);
      }
      const uint32_t row = buckets.rows[p];
      const uint64_t key = keys[row];
      if (key != kIneligible) *last++ = {key, row};
    }
    if (last - first < 2) continue;
    std::sort(first, last, [](const KeyedRow& x, const KeyedRow& y) {
      return x.key < y.key || (x.key == y.key && x.row < y.row);
    });
    for (KeyedRow* block = first; block < last;) {
      const uint64_t high = block->key >> 32;
      KeyedRow* end = block + 1;
      uint32_t num_runs = 1;
      for (; end < last && (end->key >> 32) == high; ++end) {
        num_runs += end->key != end[-1].key;
      }
      if (end - block >= 2 && (!runs || num_runs >= 2)) {
        piece->pairs += BlockPairs(block, end, runs);
        piece->block_sizes.push_back(static_cast<uint32_t>(end - block));
        for (KeyedRow* it = block; it < end; ++it) {
          if (runs && (it == block || it->key != it[-1].key)) {
            piece->run_starts.push_back(
                static_cast<uint32_t>(piece->rows.size()));
          }
          piece->rows.push_back(it->row);
        }
      }
      block = end;
    }
  }
}

// The pieces, concatenated into the plan's blocks (and runs).
void Concatenate(const std::vector<Piece>& pieces, bool runs, DcPlan* plan) {
  size_t rows = 0, blocks = 0, run_count = 0;
  plan->exact_pairs = 0;
  for (const Piece& p : pieces) {
    *plan->exact_pairs += p.pairs;
    rows += p.rows.size();
    blocks += p.block_sizes.size();
    run_count += p.run_starts.size();
  }
  plan->l_rows.reserve(rows);
  plan->l_offsets.reserve(blocks + 1);
  plan->l_offsets.push_back(0);
  if (runs) plan->l_run_starts.reserve(run_count + 1);
  for (const Piece& p : pieces) {
    const uint32_t base = static_cast<uint32_t>(plan->l_rows.size());
    plan->l_rows.insert(plan->l_rows.end(), p.rows.begin(), p.rows.end());
    for (uint32_t size : p.block_sizes) {
      plan->l_offsets.push_back(plan->l_offsets.back() + size);
    }
    for (uint32_t s : p.run_starts) plan->l_run_starts.push_back(base + s);
  }
  if (runs) plan->l_run_starts.push_back(static_cast<uint32_t>(rows));
  if (plan->l_offsets.size() == 1) plan->l_offsets.clear();
}

// Bucket ranges [bounds[t], bounds[t+1]) of about equal rows.
std::vector<size_t> BalancedBuckets(const ColumnBuckets& buckets,
                                    size_t tasks) {
  const size_t num_buckets = buckets.start.size() - 1;
  const uint64_t total = buckets.rows.size();
  std::vector<size_t> bounds(tasks + 1, num_buckets);
  bounds[0] = 0;
  for (size_t t = 1; t < tasks; ++t) {
    const uint64_t target = total * t / tasks;
    const size_t at =
        std::lower_bound(buckets.start.begin(), buckets.start.end(), target) -
        buckets.start.begin();
    bounds[t] = std::clamp(at, bounds[t - 1], num_buckets);
  }
  return bounds;
}

}  // namespace

ColumnBuckets BucketByColumn(const Table& table, size_t column,
                             int num_threads) {
  const size_t n = table.num_rows();
  const Column& c = table.column(column);
  const ColumnCodes codes(c, n, num_threads);
  // Each thread counts over the whole code range: a few threads use the
  // memory bandwidth, more would only multiply that memory.
  const size_t threads =
      n < 4 * kRowChunk
          ? 1
          : static_cast<size_t>(std::clamp(num_threads, 1, kMaxCountThreads));
  const size_t range = codes.range();
  auto rows_of = [&](size_t t) {
    return std::pair<size_t, size_t>(n * t / threads, n * (t + 1) / threads);
  };
  // Rows per code and thread; then each thread's cursor per code (rows of
  // lower threads come first, so buckets stay ascending).
  std::vector<std::vector<uint32_t>> cursor(threads);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    cursor[t].assign(range, 0);
    const auto [begin, end] = rows_of(t);
    for (size_t row = begin; row < end; ++row) {
      if (!c.is_null(row)) ++cursor[t][codes.Code(row)];
    }
  });
  ColumnBuckets out;
  out.column = column;
  uint32_t position = 0;
  for (size_t code = 0; code < range; ++code) {
    uint32_t size = 0;
    for (size_t t = 0; t < threads; ++t) size += cursor[t][code];
    if (size < 2) {
      // A value no other row has pairs with nothing.
      for (size_t t = 0; t < threads; ++t) cursor[t][code] = kNoCode;
      continue;
    }
    out.start.push_back(position);
    for (size_t t = 0; t < threads; ++t) {
      const uint32_t mine = cursor[t][code];
      cursor[t][code] = position;
      position += mine;
    }
  }
  out.start.push_back(position);
  out.rows.resize(position);
  ParallelFor(threads, static_cast<int>(threads), [&](size_t t, int) {
    const auto [begin, end] = rows_of(t);
    for (size_t row = begin; row < end; ++row) {
      if (c.is_null(row)) continue;
      uint32_t& at = cursor[t][codes.Code(row)];
      if (at != kNoCode) out.rows[at++] = static_cast<uint32_t>(row);
    }
  });
  return out;
}

SameColumnPlanner::SameColumnPlanner(const Table& table,
                                     absl::Span<const DenialConstraint> dcs,
                                     int num_threads)
    : table_(table), num_threads_(num_threads) {
  // Bucket every DC by its equality column that most DCs share, and plan
  // DCs with the same bucket column one after the other: the buckets are
  // made once per column (five of the eight tax FDs bucket by zip).
  std::vector<size_t> uses(table.num_columns(), 0);
  std::vector<std::optional<SameColumnShape>> shapes;
  for (const DenialConstraint& dc : dcs) {
    shapes.push_back(MatchShape(dc));
    if (!shapes.back()) continue;
    std::vector<size_t> columns = shapes.back()->equal;
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    for (size_t column : columns) ++uses[column];
  }
  constexpr size_t kNone = std::numeric_limits<size_t>::max();
  bucket_of_.assign(dcs.size(), kNone);
  for (size_t i = 0; i < dcs.size(); ++i) {
    if (!shapes[i]) continue;
    size_t best = shapes[i]->equal[0];
    for (size_t column : shapes[i]->equal) {
      if (uses[column] > uses[best]) best = column;
    }
    bucket_of_[i] = best;
    shapes_.emplace(i, *shapes[i]);
  }
  order_.resize(dcs.size());
  std::iota(order_.begin(), order_.end(), size_t{0});
  // Others (kNone) last; ties keep the input order.
  std::stable_sort(order_.begin(), order_.end(), [&](size_t x, size_t y) {
    return bucket_of_[x] < bucket_of_[y];
  });
}

std::optional<DcPlan> SameColumnPlanner::Plan(size_t dc_index) {
  auto shape_it = shapes_.find(dc_index);
  if (shape_it == shapes_.end()) return std::nullopt;
  const SameColumnShape& shape = shape_it->second;
  const size_t bucket = bucket_of_[dc_index];
  if (!buckets_.has_value() || buckets_->column != bucket) {
    buckets_.reset();  // before the next, to keep one in memory
    buckets_ = BucketByColumn(table_, bucket, num_threads_);
  }
  const DcCodes codes(table_, shape, bucket, num_threads_);

  DcPlan plan;
  plan.method = shape.unequal ? Method::kGroup : Method::kAll;
  // The same column on both sides: (x, y) violates iff (y, x) does, and a
  // row is eligible as t1 iff it is as t2.
  plan.symmetric = true;
  plan.has_equality = true;
  plan.eligible_t1 = plan.eligible_t2 =
      codes.CountEligible(table_.num_rows(), num_threads_);
  const bool runs = shape.unequal.has_value();

  FillKeys(codes, table_.num_rows(), num_threads_, &keys_);
  const size_t num_buckets = buckets_->start.size() - 1;
  const size_t tasks = std::min<size_t>(
      num_buckets, buckets_->rows.size() < kRowChunk
                       ? 1
                       : kBucketTasksPerThread *
                             static_cast<size_t>(std::max(1, num_threads_)));
  const std::vector<size_t> bounds = BalancedBuckets(*buckets_, tasks);
  ResizeScratch(&items_, buckets_->rows.size());
  std::vector<Piece> pieces(tasks);
  ParallelFor(tasks, tasks == 1 ? 1 : num_threads_, [&](size_t t, int) {
    KeepBlocks(*buckets_, keys_, bounds[t], bounds[t + 1], runs, &items_,
               &pieces[t]);
  });
  Concatenate(pieces, runs, &plan);
  return plan;
}

}  // namespace dpq::core::graph::internal
