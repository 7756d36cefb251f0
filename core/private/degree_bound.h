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
};

// d_bound(D, X) for the columns X: the largest number of rows sharing one
// value on all of X, minus one; rows with NULL in some column of X are
// skipped (they violate no DC through t1.X = t2.X). 0 for a table without
// such rows. Doubles compare by value (-0 = +0; all NaNs are counted as one
// value, which can only raise the bound). kInvalidArgument if X is empty or
// names a column >= table.num_columns(). O(rows * |X|) expected time.
absl::StatusOr<uint64_t> DegreeBoundForColumns(const table::Table& table,
                                               absl::Span<const size_t> x);

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

// The largest d_bound over the keyed DCs (0 if none is keyed): the size of
// the largest key group minus one. Sensitivity 1: every d_bound moves by at
// most 1 when one tuple is added or removed (Lemma 3), and so does their
// maximum. Private: released only through NoisyGroupBound.
uint64_t LargestDegreeBound(absl::Span<const DcDegreeBound> bounds);

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
