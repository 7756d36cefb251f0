// The discrete Laplace (two-sided geometric) distribution for counts
// (design.md 5.3): P(X = k) proportional to exp(-|k| / scale), k integer.
// Adding it with scale = Delta / epsilon to an integer query of sensitivity
// Delta is epsilon-DP.
#ifndef DPQ_CORE_DP_DISCRETE_LAPLACE_H_
#define DPQ_CORE_DP_DISCRETE_LAPLACE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::dp {

// A discrete Laplace sampler. The scale is rounded UP to a rational
// numerator/denominator (so privacy is never weaker than asked), and samples
// are drawn exactly for that rational scale with the algorithm of Canonne,
// Kamath and Steinke (NeurIPS 2020): only integer arithmetic and uniform
// random bits, no floating-point inversion (cf. Mironov 2012).
class DiscreteLaplace {
 public:
  // kInvalidArgument unless `scale` is finite and > 0 and at most 2^40.
  static absl::StatusOr<DiscreteLaplace> Create(double scale);
  // Convenience: scale = sensitivity / epsilon, both validated.
  static absl::StatusOr<DiscreteLaplace> ForSensitivity(double sensitivity,
                                                        double epsilon);

  int64_t Sample(SecureUrbg& urbg) const;

  // The effective (rounded-up) scale used by Sample.
  double scale() const;

  // The smallest integer k >= 0 with P(|X| > k) <= 1 - confidence, e.g.
  // confidence = 0.95 gives the 95% bound reported to buyers. Exact closed
  // form: P(|X| > k) = 2 p^(k+1) / (1 + p), p = exp(-1 / scale).
  int64_t ConfidenceBound(double confidence) const;

 private:
  DiscreteLaplace(uint64_t numerator, uint64_t denominator)
      : numerator_(numerator), denominator_(denominator) {}
  uint64_t numerator_;    // scale = numerator_ / denominator_
  uint64_t denominator_;
};

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_DISCRETE_LAPLACE_H_
