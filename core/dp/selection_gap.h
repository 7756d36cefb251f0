// Exact sampling for the selection mechanisms (exponential mechanism,
// permute-and-flip): the log-weight gaps as exact dyadic rationals and an
// exact Bernoulli(exp(-gap)) (docs/privacy.md 4.3 and 5; finding 8 of
// docs/privacy.md 7).
//
// Both mechanisms weigh candidate r by exp(-gamma_r) with
//   gamma_r = epsilon * (q* - q_r) / (2 * Delta),   q* = max_j q_j.
// Comparing a 53-bit uniform with a floating-point exp(-gamma_r) (the old
// way) turns every probability below 2^-53 into 0 or 2^-53: an
// (epsilon, delta) guarantee with delta about n * 2^-52. Here each gamma_r
// becomes whole + fraction / 2^62 (integers) and exp(-gamma_r) is sampled
// with Canonne-Kamath-Steinke's exact Bernoulli, so every probability is
// exactly what the rational gammas say.
//
// Why the guarantee stays pure epsilon-DP (proof):
//  1. Clamp: gamma'_r = min(gamma_r, G), G = kMaxGapWhole = 64. Then
//     exp(-gamma'_r) = exp(eps/(2 Delta) * (q'_r - q*)) with
//     q'_r = max(q_r, q* - 2 Delta G / eps); q* and q_r move by at most
//     Delta between neighbours, so q'_r does too: the clamped mechanism is
//     the same mechanism on qualities q' of sensitivity Delta (epsilon-DP).
//     Utility: a clamped candidate keeps weight e^-64 < 1.7e-28.
//  2. Rounding: gamma is computed in floating point from halved qualities
//     (ScaledGap: three roundings, relative error <= 3 * 2^-53, so at most
//     64 * 3 * 2^-53 < 2^-46 absolute below the clamp) and the fraction is
//     rounded UP to a multiple of 2^-62: every used gamma~_r is within
//     e = 2^-45 of gamma'_r.
//  3. Perturbed weights: for the exponential mechanism, the log-probability
//     of r moves by at most e through its own weight and e through the
//     normaliser on each of the two neighbours: loss <= eps_run + 4e. For
//     permute-and-flip, gamma~ is the gap of qualities
//     q~_r = q* - (2 Delta / eps_run) gamma~_r that are within
//     (2 Delta / eps_run) e of q', so their sensitivity is at most
//     Delta + 4 Delta e / eps_run and PF at (eps_run, Delta) is
//     (eps_run + 4e)-DP.
//  4. Floating-point qualities: the qualities are themselves computed in
//     double (weighted sums, dampened scores, differences of counts), so
//     between neighbours they can move by Delta plus their rounding errors,
//     at most a few ulps of the qualities. Running at (1 - 2^-20) epsilon
//     covers an excess sensitivity of 2^-20 Delta, i.e. qualities up to
//     about 2^31 Delta in magnitude (m <= 8 terms); dpq's qualities are
//     bounded far below that by public sizes (N <= 2^32 rows, node counts
//     <= 10^6, rates and densities <= 1).
//  5. So both run at eps_run = (1 - 2^-20) epsilon - kSelectionEpsilonMargin
//     with kSelectionEpsilonMargin = 2^-43 = 4e: epsilon-DP in total.
//     Epsilons below kMinSelectionEpsilon (2^-40) are refused (public inputs
//     only).
#ifndef DPQ_CORE_DP_SELECTION_GAP_H_
#define DPQ_CORE_DP_SELECTION_GAP_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::dp {

// gamma = whole + fraction / 2^kGapFractionBits, whole <= kMaxGapWhole.
struct SelectionGap {
  uint64_t whole = 0;
  uint64_t fraction = 0;
};

inline constexpr int kGapFractionBits = 62;
inline constexpr uint64_t kMaxGapWhole = 64;
// 2^-43: what the mechanisms subtract from epsilon to cover the rounding
// of the gaps (step 5 above), after scaling it by kSelectionEpsilonScale.
inline constexpr double kSelectionEpsilonMargin = 1.0 / 8796093022208.0;
// 1 - 2^-20: covers the rounding of the qualities (step 4 above).
inline constexpr double kSelectionEpsilonScale = 1.0 - 1.0 / 1048576.0;
// 2^-40: the smallest epsilon a selection step accepts.
inline constexpr double kMinSelectionEpsilon = 1.0 / 1099511627776.0;

// The gaps of every candidate, computed at epsilon - margin (see above).
// kInvalidArgument for no candidate, a non-finite quality, an invalid
// epsilon (or one below kMinSelectionEpsilon) or sensitivity.
absl::StatusOr<std::vector<SelectionGap>> SelectionGaps(
    absl::Span<const double> qualities, double epsilon, double sensitivity);

// Exactly Bernoulli(exp(-gap)).
bool SampleBernoulliExpGap(const SelectionGap& gap, SecureUrbg& urbg);

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_SELECTION_GAP_H_
