#include "bench/r2t/laplace_noise.h"

#include <cmath>

namespace dpq::bench::r2t {

double SampleLaplace(core::dp::SecureUrbg& urbg, double scale) {
  // |X| / scale ~ Exp(1) = -ln(U) for U uniform in (0, 1]; the sign is an
  // independent fair bit.
  const double u = 1.0 - urbg.UniformDouble();  // in (0, 1]
  const double magnitude = -std::log(u) * scale;
  return (urbg() & 1) != 0 ? magnitude : -magnitude;
}

}  // namespace dpq::bench::r2t
