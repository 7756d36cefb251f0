#include "bench/generators/noise_log.h"

#include <algorithm>

namespace dpq::bench::generators {

CellTable ApplyNoise(const CellTable& clean, const NoiseLog& log,
                     size_t iterations) {
  CellTable out = clean;
  const size_t n = std::min(iterations, log.iterations.size());
  for (size_t i = 0; i < n; ++i) {
    for (const CellChange& change : log.iterations[i].changes) {
      out.rows[change.row][change.column] = change.value;
    }
  }
  return out;
}

}  // namespace dpq::bench::generators
