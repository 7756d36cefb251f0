// Building the conflict graph of a table under a set of denial constraints
// (docs/core.md "Conflict graph"; paper: "Inconsistency measures under
// DP", Def. 2).
//
// Nodes are tuple ids (row numbers). {i, j}, i != j, is an edge when the pair
// (D[i], D[j]) violates some DC with t1 = D[i], t2 = D[j] or with t1 = D[j],
// t2 = D[i]. A pair (t, t) is never considered, so there are no self-loops.
// Comparisons involving NULL are false, so a NULL cell never causes an edge.
// Edges are deduplicated across DCs.
//
// How it is built, per DC (never a blind all-pairs loop when the DC has an
// equality join predicate):
//  0. A DC with the same predicates as an earlier one, or their mirror
//     image (t1 and t2 exchanged), has the same unordered pairs and is not
//     enumerated again (constraints/dc_pair_key.h).
//  1. FD-shaped DCs (same-column `=` join predicates and at most one
//     same-column `!=`, nothing else: every FD) are planned on integer
//     codes alone (SameColumnPlanner): the rows are bucketed by one
//     equality column with a counting sort on all threads (once per column,
//     shared by the DCs that bucket on it, which are planned one after the
//     other), each bucket's rows are sorted by the codes of the other
//     equalities and of the `!=` column held next to the row, and only the
//     blocks that hold a violating pair are kept, with their runs of equal
//     `!=` values: every row pairs with the rows of the later runs.
//  2. Other DCs: rows eligible as t1 (no NULL in a column the DC reads from
//     t1, all single-tuple predicates on t1 hold) and as t2 are filtered in
//     O(n). Equality join predicates t1.A = t2.B partition both sides into
//     blocks of equal keys, on dense integer codes (string ids and small
//     integer ranges directly, wide numbers through a hash map; further
//     equalities refine the codes by a counting sort); only pairs inside a
//     block are examined. Without an equality, the whole table is one
//     block.
//  3. Inside a block, the remaining join predicates decide the method:
//     - none: every pair of the block is an edge;
//     - `!=` only: the t2 side is sorted by the first `!=` attribute and each
//       t1 skips the run of equal values (each violating pair once; FDs
//       get their runs from step 1 instead);
//     - one inequality (< <= > >=): the t2 side is sorted by it and each t1
//       scans only its qualifying prefix;
//     - two or more inequalities: the IEJoin idea (Khayyat et al., VLDB J.
//       2017): a sweep in the order of the first inequality inserts t2 rows
//       into a two-level bit array indexed by their rank in the order of the
//       second, and each t1 scans only the set bits of its qualifying prefix.
//     Further predicates are checked on each enumerated pair.
//  4. The work is split into ranges of t1 rows (large blocks are cut, small
//     ones grouped) run by `num_threads` std::thread workers, each with a
//     thread-local buffer of packed edges (u << 32 | v, u < v; 8 bytes per
//     edge). A symmetric enumeration yields each pair once; an ordered one
//     is sorted and deduplicated per DC. The CSR is built from all DCs'
//     buffers at once by bucketing the pairs by their lower end, sorting
//     each node's short bucket and dropping repeats, on all threads
//     (Graph::FromPackedPairs): no global sort of the edges.
//
// Complexity per DC with k blocks of t1/t2 sizes (l_b, r_b): O(n) filtering
// and coding, O(sum r_b log r_b) sorting, plus per t1 row O(log r_b) and the
// pairs it enumerates: exactly its violating pairs for FDs and equality-only
// DCs; the pairs satisfying the first inequality for one inequality; the
// pairs satisfying the first two inequalities plus O(r_b / 4096) words for
// two or more. DCs whose only join predicates are `!=` with two or more of
// them, or that have no join predicate at all, are inherently quadratic in
// the eligible rows (their output can be too). The CSR: O(n + m) plus the
// per-node sorts for m emitted pairs. Memory: about 40 bytes per row while
// FD-shaped DCs are planned (internal::SameColumnPlanner), 8 bytes per row
// and key column read for the others, 8 bytes per emitted pair, then the
// CSR graph.
#ifndef DPQ_CORE_GRAPH_CONFLICT_GRAPH_BUILDER_H_
#define DPQ_CORE_GRAPH_CONFLICT_GRAPH_BUILDER_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/graph.h"
#include "core/table/table.h"

