// ReleaseCuboids: generic sensitivity -> discrete Laplace -> consistency
// with the exact cuboids -> optional rounding (cuboid_release.h).
#include "core/cube/cuboid_release.h"

#include <cmath>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "core/cube/consistency.h"
#include "core/cube/data_cube.h"
#include "core/cube/generic_sensitivity.h"
#include "core/cube/release_strategy.h"
#include "core/cube/rounding.h"
#include "core/dp/budget_split.h"
#include "core/dp/discrete_laplace.h"
#include "core/dp/epsilon.h"
#include "core/util/status_macros.h"

namespace dpq::core::cube {
namespace {

struct Requested {
  std::vector<size_t> ordered;  // as asked, for the output's cell order
  DimSet set;
  bool exact = false;  // computable from one public exact cuboid
};

absl::StatusOr<std::vector<Requested>> ResolveRequest(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const std::vector<DimSet>& exact) {
  std::vector<Requested> out;
  for (const std::vector<std::string>& names : requested) {
    Requested r;
    ASSIGN_OR_RETURN(r.ordered, ResolveDimensions(schema, names));
    r.set = MakeDimSet(r.ordered);
    for (const DimSet& q : exact) r.exact = r.exact || IsSubset(r.set, q);
    out.push_back(std::move(r));
  }
  return out;
}

// The public constraints on a noisy cuboid over `dims`: every exact cuboid
// C constrains it through its projection [C] ^ dims, which is computable
// from C and hence public (with Q non-empty that includes the total count).
absl::StatusOr<std::vector<DenseCuboid>> ConstraintsFor(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<DimSet>& exact, const DimSet& dims, size_t max_cells) {
  std::vector<DimSet> projected;
  for (const DimSet& q : exact) projected.push_back(Intersection(q, dims));
  std::vector<DenseCuboid> out;
  for (const DimSet& g : ReduceExactCuboids(std::move(projected))) {
    ASSIGN_OR_RETURN(DenseCuboid c,
                     ComputeDenseCuboid(table, schema, g, max_cells));
    out.push_back(std::move(c));
  }
  return out;
}

// The cuboid over `dims` with one discrete Laplace sample per cell, then
// projected onto the exact cuboids.
absl::StatusOr<DenseCuboid> NoisyConsistentCuboid(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<DimSet>& exact, const DimSet& dims,
    const dp::DiscreteLaplace& noise, size_t max_cells, dp::SecureUrbg& urbg) {
  ASSIGN_OR_RETURN(DenseCuboid cuboid,
                   ComputeDenseCuboid(table, schema, dims, max_cells));
  ASSIGN_OR_RETURN(std::vector<DenseCuboid> constraints,
                   ConstraintsFor(table, schema, exact, dims, max_cells));
  for (double& c : cuboid.counts) c += static_cast<double>(noise.Sample(urbg));
  RETURN_IF_ERROR(ProjectOntoExactCuboids(cuboid, constraints));
  return cuboid;
}

}  // namespace

absl::StatusOr<CuboidRelease> ReleaseCuboids(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options, dp::SecureUrbg& urbg) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(options.epsilon));
  std::vector<DimSet> exact;
  for (const std::vector<std::string>& names : options.public_exact_cuboids) {
    ASSIGN_OR_RETURN(std::vector<size_t> dims,
                     ResolveDimensions(schema, names));
    exact.push_back(MakeDimSet(std::move(dims)));
  }
  exact = ReduceExactCuboids(std::move(exact));
  ASSIGN_OR_RETURN(const int64_t sensitivity,
                   BaseCuboidSensitivity(schema, exact));
  ASSIGN_OR_RETURN(std::vector<Requested> request,
                   ResolveRequest(schema, requested, exact));

  std::vector<DimSet> noisy_sets;
  for (const Requested& r : request) {
    if (!r.exact) noisy_sets.push_back(r.set);
  }
  CuboidRelease release;
  std::vector<DimSet> noised;        // the cuboids that get noise
  std::vector<DenseCuboid> sources;  // their noisy consistent versions
  double cell_variance = 0;          // per noised cell
  if (!noisy_sets.empty()) {
    ASSIGN_OR_RETURN(const StrategyPlan plan,
                     ChooseStrategy(schema, exact, noisy_sets,
                                    static_cast<double>(sensitivity),
                                    options.epsilon, options.max_cells));
    release.strategy = plan.strategy;
    release.sensitivity = static_cast<double>(sensitivity);
    release.epsilon_spent = options.epsilon;
    if (plan.strategy == ReleaseStrategy::kPerCuboid) {
      noised = Distinct(noisy_sets);
    } else {
      DimSet u;
      for (const DimSet& d : noisy_sets) u = Union(u, d);
      noised = {u};
    }
    // Sequential composition: each noised cuboid gets epsilon / k.
    ASSIGN_OR_RETURN(const dp::DiscreteLaplace noise,
                     dp::DiscreteLaplace::ForSensitivity(
                         static_cast<double>(sensitivity),
                         dp::EqualPart(options.epsilon, noised.size())));
    cell_variance = DiscreteLaplaceVariance(noise.scale());
    for (const DimSet& d : noised) {
      ASSIGN_OR_RETURN(DenseCuboid c,
                       NoisyConsistentCuboid(table, schema, exact, d, noise,
                                             options.max_cells, urbg));
      sources.push_back(std::move(c));
    }
  }

  for (const Requested& r : request) {
    if (r.exact) {
      ASSIGN_OR_RETURN(DenseCuboid c, ComputeDenseCuboid(table, schema,
                                                         r.ordered,
                                                         options.max_cells));
      release.cuboids.push_back(ToCuboid(schema, c));
      release.noise_stddev.push_back(0);
      continue;
    }
    size_t i = 0;
    while (!IsSubset(r.set, noised[i])) ++i;
    Cuboid out = ToCuboid(schema, AggregateCuboid(sources[i], r.ordered));
    // A derived cell sums size(noised) / size(r) independent noisy cells.
    const double summed = static_cast<double>(sources[i].counts.size()) /
                          static_cast<double>(out.cells.size());
    release.noise_stddev.push_back(std::sqrt(cell_variance * summed));
    if (options.non_negative_integral) RoundNonNegativeIntegral(out);
    release.cuboids.push_back(std::move(out));
  }
  return release;
}

}  // namespace dpq::core::cube
