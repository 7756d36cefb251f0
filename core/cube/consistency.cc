#include "core/cube/consistency.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/status_macros.h"

namespace dpq::core::cube {
namespace {

absl::Status CheckContained(const DenseCuboid& noisy,
                            const DenseCuboid& exact) {
  if (!IsSubset(MakeDimSet(exact.dims), MakeDimSet(noisy.dims))) {
    return absl::InvalidArgumentError(
        "An exact cuboid's dimensions are not all dimensions of the noisy "
        "cuboid it should constrain.");
  }
  return absl::OkStatus();
}

// c - (noisy aggregated onto c's dimensions), cell by cell.
DenseCuboid Residual(const DenseCuboid& noisy, const DenseCuboid& exact) {
  DenseCuboid r = AggregateCuboid(noisy, exact.dims);
  for (size_t i = 0; i < r.counts.size(); ++i) {
    r.counts[i] = exact.counts[i] - r.counts[i];
  }
  return r;
}

// deg(G): how many cells of `noisy` lie above one cell of G.
double Degree(const DenseCuboid& noisy, const DenseCuboid& g) {
  return static_cast<double>(noisy.counts.size()) /
         static_cast<double>(g.counts.size());
}

}  // namespace

absl::Status ProjectOntoExactCuboid(DenseCuboid& noisy,
                                    const DenseCuboid& exact) {
  RETURN_IF_ERROR(CheckContained(noisy, exact));
  // (6): lambda_b / 2 = r(b) / deg(G); (7): c^(a) = c~(a) + lambda_a[G] / 2.
  const DenseCuboid r = Residual(noisy, exact);
  BroadcastAdd(noisy, r, 1.0 / Degree(noisy, r));
  return absl::OkStatus();
}

absl::Status ProjectOntoTwoExactCuboids(DenseCuboid& noisy,
                                        const DenseCuboid& exact1,
                                        const DenseCuboid& exact2) {
  RETURN_IF_ERROR(CheckContained(noisy, exact1));
  RETURN_IF_ERROR(CheckContained(noisy, exact2));
  const DenseCuboid r1 = Residual(noisy, exact1);
  const DenseCuboid r2 = Residual(noisy, exact2);
  const std::vector<size_t> meet =
      Intersection(MakeDimSet(exact1.dims), MakeDimSet(exact2.dims));
  // The exact cuboids must agree on their common aggregate; compare the
  // exact counts themselves (integers in practice), not the noisy residuals,
  // whose rounding error grows with the cuboid.
  const DenseCuboid meet1 = AggregateCuboid(exact1, meet);
  const DenseCuboid meet2 = AggregateCuboid(exact2, meet);
  for (size_t x = 0; x < meet1.counts.size(); ++x) {
    const double diff = meet1.counts[x] - meet2.counts[x];
    if (std::abs(diff) > 1e-9 * (1.0 + std::abs(meet1.counts[x]))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The two exact cuboids disagree on their common aggregate (cell ", x,
          " of the meet differs by ", diff, "); no consistent cuboid exists."));
    }
  }
  const DenseCuboid big_r = AggregateCuboid(r1, meet);
  // All corrections are computed from the residuals of the noisy input, so
  // apply them after computing all three.
  BroadcastAdd(noisy, r1, 1.0 / Degree(noisy, r1));
  BroadcastAdd(noisy, r2, 1.0 / Degree(noisy, r2));
  BroadcastAdd(noisy, big_r, -1.0 / Degree(noisy, big_r));
  return absl::OkStatus();
}

absl::Status ProjectOntoExactCuboids(DenseCuboid& noisy,
                                     const std::vector<DenseCuboid>& exact) {
  switch (exact.size()) {
    case 0:
      return absl::OkStatus();
    case 1:
      return ProjectOntoExactCuboid(noisy, exact[0]);
    case 2:
      return ProjectOntoTwoExactCuboids(noisy, exact[0], exact[1]);
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "Consistency is implemented for at most two exact cuboids, not ",
          exact.size(), "."));
  }
}

}  // namespace dpq::core::cube
