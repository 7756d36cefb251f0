// Overflow-free scaling of a quality gap, shared by the selection mechanisms
// (exponential mechanism, permute-and-flip).
#ifndef DPQ_CORE_DP_SCALED_GAP_H_
#define DPQ_CORE_DP_SCALED_GAP_H_

namespace dpq::core::dp {

// Returns half_gap * epsilon / sensitivity without intermediate overflow or
// underflow: the product of the three significands is in [1/4, 2) and the
// exponents add as integers, so the only rounding to 0 or infinity is that
// of the final result (where exp() of its negation is then 1 or 0, as it
// should be). A plain product could overflow to inf (and give inf - inf =
// NaN later) or flush to 0 for extreme but valid inputs (epsilon = 1e5).
double ScaledGap(double half_gap, double epsilon, double sensitivity);

}  // namespace dpq::core::dp

#endif  // DPQ_CORE_DP_SCALED_GAP_H_
