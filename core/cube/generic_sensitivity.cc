#include "core/cube/generic_sensitivity.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dpq::core::cube {

std::vector<DimSet> ReduceExactCuboids(std::vector<DimSet> exact) {
  for (DimSet& q : exact) q = MakeDimSet(std::move(q));
  std::sort(exact.begin(), exact.end());
  exact.erase(std::unique(exact.begin(), exact.end()), exact.end());
  std::vector<DimSet> kept;
  for (size_t i = 0; i < exact.size(); ++i) {
    bool implied = false;
    for (size_t j = 0; j < exact.size() && !implied; ++j) {
      implied = j != i && IsSubset(exact[i], exact[j]);
    }
    if (!implied) kept.push_back(exact[i]);
  }
  return kept;
}

namespace {

std::string Describe(const CubeSchema& schema, const std::vector<DimSet>& q) {
  std::vector<std::string> parts;
  for (const DimSet& c : q) {
    std::vector<std::string> names;
    for (size_t d : c) names.push_back(schema.dimensions[d].column);
    parts.push_back(absl::StrCat("{", absl::StrJoin(names, ","), "}"));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

absl::StatusOr<int64_t> BaseCuboidSensitivity(
    const CubeSchema& schema, const std::vector<DimSet>& exact) {
  const std::vector<DimSet> q = ReduceExactCuboids(exact);
  switch (q.size()) {
    case 0:
      // Unbounded DP: adding or removing one row changes one base cell by 1.
      return 1;
    case 1:
      // Lemma 4.2(i): Q fixes the row count, and a minimal change moves one
      // row to another base cell of the same exact cell: L1 distance 2.
      return 2;
    case 2: {
      // Lemma 4.2(ii): a minimal move set is one simple alternating cycle
      // inside one cell of the meet [C1]^[C2], so it has at most
      // 2 min(size([C1]-[C2]), size([C2]-[C1])) moves.
      const size_t m = std::min(CuboidSize(schema, Minus(q[0], q[1])),
                                CuboidSize(schema, Minus(q[1], q[0])));
      if (m > static_cast<size_t>(std::numeric_limits<int64_t>::max() / 2)) {
        return absl::ResourceExhaustedError(
            "The generic sensitivity of the exact cuboids overflows.");
      }
      return static_cast<int64_t>(2 * m);
    }
    default:
      return absl::FailedPreconditionError(absl::StrCat(
          "The public exact cuboids ", Describe(schema, q),
          " are three or more cuboids none of which is implied by another; "
          "no bound on the generic sensitivity is proven for that case "
          "(paper Section 4.1), so no cuboid can be released. Declare at "
          "most two exact cuboids."));
  }
}

absl::StatusOr<int64_t> CuboidSensitivity(const CubeSchema& schema,
                                          const std::vector<DimSet>& exact,
                                          const DimSet& dims) {
  for (const DimSet& q : exact) {
    if (IsSubset(dims, MakeDimSet(q))) return 0;  // public already
  }
  return BaseCuboidSensitivity(schema, exact);
}

int64_t ExactCellsSensitivity(const std::vector<MeetGroup>& groups) {
  int64_t best = 0;
  for (const MeetGroup& g : groups) {
    const int64_t k = std::min(g.exact1, g.exact2);
    const bool both_free = g.free1 > 0 && g.free2 > 0;
    best = std::max(best, 2 * k);
    if (both_free) best = std::max(best, 2 * k + 1);
    if (g.free2 > 0 && g.exact1 > 0) {
      best = std::max(best, 2 * std::min(g.exact1, g.exact2 + 1));
    }
    if (g.free1 > 0 && g.exact2 > 0) {
      best = std::max(best, 2 * std::min(g.exact2, g.exact1 + 1));
    }
    if (both_free) best = std::max<int64_t>(best, 1);
  }
  return best;
}

absl::StatusOr<int64_t> ExactCellsSensitivity(const CubeSchema& schema,
                                              const DimSet& c1,
                                              const std::vector<bool>& exact1,
                                              const DimSet& c2,
                                              const std::vector<bool>& exact2) {
  const DimSet meet = Intersection(c1, c2);
  std::vector<MeetGroup> groups(CuboidSize(schema, meet));
  const DimSet* dims[2] = {&c1, &c2};
  const std::vector<bool>* flags[2] = {&exact1, &exact2};
  for (int side = 0; side < 2; ++side) {
    DenseCuboid exact_cells, all_cells;
    exact_cells.dims = *dims[side];
    for (size_t d : exact_cells.dims) {
      exact_cells.sizes.push_back(schema.dimensions[d].labels.size());
    }
    if (flags[side]->size() != CuboidSize(schema, exact_cells.dims)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Exactness flags of cuboid ", side + 1, " have length ",
                       flags[side]->size(), " but the cuboid has ",
                       CuboidSize(schema, exact_cells.dims), " cells."));
    }
    all_cells = exact_cells;
    for (bool f : *flags[side]) exact_cells.counts.push_back(f ? 1 : 0);
    all_cells.counts.assign(flags[side]->size(), 1);
    const DenseCuboid k = AggregateCuboid(exact_cells, meet);
    const DenseCuboid n = AggregateCuboid(all_cells, meet);
    for (size_t x = 0; x < groups.size(); ++x) {
      const auto exact = static_cast<int64_t>(k.counts[x]);
      const auto free = static_cast<int64_t>(n.counts[x]) - exact;
      (side == 0 ? groups[x].exact1 : groups[x].exact2) = exact;
      (side == 0 ? groups[x].free1 : groups[x].free2) = free;
    }
  }
  return ExactCellsSensitivity(groups);
}

}  // namespace dpq::core::cube
