#include "core/private/noise_plan.h"

#include <string>
#include <vector>

#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/private/gem_release.h"
#include "core/private/group_bound_release.h"
#include "core/private/noisy_count.h"
#include "core/private/private_measures.h"
#include "core/private/private_vertex_cover.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

using measures::Measure;

// The method that runs for I_MI or I_P and the part of `epsilon` its
// count gets, as ComputePrivateMeasure splits it.
MeasureNoisePlan PlanSelection(Measure measure, SelectionMethod method,
                               double epsilon,
                               absl::Span<const DcDegreeBound> dc_shape) {
  MeasureNoisePlan plan;
  plan.measure = measure;
  plan.theta_coefficient = 1;
  plan.sensitivity_constant = measure == Measure::kProblematic ? 1 : 0;
  if (method == SelectionMethod::kGroupBound &&
      GroupBoundApplies(measure, dc_shape)) {
    plan.method = std::string(SelectionMethodName(method));
    plan.release_epsilon = GroupBoundReleaseEpsilon(measure, epsilon);
    return plan;
  }
  switch (method) {
    case SelectionMethod::kGroupBound:  // runs as gem (private_measures.cc)
    case SelectionMethod::kGem:
      plan.method = std::string(SelectionMethodName(SelectionMethod::kGem));
      plan.release_epsilon =
          dp::SplitEpsilon(epsilon, GemParameters().selection_share).second;
      break;
    case SelectionMethod::kBaseline:  // theta = N, the whole epsilon
      plan.method = std::string(SelectionMethodName(method));
      plan.release_epsilon = epsilon;
      break;
    default:  // the EMs of Algorithm 2: eps2 of the paper's split
      plan.method = std::string(SelectionMethodName(method));
      plan.release_epsilon = dp::SplitEpsilon(epsilon, kSelectionShare).second;
      break;
  }
  return plan;
}

}  // namespace

absl::StatusOr<dp::DiscreteLaplace> MeasureNoisePlan::NoiseAt(
    uint32_t theta) const {
  const double sensitivity =
      static_cast<double>(theta_coefficient) * theta + sensitivity_constant;
  return dp::DiscreteLaplace::ForSensitivity(sensitivity, release_epsilon);
}

absl::StatusOr<double> MeasureNoisePlan::ScaleAt(uint32_t theta) const {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise, NoiseAt(theta));
  return noise.scale();
}

absl::StatusOr<int64_t> MeasureNoisePlan::Bound95At(uint32_t theta) const {
  ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise, NoiseAt(theta));
  return noise.ConfidenceBound(kBoundConfidence);
}

std::vector<MeasureNoisePlan> PlanMeasureNoise(
    const MeasureRelease& release, absl::Span<const DcDegreeBound> dc_shape) {
  std::vector<MeasureNoisePlan> plans;
  for (const Measure measure : release.measures) {
    if (measure != Measure::kRepair) {
      plans.push_back(PlanSelection(measure, release.method,
                                    release.epsilon_each, dc_shape));
      continue;
    }
    // Sensitivity 1 (cover_bound, exact) or 2 (vertex_cover: Algorithm 5),
    // the whole epsilon (private_measures.cc ReleaseRepair).
    MeasureNoisePlan plan;
    plan.measure = measure;
    plan.method = release.MethodName(measure);
    plan.release_epsilon = release.epsilon_each;
    plan.sensitivity_constant =
        release.repair_method == RepairMethod::kVertexCover
            ? static_cast<uint32_t>(kVertexCoverSensitivity)
            : 1;
    plans.push_back(plan);
  }
  return plans;
}

}  // namespace dpq::core::private_measures
