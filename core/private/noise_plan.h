// What a checked measure release will spend on its final noisy count, and
// how loud that noise is as a function of theta: the cost preview of
// BuyerService.PreviewCost (docs/service.md "Cost preview"). Computed from
// public inputs only: the checked request (MeasureRelease: the methods and
// the per-measure epsilon) and the shape of the dataset's DCs (which are
// keyed, which decides whether group_bound applies). It reads no row and
// no graph, and draws nothing.
//
// The final count of I_MI and I_P is f_theta(G) + DiscreteLaplace(
// Delta_theta / eps_r), Delta_theta = theta (I_MI) or theta + 1 (I_P),
// where theta is the method's private choice and eps_r the part of the
// measure's epsilon left for the count after the choice (each method's
// split, below); I_R's count has sensitivity 1 (cover_bound, exact) or 2
// (vertex_cover) and the whole epsilon. The splits are the methods' own
// (GroupBoundReleaseEpsilon is group_bound's; gem, the EM methods and
// baseline split as private_measures.cc does); noise_plan_test.cc checks
// every method's plan against a real release's epsilon_release and
// bound95 at the theta it chose.
#ifndef DPQ_CORE_PRIVATE_NOISE_PLAN_H_
#define DPQ_CORE_PRIVATE_NOISE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/discrete_laplace.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/private/measure_release.h"

namespace dpq::core::private_measures {

struct MeasureNoisePlan {
  measures::Measure measure = measures::Measure::kMinimalInconsistency;
  // The method that will run, as the release reports it: group_bound
  // runs as gem where it does not apply (GroupBoundApplies).
  std::string method;
  // The part of the measure's epsilon that buys the final count.
  double release_epsilon = 0;
  // The count's sensitivity: theta_coefficient * theta +
  // sensitivity_constant (I_MI 1, 0; I_P 1, 1; I_R 0, 1 or 2).
  uint32_t theta_coefficient = 0;
  uint32_t sensitivity_constant = 0;

  // The discrete Laplace scale at `theta` (sensitivity / release_epsilon,
  // rounded up as DiscreteLaplace does) and the 95% bound of |noise|
  // (what the release reports as bound95 at that theta). kInvalidArgument
  // if the scale is beyond DiscreteLaplace::kMaxScale.
  absl::StatusOr<double> ScaleAt(uint32_t theta) const;
  absl::StatusOr<int64_t> Bound95At(uint32_t theta) const;
  // The count's noise at `theta` (DiscreteLaplace::ForSensitivity).
  absl::StatusOr<dp::DiscreteLaplace> NoiseAt(uint32_t theta) const;
};

// The plan of each measure of `release`, in the release's order, on a
// dataset whose DCs have `dc_shape` (DcBoundShape).
std::vector<MeasureNoisePlan> PlanMeasureNoise(
    const MeasureRelease& release, absl::Span<const DcDegreeBound> dc_shape);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_NOISE_PLAN_H_
