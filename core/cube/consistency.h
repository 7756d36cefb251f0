// Consistency with the exact cuboids (paper exact-cuboids-in-noisy-data-cube,
// Section 6.1): the least-squares projection of a noisy cuboid onto the
// affine set of cuboids whose aggregates equal the exact ones. The noisy
// cuboid plays the role of the paper's base cuboid ("Base" = its cells);
// the exact cuboids' dimensions must be subsets of its dimensions.
//
// Post-processing only (Theorem 4.5(2)): no privacy cost. With i.i.d. noise
// of equal variance the result is unbiased and every cell's variance drops
// (Theorem 6.1; docs/cube.md has the proof).
#ifndef DPQ_CORE_CUBE_CONSISTENCY_H_
#define DPQ_CORE_CUBE_CONSISTENCY_H_

#include <vector>

#include "absl/status/status.h"
#include "core/cube/data_cube.h"

namespace dpq::core::cube {

// One exact cuboid G (Problem (2)), equations (6)-(7): every cell a moves by
// (c(a[G]) - sum of the noisy cells above a[G]) / deg(G), deg(G) = number of
// cells above one cell of G. O(cells). kInvalidArgument if exact.dims is
// not a subset of noisy.dims.
absl::Status ProjectOntoExactCuboid(DenseCuboid& noisy,
                                    const DenseCuboid& exact);

// Two exact cuboids G1, G2 (Problem (3)), linear-time solution of system
// (12) (derivation in docs/cube.md): with residuals r_i = c_i - (noisy
// aggregated to G_i), I = G1 ^ G2 and R = r_1 aggregated to I,
//   c^(a) = c~(a) + r1(a[G1]) / deg(G1) + r2(a[G2]) / deg(G2)
//           - R(a[I]) / deg(I).
// Nested cuboids are handled too (it reduces to the larger one). O(cells).
// kInvalidArgument if a dimension set is not a subset of noisy.dims or the
// two exact cuboids disagree on their common aggregate I (then no
// consistent cuboid exists).
absl::Status ProjectOntoTwoExactCuboids(DenseCuboid& noisy,
                                        const DenseCuboid& exact1,
                                        const DenseCuboid& exact2);

// Dispatches on exact.size(): 0 (no-op), 1 or 2; kInvalidArgument for more.
absl::Status ProjectOntoExactCuboids(DenseCuboid& noisy,
                                     const std::vector<DenseCuboid>& exact);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_CONSISTENCY_H_
