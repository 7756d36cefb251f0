#include "core/cube/cuboid_request.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::core::cube {
namespace {

// The requested dimension lists, checked against the declared cube (so
// that a typo costs nothing), with the cells they hold together.
absl::Status CheckRequestedCuboids(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& cuboids) {
  if (cuboids.empty() ||
      cuboids.size() > static_cast<size_t>(kMaxCuboidsPerRequest)) {
    return util::InvalidFieldError(
        "cuboids",
        absl::StrCat("cuboids must hold 1 to ", kMaxCuboidsPerRequest,
                     " cuboids, but holds ", cuboids.size(), "."));
  }
  absl::flat_hash_map<std::string, size_t> labels;
  for (const CubeDimension& dim : schema.dimensions) {
    labels[dim.column] = dim.labels.size();
  }
  size_t total_cells = 0;
  for (size_t i = 0; i < cuboids.size(); ++i) {
    absl::flat_hash_set<std::string> seen;
    size_t cells = 1;
    for (const std::string& dim : cuboids[i]) {
      auto it = labels.find(dim);
      if (it == labels.end()) {
        std::vector<std::string> known;
        for (const auto& d : schema.dimensions) known.push_back(d.column);
        return util::InvalidFieldError(
            absl::StrCat("cuboids[", i, "].dimensions"),
            absl::StrCat("cuboids[", i, "]: '", dim,
                         "' is not a cube dimension of this dataset; its "
                         "dimensions are: ",
                         known.empty() ? "(none)" : absl::StrJoin(known, ", "),
                         "."));
      }
      if (!seen.insert(dim).second) {
        return util::InvalidFieldError(
            absl::StrCat("cuboids[", i, "].dimensions"),
            absl::StrCat("cuboids[", i, "] names dimension '", dim,
                         "' twice."));
      }
      // Saturating: the product of many domains overflows size_t.
      cells = it->second == 0 || cells <= kMaxReleasedCells / it->second
                  ? cells * it->second
                  : kMaxReleasedCells + 1;
    }
    total_cells += cells;
    if (total_cells > kMaxReleasedCells) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The requested cuboids have more than ", kMaxReleasedCells,
          " cells together (the server's limit per request); ask for fewer "
          "or coarser cuboids."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CuboidRequest> BuildCuboidRequest(
    const CubeSchema& schema,
    const std::vector<std::vector<std::string>>& public_exact_cuboids,
    const CuboidRequestSpec& spec) {
  RETURN_IF_ERROR(CheckRequestedCuboids(schema, spec.cuboids));
  CuboidRequest request;
  request.cuboids = spec.cuboids;
  request.options.public_exact_cuboids = public_exact_cuboids;
  request.options.epsilon = spec.epsilon;
  request.options.non_negative_integral = spec.non_negative_integral;
  request.options.max_cells = kMaxNoisedCells;
  RETURN_IF_ERROR(CheckCuboidRelease(schema, request.cuboids, request.options));
  return request;
}

}  // namespace dpq::core::cube
