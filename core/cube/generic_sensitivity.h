// Generic sensitivity of releasing cuboids when some cuboids (or cells) are
// public exactly (paper exact-cuboids-in-noisy-data-cube, Sections 2.3 and
// 4; docs/cube.md has the proofs).
//
// Neighbour model (generic DP with background knowledge Q, Kifer and
// Machanavajjhala): the feasible tables are those that agree with the exact
// counts in Q; two feasible tables are INDUCED NEIGHBOURS if they differ and
// no third feasible table lies between them (cell-wise between their base
// cuboids). With Q empty these are the add/remove-one-row neighbours of
// unbounded DP (docs/privacy.md 1), so the sensitivity is 1, not the paper's 2
// (which is for swapping one row). S_Q(C) is the largest L1 distance between
// the cuboids C of two induced neighbours.
#ifndef DPQ_CORE_CUBE_GENERIC_SENSITIVITY_H_
#define DPQ_CORE_CUBE_GENERIC_SENSITIVITY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"

namespace dpq::core::cube {

// Q without duplicates and without cuboids implied by another (a cuboid
// whose dimensions are a subset of another's is computable from it, so the
// feasible tables are the same). Sorted.
std::vector<DimSet> ReduceExactCuboids(std::vector<DimSet> exact);

// S_Q(C_base) for the base cuboid over all attributes of the table, with Q
// the (reduced or not) exact cuboids: |Q| = 0 -> 1 (unbounded DP);
// |Q| = 1 -> 2 (Lemma 4.2(i)); |Q| = 2 -> 2 * min(size([C1]-[C2]),
// size([C2]-[C1])) (Lemma 4.2(ii); nested cuboids reduce to one: 2).
// kFailedPrecondition for three or more after reduction: no bound is
// proven (the paper leaves |Q| >= 3 open; Graver-basis moves of three
// marginals can be long). kResourceExhausted if the bound overflows.
absl::StatusOr<int64_t> BaseCuboidSensitivity(const CubeSchema& schema,
                                              const std::vector<DimSet>& exact);

// S_Q(C) for the cuboid over `dims` (Lemma 4.4, projection): 0 if C can be
// computed from one exact cuboid ([C] within some [Ci]: it is public),
// else the bound S_Q(C_base), which is exact when [C] has a dimension
// outside every [Ci] and at most twice too large otherwise.
absl::StatusOr<int64_t> CuboidSensitivity(const CubeSchema& schema,
                                          const std::vector<DimSet>& exact,
                                          const DimSet& dims);

// General background knowledge (Definition 4.1): exact CELLS from up to two
// cuboids C1, C2, summarised per cell x of the meet cuboid [C1] ^ [C2]:
// how many cells of C1 above x are exact / not exact, and the same for C2.
struct MeetGroup {
  int64_t exact1 = 0;
  int64_t free1 = 0;
  int64_t exact2 = 0;
  int64_t free2 = 0;
};

// S_Q(C_base) for exact cells of up to two cuboids (our corrected Lemma
// 4.3): the longest minimal move set, i.e. the longest simple alternating
// cycle through exact cells of one group, possibly closed through the
// unconstrained cells:
//   max over groups of  2 min(k1, k2)                  (pure cycle)
//                       2 min(k1, k2) + 1  if f1, f2 > 0
//                       2 min(k1, k2 + 1)  if f2 > 0, k1 > 0
//                       2 min(k2, k1 + 1)  if f1 > 0, k2 > 0
//                       1                  if f1, f2 > 0 (add/remove a row)
// With every cell of both cuboids exact this is Lemma 4.2(ii); with the
// cells of one cuboid only it is 2 (Lemma 4.3(i)). The draft's Lemma
// 4.3(ii), 2 max_x min(k1, k2), misses the open paths (docs/cube.md).
int64_t ExactCellsSensitivity(const std::vector<MeetGroup>& groups);

// The same from the cuboids and per-cell exactness flags (row-major over
// the sorted dims of c1 resp. c2). kInvalidArgument if a flag vector has
// the wrong length.
absl::StatusOr<int64_t> ExactCellsSensitivity(const CubeSchema& schema,
                                              const DimSet& c1,
                                              const std::vector<bool>& exact1,
                                              const DimSet& c2,
                                              const std::vector<bool>& exact2);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_GENERIC_SENSITIVITY_H_
