// Internals of the conflict-graph builder (conflict_graph_builder.h), shared
// by its .cc files and their tests. Not part of the public API.
#ifndef DPQ_CORE_GRAPH_CONFLICT_GRAPH_INTERNAL_H_
#define DPQ_CORE_GRAPH_CONFLICT_GRAPH_INTERNAL_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/table.h"
#include "core/util/parallel_for.h"

namespace dpq::core::graph::internal {

// ---------------------------------------------------------------------------
// Parallel helpers (conflict_graph_parallel.cc).

// The builder's parallel loop (core/util/parallel_for.h).
using util::ParallelFor;

// Sorts and deduplicates every part (in parallel; skipped if `parts_sorted`
// says each already is), then merges them into one sorted, duplicate-free
// vector by a balanced tree of pairwise merges (each level in parallel).
// Parts are consumed. O(m log m) work for m values, O(m log k) if sorted.
std::vector<uint64_t> SortMergeUnique(std::vector<std::vector<uint64_t>> parts,
                                      int num_threads,
                                      bool parts_sorted = false);

// ---------------------------------------------------------------------------
// Keys (conflict_graph_plan.cc).

// A cell's value as an int64 whose order and equality are those of the
// values being compared: int64 cells as they are, string cells by
// dictionary id (ids follow lexicographic order), double cells (and int64
// cells compared with double cells) by an order-preserving encoding of the
// double with -0.0 == +0.0.
int64_t EncodeDouble(double value);

// Refines dense codes by further ones: afterwards two items share a code
// iff they shared one before and share their `new_codes` entry (old codes
// in [0, num_old), new ones in [0, num_new), kNoCode = UINT32_MAX on either
// side stays kNoCode). When num_old * num_new is at most
// max(2 * items + 1024, num_new), one pass through a table of the pairs;
// otherwise a counting sort by the new code, then one pass that numbers the
// (old, new) combinations as they come, with a stamp per old code:
// O(items + num_old + num_new), no hashing. Returns the number of codes,
// which are dense; their numbering is unspecified.
uint32_t RefineCodes(uint32_t num_old, std::vector<uint32_t>* old_codes,
                     uint32_t num_new, const std::vector<uint32_t>& new_codes);

// A join predicate rewritten so that one comparison of keys decides it:
//   kEq: a[r1] == b[r2]   kNe: a[r1] != b[r2]
//   kLess: b[r2] < a[r1]  kLessEq: b[r2] <= a[r1]
// t1.A > t2.B becomes kLess on (A, B); t1.A < t2.B becomes kLess on
// (~A, ~B), bitwise complement reversing the order. Either way the t2 rows
// qualifying for a t1 row form a prefix of t2 sorted by b.
struct JoinKey {
  enum Kind { kEq, kNe, kLess, kLessEq };
  Kind kind = kEq;
  const int64_t* a = nullptr;  // t1 keys by row
  const int64_t* b = nullptr;  // t2 keys by row

  bool Holds(uint32_t r1, uint32_t r2) const {
    const int64_t x = a[r1];
    const int64_t y = b[r2];
    switch (kind) {
      case kEq:
        return x == y;
      case kNe:
        return x != y;
      case kLess:
        return y < x;
      case kLessEq:
        return y <= x;
    }
    return false;
  }
  // For kLess/kLessEq: whether a t2 key equal to the t1 key fails.
  bool strict() const { return kind == kLess; }
};

// How the pairs inside a block are enumerated (conflict_graph_builder.h).
enum class Method {
  kAll,     // no join predicate left: every pair of the block
  kGroup,   // `!=` drives: skip the run of equal keys
  kSort,    // one inequality drives: qualifying prefix of sorted t2
  kIeJoin,  // two inequalities drive: sweep plus bit array
};

// Everything the enumeration of one DC needs. Blocks are contiguous runs of
// t1 rows (l_rows) and t2 rows (r_rows) with equal equality keys; with
// `symmetric` the two sides are the same rows and only unordered pairs are
// enumerated.
struct DcPlan {
  Method method = Method::kAll;
  bool symmetric = false;
  bool has_equality = false;
  JoinKey driver1;              // kGroup, kSort, kIeJoin
  JoinKey driver2;              // kIeJoin
  std::vector<JoinKey> checks;  // the other non-equality join predicates
  uint64_t eligible_t1 = 0;
  uint64_t eligible_t2 = 0;

  // Block b holds l_rows[l_offsets[b] .. l_offsets[b+1]) and likewise r.
  // If symmetric, the r_* vectors are empty and the l_* ones serve both.
  std::vector<uint32_t> l_rows, l_offsets;
  std::vector<uint32_t> r_rows, r_offsets;
  // Planned on codes (SameColumnPlanner) with method kGroup: the positions
  // in l_rows where a run of equal `!=` values starts, ascending, plus
  // l_rows.size(). Inside a block a row violates with every row of the
  // later runs. Empty otherwise.
  std::vector<uint32_t> l_run_starts;
  // Planned on codes: the number of pairs the enumeration will emit (each
  // violating pair once), known from the blocks' and runs' sizes.
  std::optional<uint64_t> exact_pairs;
  // kIeJoin: for t2 position p (sorted by driver1.b) its rank in the
  // block's order by driver2.b, and the row of each rank (offset like r).
  std::vector<uint32_t> r_rank2, r_by_rank2;

