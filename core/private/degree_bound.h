// The DC-based upper bound on the conflict graph's maximum degree used by the
// optimized threshold selection (paper Section 4.2, Lemma 3, Theorem 3 and
// Algorithm 4 lines 1-3; docs/privacy.md 6, docs/core.md).
//
// For a DC with same-column equality predicates t1.X_1 = t2.X_1, ...,
// any two tuples that jointly violate it agree on X (and are non-NULL there:
// a comparison with NULL is false). So a tuple conflicts through that DC with
// at most
//   d_bound(D, X) = max over X-values a of freq(D, a) - 1
// other tuples. Lemma 3 states this for FDs X -> Y; its proof uses only the
// agreement on X, so it holds for every such "keyed" DC. Adding or removing
// one tuple changes one frequency by 1, so d_bound has sensitivity 1 per DC,
// and the sum over k keyed DCs has sensitivity k.
//
// A DC without such a key but with a cross-column equality t1.A = t2.B
// (A != B; Flights' t1.sched_dep_time = t2.sched_arr_time) bounds degrees
// too: a tuple r conflicts through it only with tuples s where s.B = r.A
// (r as t1) or s.A = r.B (r as t2), so with at most
//   freq(B, r.A) + freq(A, r.B) <= 2 c,  c = max(max_a freq(A, a),
//                                              max_b freq(B, b))
// others. c has sensitivity 1 as well: one tuple moves one frequency of A
// and one of B by at most 1 each, hence each maximum and their maximum.
#ifndef DPQ_CORE_PRIVATE_DEGREE_BOUND_H_
#define DPQ_CORE_PRIVATE_DEGREE_BOUND_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/constraints/denial_constraint.h"
#include "core/dp/secure_urbg.h"
#include "core/table/table.h"

namespace dpq::core::private_measures {

// The exact (private!) degree bound of one DC. Never released as is: only
// NoisyDegreeBound's output leaves this module.
struct DcDegreeBound {
  bool keyed = false;  // DenialConstraint::SameColumnEqualities() non-empty
  uint64_t bound = 0;  // d_bound(D, X) if keyed, else 0
  // Unkeyed DCs with a cross-column equality (the first one, in the DC's
  // order): c above, the degree through the DC being at most 2 c. Never set
  // on a keyed DC. The paper's methods (optimized, gem) read `keyed` only.
  bool cross_keyed = false;
  uint64_t cross_bound = 0;

  // Whether the DC bounds the degrees of its conflicts at all.
  bool bounded() const { return keyed || cross_keyed; }
  // The bound's sensitivity-1 statistic: d_bound, c, or 0.
  uint64_t group_bound() const {
    return keyed ? bound : (cross_keyed ? cross_bound : 0);
  }
};

// d_bound(D, X) for the columns X: the largest number of rows sharing one
// value on all of X, minus one; rows with NULL in some column of X are
// skipped (they violate no DC through t1.X = t2.X). 0 for a table without
// such rows. Doubles compare by value (-0 = +0; all NaNs are counted as one
// value, which can only raise the bound). kInvalidArgument if X is empty or
// names a column >= table.num_columns(). O(rows * |X|) expected time.
absl::StatusOr<uint64_t> DegreeBoundForColumns(const table::Table& table,
                                               absl::Span<const size_t> x);

// The largest number of rows with one non-NULL value in `column`; with
// `as_double` an int64 column's cells count by their double value (how a
// comparison with a double column reads them, dc_evaluation.h), so int64
// values that round to one double count as one, which can only raise it.
// Doubles as in DegreeBoundForColumns. kInvalidArgument for a column out of
// range. O(rows) expected time.
absl::StatusOr<uint64_t> LargestValueCount(const table::Table& table,
                                           size_t column, bool as_double);

// One DcDegreeBound per DC, in order, with the flags of ComputeDegreeBounds
// (keyed, cross_keyed) and every bound 0. Public: a function of the DCs
// only, for checks that must not read the data (CheckMeasureReleaseRuns).
std::vector<DcDegreeBound> DcBoundShape(
    absl::Span<const constraints::DenialConstraint> dcs);

// One DcDegreeBound per DC, in order. `dcs` must be validated against
// `table`'s schema (kInvalidArgument otherwise). Computed once per dataset
// and cached next to its conflict graph. O(|dcs| * rows).
absl::StatusOr<std::vector<DcDegreeBound>> ComputeDegreeBounds(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs);

// Our reading of Algorithm 4 line 1, "if Sigma mainly consists of FDs": at
// least one DC is keyed and at least half of the DCs are. Public: it depends
// on the DCs only.
bool DegreeBoundApplies(absl::Span<const DcDegreeBound> bounds);

// True if some DC is not keyed (a "general DC" in the paper's words): its
// conflicts are not covered by the bound, so the optimized EM keeps the
// candidate N (paper eq. 12).
bool HasUnkeyedDc(absl::Span<const DcDegreeBound> bounds);

// The number of distinct minimal key column sets among the keyed DCs (X is
// minimal when no other DC's key is a proper subset of it). A tuple's
// conflicts through every DC keyed on X or on a superset of X lie inside
// its X-group, so with every DC keyed the maximum degree is at most
//   sum over the minimal keys X of d_bound(D, X)
//     <= CountMinimalKeys(dcs) * max over DCs of d_bound.
// Public: a function of the DCs only. O(|dcs|^2 * key size).
uint32_t CountMinimalKeys(absl::Span<const constraints::DenialConstraint> dcs);

// The number of groups the degree of a tuple is summed over when every DC
// is bounded: CountMinimalKeys(dcs) plus 2 for each distinct unordered pair
// {A, B} of the cross-column equalities that DcDegreeBound::cross_keyed
// reads (DCs sharing a pair share its neighbourhood bound). Then
//   max degree <= CountDegreeKeys(dcs) * LargestDegreeBound.
// Public: a function of the DCs only.
uint32_t CountDegreeKeys(absl::Span<const constraints::DenialConstraint> dcs);

// The largest group_bound() over the DCs (0 if none is bounded): for keyed
// DCs the size of the largest key group minus one, for cross-keyed ones c.
// Sensitivity 1: every d_bound and every c moves by at most 1 when one tuple
// is added or removed (Lemma 3, and above), and so does their maximum.
// Private: released only through NoisyGroupBound.
uint64_t LargestDegreeBound(absl::Span<const DcDegreeBound> bounds);

// True if there is a DC and every DC is bounded() (keyed or cross-keyed).
// Public: a function of the DCs only.
bool EveryDcBounded(absl::Span<const DcDegreeBound> bounds);

// Algorithm 4 line 3, improved: d~ = sum over the k keyed DCs of d_bound +
// Z, Z ~ DiscreteLaplace(k / epsilon), then clamped to [1, max_rows]. The
// paper adds k independent Lap(k / eps0) draws (one per FD); the sum has
// sensitivity k, so one draw of the same scale is eps0-DP with 1/sqrt(k) of
// the noise. The clamp is post-processing: no degree is >= N >= n, and
// theta >= 1. kInvalidArgument if no DC is keyed or on a bad epsilon.
absl::StatusOr<uint32_t> NoisyDegreeBound(
    dp::SecureUrbg& urbg, absl::Span<const DcDegreeBound> bounds,
    double epsilon, uint32_t max_rows);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_DEGREE_BOUND_H_
