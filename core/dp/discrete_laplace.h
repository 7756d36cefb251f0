// The discrete Laplace (two-sided geometric) distribution for counts
// (docs/privacy.md 4.2): P(X = k) proportional to exp(-|k| / scale), k integer.
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
//
// Rational form: the denominator is a power of two, at most 2^62, and the
// numerator is below 2^53. Every double scale >= 2^-9 (in fact every double
// whose binary expansion ends at or above 2^-62) is represented EXACTLY, so
// scale() == the requested scale; smaller scales are rounded up to a multiple
// of 2^-62 (an absolute error below 2.2e-19).
//
// Cost: O(1) expected 64-bit draws per sample for every scale (measured:
// about 9 for scales >= 2, up to about 18 for scales well below 1, where half
// of the draws of zero are rejected for their sign).
//
// Thread-compatible and cheap to copy; Sample() is const.
class DiscreteLaplace {
 public:
  // Largest accepted scale. Keeps every intermediate of Sample() in range
  // and the noise meaningful as an answer.
  static constexpr double kMaxScale = 1099511627776.0;  // 2^40

  // kInvalidArgument unless `scale` is finite and > 0 and at most 2^40.
  static absl::StatusOr<DiscreteLaplace> Create(double scale);
  // Convenience: scale = sensitivity / epsilon, both validated (see
  // epsilon.h). The quotient is rounded up, never down, in floating point
  // too. kInvalidArgument if it exceeds kMaxScale.
  static absl::StatusOr<DiscreteLaplace> ForSensitivity(double sensitivity,
                                                        double epsilon);

  // One exact sample for the rational scale numerator()/denominator()
  // (Canonne, Kamath, Steinke 2020, Algorithm 2). Magnitudes above 2^62 are
  // rejected and redrawn, which conditions on an event of probability below
  // exp(-2^22): no effect on any output in practice and none on privacy
  // beyond that.
  int64_t Sample(SecureUrbg& urbg) const;

  // The effective (rounded-up) scale used by Sample.
  double scale() const;

  // The exact rational scale: scale() == numerator() / denominator().
  uint64_t numerator() const { return numerator_; }
  uint64_t denominator() const { return denominator_; }

  // The smallest integer k >= 0 with P(|X| > k) <= 1 - confidence, e.g.
  // confidence = 0.95 gives the 95% bound reported to buyers. Exact closed
  // form: P(|X| > k) = 2 p^(k+1) / (1 + p), p = exp(-1 / scale).
  // Intended for 0 < confidence < 1; confidence <= 0 gives 0, and
  // confidence >= 1 or NaN gives INT64_MAX (no finite bound exists).
  int64_t ConfidenceBound(double confidence) const;

 private:
  DiscreteLaplace(uint64_t numerator, uint64_t denominator)
      : numerator_(numerator), denominator_(denominator) {}
  uint64_t numerator_;  // scale = numerator_ / denominator_
  uint64_t denominator_;
};

namespace internal {

// Bernoulli(exp(-gamma)) for the rational gamma = numerator / denominator >=
// 0, denominator >= 1, exactly (Canonne, Kamath, Steinke 2020, Algorithm 1).
// Expected O(1 + gamma) uniform draws. Exposed for tests.
bool SampleBernoulliExp(uint64_t numerator, uint64_t denominator,
                        SecureUrbg& urbg);

}  // namespace internal
}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_DISCRETE_LAPLACE_H_