  // Key columns the JoinKeys point into (deque: stable addresses).
  std::deque<std::vector<int64_t>> key_storage;

  size_t num_blocks() const {
    return l_offsets.empty() ? 0 : l_offsets.size() - 1;
  }
  const std::vector<uint32_t>& t2_rows() const {
    return symmetric ? l_rows : r_rows;
  }
  const std::vector<uint32_t>& t2_offsets() const {
    return symmetric ? l_offsets : r_offsets;
  }
};

// Filters, keys, hash-partitions and sorts for one DC (validated, see
// ValidateConstraintsForTable). O(n + sum r_b log r_b), parallel where it
// pays.
absl::StatusOr<DcPlan> PlanDc(const table::Table& table,
                              const constraints::DenialConstraint& dc,
                              int num_threads);

// Rows bucketed by one column's value: the buckets of two rows or more,
// rows ascending inside each (NULL cells left out). Made on all threads by
// a counting sort on the column's codes.
struct ColumnBuckets {
  size_t column = 0;
  std::vector<uint32_t> rows;
  std::vector<uint32_t> start;  // per bucket, plus rows.size()
};
ColumnBuckets BucketByColumn(const table::Table& table, size_t column,
                             int num_threads);

// A row with the codes that order it inside its bucket: the further
// equalities' code (high half) and the `!=` column's (low half).
struct KeyedRow {
  uint64_t key;
  uint32_t row;
};

// The columns of a DC SameColumnPlanner handles: those compared by `=`,
// and by `!=` if any.
struct SameColumnShape {
  std::vector<size_t> equal;
  std::optional<size_t> unequal;
};

// Plans the DCs whose join predicates all compare a column with itself, by
// `=` (at least one) and by `!=` (at most one), with no other predicate:
// every FD X -> B split per right-hand column (conflict_graph_code_plan.cc).
// Such a DC is symmetric; its rows are bucketed by one equality column,
// each bucket's eligible rows sorted by the codes of the others and of the
// `!=` column held next to the row, and only blocks holding a violating
// pair kept: kGroup with l_run_starts, or kAll. O(n) plus sorting inside
// buckets. The buckets of a column are made once and reused by the next
// DC planned on it. Memory while it lives: the buckets (4 bytes per row),
// a key per row (8), the (key, row) pairs of the bucketed rows (16), the
// further equalities' codes (4, if any) and hashed codes of wide numeric
// columns (4).
class SameColumnPlanner {
 public:
  SameColumnPlanner(const table::Table& table,
                    absl::Span<const constraints::DenialConstraint> dcs,
                    int num_threads);

  // The order to plan the DCs in (indices into `dcs`): DCs bucketed by the
  // same column together, then the others, ties in input order.
  const std::vector<size_t>& order() const { return order_; }

  // Whether DC `dc_index` is of the shape above. In order(), the DCs it
  // handles come first.
  bool Handles(size_t dc_index) const { return shapes_.contains(dc_index); }

  // The plan of DC `dc_index`, or std::nullopt if it is not of the shape
  // above (PlanDc handles every DC).
  std::optional<DcPlan> Plan(size_t dc_index);

 private:
  const table::Table& table_;
  int num_threads_;
  std::vector<size_t> order_;
  std::vector<size_t> bucket_of_;
  absl::flat_hash_map<size_t, SameColumnShape> shapes_;
  std::optional<ColumnBuckets> buckets_;
  // Each row's sort key for the DC being planned (scratch kept across DCs:
  // its pages are faulted in once).
  std::vector<uint64_t> keys_;
  // Scratch over the buckets' positions, kept likewise.
  std::vector<KeyedRow> items_;
};

// ---------------------------------------------------------------------------
// Enumeration (conflict_graph_join.cc).

struct EnumerateLimits {
  // Stop once more than this many pairs were emitted in total.
  uint64_t max_emitted = UINT64_MAX;
  absl::Time deadline = absl::InfiniteFuture();
};

enum class EnumerateOutcome { kDone, kTooManyEdges, kDeadlineExceeded };

// Enumerates the violating pairs of `plan` on `num_threads` workers; worker
// w appends packed edges (u << 32 | v, u < v) to (*per_worker)[w], which is
// resized to the number of workers.
EnumerateOutcome EnumerateDc(const DcPlan& plan, int num_threads,
                             const EnumerateLimits& limits,
                             std::vector<std::vector<uint64_t>>* per_worker);

}  // namespace dpq::core::graph::internal

#endif  // DPQ_CORE_GRAPH_CONFLICT_GRAPH_INTERNAL_H_
