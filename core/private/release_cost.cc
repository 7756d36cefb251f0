#include "core/private/release_cost.h"

namespace dpq::core::private_measures {

ReleaseCost ReleaseCostOf(uint64_t edges) {
  return edges > kHeavyReleaseEdges ? ReleaseCost::kHeavy : ReleaseCost::kLight;
}

absl::string_view ReleaseCostName(ReleaseCost cost) {
  return cost == ReleaseCost::kHeavy ? "heavy" : "light";
}

std::optional<ReleaseCost> ParseReleaseCost(absl::string_view name) {
  if (name == "light") return ReleaseCost::kLight;
  if (name == "heavy") return ReleaseCost::kHeavy;
  return std::nullopt;
}

bool ComputesOnGraph(const MeasureRelease& release) {
  for (const measures::Measure m : release.measures) {
    if (m != measures::Measure::kRepair ||
        release.repair_method == RepairMethod::kVertexCover) {
      return true;
    }
  }
  return false;
}

}  // namespace dpq::core::private_measures
