// The statistic f(G_theta) released by Algorithm 2 for I_MI and I_P, its
// sensitivity, and the exponential-mechanism quality function of paper eq.
// (2)-(4) with its sensitivity (docs/privacy.md 6.1 corrects the paper for
// I_P).
//
// Notation: G_theta = pi_theta(G) is the edge-addition projection with the
// stable order Lambda (paper Algorithm 1, core/graph/edge_addition.h);
// neighbouring graphs differ by one node and its edges (node-DP,
// docs/privacy.md 1).
#ifndef DPQ_CORE_PRIVATE_PROJECTION_QUALITY_H_
#define DPQ_CORE_PRIVATE_PROJECTION_QUALITY_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/graph/edge_addition.h"
#include "core/measures/measure.h"

namespace dpq::core::private_measures {

// OK iff `measure` is I_MI or I_P, the measures Algorithm 2 releases.
// kInvalidArgument naming the measure otherwise.
absl::Status CheckProjectionMeasure(measures::Measure measure);

// f(G_theta): |E(G_theta)| for I_MI, |G_theta.V>0| for I_P.
// kInvalidArgument for other measures.
absl::StatusOr<int64_t> ProjectedStatistic(
    measures::Measure measure, const graph::ProjectionCounts& counts);

// Node sensitivity of f o pi_theta (docs/privacy.md 6):
//  - I_MI: theta. Removing a node changes |E(G_theta)| by a value in
//    [0, theta] (paper Lemma 1: the removed node keeps at most theta edges,
//    and each of them displaces at most one other edge along an alternating
//    path).
//  - I_P: theta + 1. The paper's Lemma 1 says theta, but a star whose centre
//    keeps theta leaves loses theta + 1 positive-degree nodes when the centre
//    is removed (tested in private_sensitivity_test.cc). Along each of the
//    <= theta alternating paths only the far endpoint changes degree, so the
//    change lies in [-theta, theta + 1].
// kInvalidArgument for other measures.
absl::StatusOr<double> ProjectedStatisticSensitivity(measures::Measure measure,
                                                     uint32_t theta);

// Sensitivity of the quality function below when its largest biased
// candidate is `theta_max`:
//  - I_MI: theta_max (paper Lemma 2: the bias is a difference of two terms
//    in [0, theta_max] and [0, theta]).
//  - I_P: 2 * theta_max (docs/privacy.md 6.1). Each term f_t(G') - f_t(G)
//    lies in [-t, t + 1]; for theta < theta_max the difference of the two lies
//    within theta_max + 1 + theta <= 2 * theta_max, and the candidate theta_max
//    has bias 0 by definition. The paper's bound theta_max (Lemma 2) is WRONG
//    for I_P: its monotonicity argument fails because removing a node can let
//    displaced edges back in; a 5-node graph moves a quality by 3 at
//    theta_max = 2 (private_sensitivity_test.cc,
//    IpQualityExceedsThePapersThetaMax).
// Candidates above theta_max get a data-independent quality (sensitivity 0)
// and do not change this bound. kInvalidArgument for other measures or
// theta_max == 0.
absl::StatusOr<double> QualitySensitivity(measures::Measure measure,
                                          uint32_t theta_max);

// The qualities of paper eq. (2) for candidates `thetas` with
// `statistics[i]` = f(G_{thetas[i]}):
//   q(theta) = -e_bias(theta) - sqrt(2) * Delta_f(theta) / epsilon_release,
//   e_bias(theta) = f(G_theta_max) - f(G_theta)          (eq. 3 and 4),
// where Delta_f is ProjectedStatisticSensitivity (the paper writes theta;
// for I_P we use theta + 1 consistently) and sqrt(2) * Delta_f / eps is the
// standard deviation of the release noise. A candidate theta > theta_max
// (only the candidate N of the optimized EM, paper eq. (12) and Lemma 4's
// proof) gets no bias term: nothing is truncated at theta >= N >= n, and its
// quality does not depend on the data.
// `theta_max` must be one of `thetas` (its statistic is the reference);
// sizes must match; kInvalidArgument otherwise. O(|thetas|).
absl::StatusOr<std::vector<double>> ProjectionQualities(
    measures::Measure measure, absl::Span<const uint32_t> thetas,
    absl::Span<const int64_t> statistics, uint32_t theta_max,
    double epsilon_release);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_PROJECTION_QUALITY_H_
