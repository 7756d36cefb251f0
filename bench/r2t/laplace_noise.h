// Continuous Laplace noise for the R2T benchmark baseline only.
//
// core/dp has no real-valued Laplace mechanism (dpq releases only integer
// statistics with discrete Laplace noise, docs/privacy.md 4.2; a real-valued
// one would need snapping), and R2T's truncated counts are LP optima, not
// integers. This sampler inverts the CDF of a 53-bit uniform from a SecureUrbg
// (the seeded HashDrbg CSPRNG in dpq-r2t). It is NOT snapped, so the
// floating-point attack of Mironov (CCS 2012) applies: fine for measuring a
// baseline's accuracy, never for a release to a buyer.
#ifndef DPQ_TESTS_BENCH_R2T_LAPLACE_NOISE_H_
#define DPQ_TESTS_BENCH_R2T_LAPLACE_NOISE_H_

#include "core/dp/secure_urbg.h"

namespace dpq::bench::r2t {

// One draw of Lap(scale), density exp(-|x| / scale) / (2 scale), scale > 0
// (not checked: callers validate). |x| <= 36.8 * scale (53-bit uniform).
double SampleLaplace(core::dp::SecureUrbg& urbg, double scale);

}  // namespace dpq::bench::r2t

#endif  // DPQ_TESTS_BENCH_R2T_LAPLACE_NOISE_H_
