#include "core/cube/release_strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::cube {

double DiscreteLaplaceVariance(double scale) {
  const double p = std::exp(-1.0 / scale);
  const double q = -std::expm1(-1.0 / scale);  // 1 - p, accurately
  return 2.0 * p / (q * q);
}

double ProjectedErrorUnits(const CubeSchema& schema,
                           const std::vector<DimSet>& exact, const DimSet& r,
                           const DimSet& u) {
  const double size_r = static_cast<double>(CuboidSize(schema, r));
  double spanned = 0;
  for (const DimSet& c : exact) {
    spanned += static_cast<double>(CuboidSize(schema, Intersection(r, c)));
  }
  if (exact.size() == 2) {
    spanned -= static_cast<double>(
        CuboidSize(schema, Intersection(Intersection(r, exact[0]), exact[1])));
  }
  const double size_u = static_cast<double>(CuboidSize(schema, u));
  return size_u / size_r * std::max(0.0, size_r - spanned);
}

std::vector<DimSet> Distinct(const std::vector<DimSet>& sets) {
  std::vector<DimSet> out;
  for (const DimSet& s : sets) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

namespace {

size_t SaturatingAdd(size_t a, size_t b) {
  return a > std::numeric_limits<size_t>::max() - b
             ? std::numeric_limits<size_t>::max()
             : a + b;
}

}  // namespace

absl::StatusOr<StrategyPlan> ChooseStrategy(const CubeSchema& schema,
                                            const std::vector<DimSet>& exact,
                                            const std::vector<DimSet>& noisy,
                                            double sensitivity, double epsilon,
                                            size_t max_cells) {
  const std::vector<DimSet> distinct = Distinct(noisy);
  DimSet u;
  StrategyPlan plan;
  for (const DimSet& d : distinct) {
    u = Union(u, d);
    plan.per_cuboid_cells =
        SaturatingAdd(plan.per_cuboid_cells, CuboidSize(schema, d));
  }
  plan.base_cuboid_cells = CuboidSize(schema, u);
  const double k = static_cast<double>(distinct.size());
  const double var_per = DiscreteLaplaceVariance(sensitivity * k / epsilon);
  const double var_base = DiscreteLaplaceVariance(sensitivity / epsilon);
  for (const DimSet& r : noisy) {
    plan.per_cuboid_error += var_per * ProjectedErrorUnits(schema, exact, r, r);
    plan.base_cuboid_error +=
        var_base * ProjectedErrorUnits(schema, exact, r, u);
  }
  const bool per_ok = plan.per_cuboid_cells <= max_cells;
  const bool base_ok = plan.base_cuboid_cells <= max_cells;
  if (!per_ok && !base_ok) {
    return absl::ResourceExhaustedError(
        absl::StrCat("The request needs at least ",
                     std::min(plan.per_cuboid_cells, plan.base_cuboid_cells),
                     " noisy cells, more than the limit of ", max_cells,
                     "; ask for fewer or smaller cuboids."));
  }
  plan.strategy =
      per_ok && (!base_ok || plan.per_cuboid_error <= plan.base_cuboid_error)
          ? ReleaseStrategy::kPerCuboid
          : ReleaseStrategy::kBaseCuboid;
  return plan;
}

}  // namespace dpq::core::cube
