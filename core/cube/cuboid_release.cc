// ReleaseCuboids: generic sensitivity -> discrete Laplace -> consistency
// with the exact cuboids -> optional rounding (cuboid_release.h).
#include "core/cube/cuboid_release.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

namespace {

// What a release will do, decided from public inputs only (schema,
// requested dimensions, public cuboids, epsilon, limits).
struct ReleasePlan {
  std::vector<DimSet> exact;  // Q, reduced
  int64_t sensitivity = 0;
  std::vector<Requested> request;
  ReleaseStrategy strategy = ReleaseStrategy::kPerCuboid;
  std::vector<DimSet> noised;                // the cuboids that get noise
  std::optional<dp::DiscreteLaplace> noise;  // iff noised is non-empty
};

absl::StatusOr<ReleasePlan> PlanRelease(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options) {
  RETURN_IF_ERROR(dp::ValidateEpsilon(options.epsilon));
  ReleasePlan plan;
  for (const std::vector<std::string>& names : options.public_exact_cuboids) {
    ASSIGN_OR_RETURN(std::vector<size_t> dims,
                     ResolveDimensions(schema, names));
    plan.exact.push_back(MakeDimSet(std::move(dims)));
  }
  plan.exact = ReduceExactCuboids(std::move(plan.exact));
  ASSIGN_OR_RETURN(plan.sensitivity, BaseCuboidSensitivity(schema, plan.exact));
  ASSIGN_OR_RETURN(plan.request, ResolveRequest(schema, requested, plan.exact));
  for (const Requested& r : plan.request) {
    if (r.exact && CuboidSize(schema, r.ordered) > options.max_cells) {
      return absl::ResourceExhaustedError(
          absl::StrCat("A requested public cuboid has more than ",
                       options.max_cells, " cells."));
    }
  }
  std::vector<DimSet> noisy_sets;
  for (const Requested& r : plan.request) {
    if (!r.exact) noisy_sets.push_back(r.set);
  }
  if (noisy_sets.empty()) return plan;
  ASSIGN_OR_RETURN(const StrategyPlan strategy,
                   ChooseStrategy(schema, plan.exact, noisy_sets,
                                  static_cast<double>(plan.sensitivity),
                                  options.epsilon, options.max_cells));
  plan.strategy = strategy.strategy;
  if (plan.strategy == ReleaseStrategy::kPerCuboid) {
    plan.noised = Distinct(noisy_sets);
  } else {
    DimSet u;
    for (const DimSet& d : noisy_sets) u = Union(u, d);
    plan.noised = {u};
  }
  for (const DimSet& d : plan.noised) {
    if (CuboidSize(schema, d) > options.max_cells) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The release would noise a cuboid of more than ", options.max_cells,
          " cells; ask for fewer or coarser cuboids."));
    }
  }
  // Sequential composition: each noised cuboid gets epsilon / k.
  ASSIGN_OR_RETURN(plan.noise,
                   dp::DiscreteLaplace::ForSensitivity(
                       static_cast<double>(plan.sensitivity),
                       dp::EqualPart(options.epsilon, plan.noised.size())));
  return plan;
}

}  // namespace

absl::Status CheckCuboidRelease(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options) {
  return PlanRelease(schema, requested, options).status();
}

absl::StatusOr<CuboidRelease> ReleaseCuboids(
    const table::Table& table, const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& requested,
    const CuboidReleaseOptions& options, dp::SecureUrbg& urbg) {
  ASSIGN_OR_RETURN(const ReleasePlan plan,
                   PlanRelease(schema, requested, options));
  CuboidRelease release;
  std::vector<DenseCuboid> sources;  // noisy consistent versions of noised
  double cell_variance = 0;          // per noised cell
  if (plan.noise.has_value()) {
    release.strategy = plan.strategy;
    release.sensitivity = static_cast<double>(plan.sensitivity);
    release.epsilon_spent = options.epsilon;
    cell_variance = DiscreteLaplaceVariance(plan.noise->scale());
    for (const DimSet& d : plan.noised) {
      ASSIGN_OR_RETURN(
          DenseCuboid c,
          NoisyConsistentCuboid(table, schema, plan.exact, d, *plan.noise,
                                options.max_cells, urbg));
      sources.push_back(std::move(c));
    }
  }

  for (const Requested& r : plan.request) {
    if (r.exact) {
      ASSIGN_OR_RETURN(
          DenseCuboid c,
          ComputeDenseCuboid(table, schema, r.ordered, options.max_cells));
      release.cuboids.push_back(ToCuboid(schema, c));
      release.noise_stddev.push_back(0);
      continue;
    }
    size_t i = 0;
    while (!IsSubset(r.set, plan.noised[i])) ++i;
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
