// The generalized exponential mechanism of Raskhodnikova and Smith
// ("Lipschitz extensions for node-private graph statistics and the
// generalized exponential mechanism", FOCS 2016, arXiv 1504.07912,
// Section 5): choosing among candidates whose scores have different
// sensitivities, with an error that scales with the sensitivity of the best
// candidate instead of the largest one.
//
// Candidate i has the loss (to minimise)
//   q_i(D) = cost_i - value_i(D),
// where value_i is an integer with sensitivity Delta_i >= 1 (it moves by at
// most Delta_i between neighbours) and cost_i is public. With
// t = 2 ln(k / beta) / epsilon and a_i = cost_i + t Delta_i, the normalised
// score is
//   s_i(D) = max_j [(q_i + t Delta_i) - (q_j + t Delta_j)] / (Delta_i +
//   Delta_j)
//          = max_j [(value_j - value_i) + (a_i - a_j)] / (Delta_i + Delta_j).
//
// Privacy (proof): the data part value_j - value_i of each term moves by at
// most Delta_i + Delta_j, so each term moves by at most 1, and so does their
// maximum: s has sensitivity 1. The mechanism samples i with probability
// proportional to exp(-epsilon s_i / (2 * 1.001)) with the exact sampler of
// exponential_mechanism.h: epsilon-DP. The 1.001 (kScoreSensitivity) covers
// the rounding of s in double: value_j - value_i is exact in int64 (values
// are refused beyond 2^61) and rounded once to double, a_i - a_j is public,
// their sum and the division round once each, so every term is within
// 4 ulp of its magnitude; the terms that matter (those that can be the
// maximum of a score below the sampler's clamp, s <= 2^30) have magnitude
// below 2^31 (values bounded by n * theta <= 2^32 (Delta_i + Delta_j), costs
// by public sizes), i.e. error below 2^-20, far inside 0.001. Scores are
// capped at 2^30 (min(s, C) keeps sensitivity 1; a candidate at 2^30 has
// weight below e^-500 at the smallest epsilon dpq accepts).
//
// Utility (the guarantee of the paper, re-derived): the minimum of s is 0
// (the i minimising q_i + t Delta_i has no positive term), so by the EM's
// tail bound with probability >= 1 - beta the chosen i has s_i <= t, i.e.
// q_i <= q_j + 2 t Delta_j for every j: the loss is within 2 t Delta_j of
// every candidate j, in particular of the best one.
#ifndef DPQ_CORE_DP_GENERALIZED_EXPONENTIAL_MECHANISM_H_
#define DPQ_CORE_DP_GENERALIZED_EXPONENTIAL_MECHANISM_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::dp {

// The candidates of one GEM run: values_i (data, integer), sensitivities_i
// (public, >= 1), costs_i (public, finite). Sizes must match.
struct GemCandidates {
  absl::Span<const int64_t> values;
  absl::Span<const int64_t> sensitivities;
  absl::Span<const double> costs;
};

// Largest |value| accepted (callers clamp to it: min(v, C) keeps the
// sensitivity, and refusing a value would be an error that depends on
// the data).
inline constexpr int64_t kGemMaxValue = int64_t{1} << 61;
// Declared sensitivity of the normalised score (1 plus rounding room).
inline constexpr double kGemScoreSensitivity = 1.001;
// Largest normalised score used (scores above are capped).
inline constexpr double kGemScoreCap = 1073741824.0;  // 2^30

// t = 2 ln(k / beta) / epsilon. kInvalidArgument for k == 0, beta outside
// (0, 1) or a bad epsilon.
absl::StatusOr<double> GemThreshold(size_t k, double beta, double epsilon);

// The normalised scores s_i (>= 0, capped at kGemScoreCap) for threshold
// `t`. kInvalidArgument on mismatched sizes, no candidate, a sensitivity
// below 1, a |value| or sensitivity above 2^61 or a non-finite cost or t.
// O(k^2).
absl::StatusOr<std::vector<double>> GemScores(const GemCandidates& candidates,
                                              double t);

// Samples a candidate index: epsilon-DP (see above) when every value_i has
// sensitivity sensitivities_i. Errors as for GemThreshold and GemScores.
absl::StatusOr<size_t> SampleGeneralizedExponentialMechanism(
    SecureUrbg& urbg, const GemCandidates& candidates, double epsilon,
    double beta);

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_GENERALIZED_EXPONENTIAL_MECHANISM_H_
