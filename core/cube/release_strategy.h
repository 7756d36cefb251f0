// Choosing how to noise a request for several cuboids (docs/cube.md,
// "Strategy"): noise each requested cuboid with epsilon / k (sequential
// composition), or noise the cuboid over the union of their dimensions once
// with the whole epsilon and derive every requested cuboid from it. Both
// use the same generic sensitivity (Lemma 4.4 bounds every cuboid by the
// base cuboid's). The choice uses only public inputs (schema, exact
// cuboids, request, epsilon), so it leaks nothing.
#ifndef DPQ_CORE_CUBE_RELEASE_STRATEGY_H_
#define DPQ_CORE_CUBE_RELEASE_STRATEGY_H_

#include <cstddef>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/data_cube.h"

namespace dpq::core::cube {

// Variance of the discrete Laplace distribution with this scale t:
// 2p / (1 - p)^2, p = exp(-1/t) (slightly below 2 t^2).
double DiscreteLaplaceVariance(double scale);

// Expected squared error of the projected cuboid R, in units of the
// per-cell noise variance of the noised cuboid U (R within U):
//   (size(U) / size(R)) * (size(R) - dim of the span of the constraints
//   restricted to R),
// where that dimension is sum over the exact cuboids C of size(R ^ C)
// minus the pairwise overlaps size(R ^ C1 ^ C2) (an ANOVA decomposition of
// functions on the product domain; derivation in docs/cube.md). `exact` is
// the reduced Q (at most two); with Q empty nothing is subtracted.
double ProjectedErrorUnits(const CubeSchema& schema,
                           const std::vector<DimSet>& exact, const DimSet& r,
                           const DimSet& u);

struct StrategyPlan {
  ReleaseStrategy strategy = ReleaseStrategy::kPerCuboid;
  double per_cuboid_error = 0;  // expected total squared error, per cuboid
  double base_cuboid_error = 0;
  size_t per_cuboid_cells = 0;  // noised cells
  size_t base_cuboid_cells = 0;
};

// Picks the strategy with the smaller expected squared error summed over
// the requested cells (after consistency), ties to per-cuboid, among those
// noising at most `max_cells` cells. `noisy` lists the requested cuboids
// that need noise (duplicates allowed; they share one noisy cuboid).
// kResourceExhausted if both exceed max_cells.
absl::StatusOr<StrategyPlan> ChooseStrategy(const CubeSchema& schema,
                                            const std::vector<DimSet>& exact,
                                            const std::vector<DimSet>& noisy,
                                            double sensitivity, double epsilon,
                                            size_t max_cells);

// The distinct sets in `sets`, in first-seen order.
std::vector<DimSet> Distinct(const std::vector<DimSet>& sets);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_RELEASE_STRATEGY_H_
