// A buyer's cuboid request (ReleaseCuboids), checked in one place against
// the dataset's declared cube before any budget is reserved: every error
// ReleaseCuboids could return depends on the schema (declared labels), the
// requested and public cuboids, epsilon and the limits only, so all of
// them are found here (docs/cube.md).
#ifndef DPQ_CORE_CUBE_CUBOID_REQUEST_H_
#define DPQ_CORE_CUBE_CUBOID_REQUEST_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"

namespace dpq::core::cube {

// Most cuboids per request, most cells they may have together (the
// response's size), and most cells noised (the base cuboid of the
// "base_cuboid" strategy may be larger than the requested ones).
inline constexpr int kMaxCuboidsPerRequest = 16;
inline constexpr size_t kMaxReleasedCells = 200'000;
inline constexpr size_t kMaxNoisedCells = 1'000'000;

// What a buyer asks for, before any check.
struct CuboidRequestSpec {
  // Each cuboid's dimension names, in the order of its cells.
  std::vector<std::vector<std::string>> cuboids;
  // A valid epsilon (dp::ValidateRequestEpsilon; the service checks it
  // with the release's other fields).
  double epsilon = 0;
  bool non_negative_integral = false;
};

// A checked request: what ReleaseCuboids runs.
struct CuboidRequest {
  std::vector<std::vector<std::string>> cuboids;
  CuboidReleaseOptions options;  // max_cells = kMaxNoisedCells
};

// Checks the number of cuboids (1 to kMaxCuboidsPerRequest), that each
// names declared dimensions of `schema`, none twice (kInvalidArgument
// naming `cuboids` and listing the declared dimensions), their cells
// together (kResourceExhausted above kMaxReleasedCells, counted from the
// declared labels), then every error of the release itself
// (CheckCuboidRelease with `public_exact_cuboids`, the owner's declared
// exact cuboids). Reads no row.
absl::StatusOr<CuboidRequest> BuildCuboidRequest(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& public_exact_cuboids,
    const CuboidRequestSpec& spec);

}  // namespace dpq::core::cube

#endif  // DPQ_CORE_CUBE_CUBOID_REQUEST_H_