namespace dpq::core::graph {

// The largest row count the builder accepts: node ids are 32-bit and
// 2^32 - 1 is kept free as a sentinel.
inline constexpr uint64_t kMaxConflictGraphRows =
    std::numeric_limits<uint32_t>::max() - 1;

// Default cap on the number of edges: 2^28 edges take 2 GiB as packed pairs
// and another 2 GiB as CSR adjacency.
inline constexpr uint64_t kDefaultMaxConflictGraphEdges = uint64_t{1} << 28;

struct ConflictGraphOptions {
  // Worker threads; 0 means std::thread::hardware_concurrency(). Negative is
  // kInvalidArgument. The result does not depend on it.
  int num_threads = 0;
  // Upper bound on the number of distinct edges, to protect memory. The
  // build fails with kResourceExhausted, naming the limit and the DC, as
  // soon as one DC has produced more than max_edges pairs (a symmetric DC,
  // which produces each edge once) or 2 * max_edges pairs (an ordered one,
  // which produces each edge at most once per orientation), so that its
  // distinct edges exceed the limit, or the deduplicated edges exceed it.
  // Must be > 0.
  uint64_t max_edges = kDefaultMaxConflictGraphEdges;
  // The build stops with kDeadlineExceeded soon after this time.
  absl::Time deadline = absl::InfiniteFuture();
};

// What one DC contributed.
struct DcBuildStats {
  // Distinct unordered pairs {i, j} violating this DC in some orientation.
  uint64_t violating_pairs = 0;
  // Blocks examined (pairs of equal equality keys with rows on both sides;
  // 1 for a DC without an equality join predicate, 0 if nothing qualifies).
  // For an FD-shaped DC (step 1 above) only the blocks that hold a
  // violating pair: the others are dropped before enumeration.
  uint64_t num_blocks = 0;
  // Rows eligible as t1 and as t2 after NULL and single-tuple filtering.
  uint64_t eligible_t1 = 0;
  uint64_t eligible_t2 = 0;
  // "hash", "hash+group", "hash+sort", "hash+iejoin", "group", "sort",
  // "iejoin" or "nested": how the pairs inside the blocks were enumerated.
  std::string method;
  double seconds = 0;
  // The index of an earlier DC violated by the same unordered pairs (the
  // same predicates, or their mirror image with t1 and t2 exchanged,
  // constraints/dc_pair_key.h), whose statistics these are: such a DC is
  // not enumerated again. -1 if none.
  int64_t same_pairs_as = -1;
};

struct ConflictGraphStats {
  // Wall-clock time of the whole build, validation to CSR.
  double build_seconds = 0;
  uint64_t num_edges = 0;
  int num_threads = 1;
  // One entry per DC, in input order.
  std::vector<DcBuildStats> per_dc;
};

struct ConflictGraph {
  Graph graph;  // one node per row, even isolated ones
  ConflictGraphStats stats;
};

// Checks that `dcs` can be evaluated on `table`: every column index is in
// range, join predicates compare two string or two numeric columns, and
// constants have a type matching their column (string with string). Also
// rejects tables with more than kMaxConflictGraphRows rows. The parser
// already guarantees all this for DCs parsed against the table's schema;
// this guards hand-built DCs and mismatched schemas. kInvalidArgument naming
// the DC and the predicate. O(total predicates).
absl::Status ValidateConstraintsForTable(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs);

// Builds the conflict graph of `table` under `dcs` (see the file comment for
// the method and its complexity). Errors: kInvalidArgument from
// ValidateConstraintsForTable or for bad options, kResourceExhausted above
// options.max_edges, kDeadlineExceeded after options.deadline. The graph
// does not depend on num_threads. Thread-safe: shares nothing mutable.
absl::StatusOr<ConflictGraph> BuildConflictGraph(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs,
    const ConflictGraphOptions& options = {});

}  // namespace dpq::core::graph

#endif  // DPQ_CORE_GRAPH_CONFLICT_GRAPH_BUILDER_H_
