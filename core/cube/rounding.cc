#include "core/cube/rounding.h"

#include <algorithm>
#include <cmath>

namespace dpq::core::cube {

void RoundNonNegativeIntegral(Cuboid& cuboid) {
  for (CuboidCell& cell : cuboid.cells) {
    cell.count = std::max(0.0, std::round(cell.count));
  }
}

}  // namespace dpq::core::cube
