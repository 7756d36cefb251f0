// Optional post-processing of released cuboids: non-negative integral
// counts. Free of privacy cost (post-processing), but it breaks exact
// consistency with the public cuboids by up to the rounding.
#ifndef DPQ_CORE_CUBE_ROUNDING_H_
#define DPQ_CORE_CUBE_ROUNDING_H_

#include "core/cube/cuboid_release.h"

namespace dpq::core::cube {

// Every count becomes max(0, round(count)) (halves away from zero).
void RoundNonNegativeIntegral(Cuboid& cuboid);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_ROUNDING_H_
