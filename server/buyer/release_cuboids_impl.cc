// BuyerService.ReleaseCuboids: DP count marginals of a table dataset
// (issue 5, design.md section 7).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/cube/cuboid_release.h"
#include "core/dp/epsilon.h"
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_pipeline.h"

namespace dpq::server::buyer {
namespace {

// The requested dimension lists, checked against the dataset's cube (so
// that a typo costs nothing), with the cells they hold together.
// kInvalidArgument naming `cuboids`; kResourceExhausted above
// kMaxReleasedCells.
absl::StatusOr<std::vector<std::vector<std::string>>> CheckRequestedCuboids(
    const core::cube::CubeSchema& schema,
    const v1::ReleaseCuboidsRequest& request) {
  if (request.cuboids_size() == 0 ||
      request.cuboids_size() > kMaxCuboidsPerRequest) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cuboids must hold 1 to ", kMaxCuboidsPerRequest,
        " cuboids, but holds ", request.cuboids_size(), "."));
  }
  absl::flat_hash_map<std::string, size_t> labels;
  for (const core::cube::CubeDimension& dim : schema.dimensions) {
    labels[dim.column] = dim.labels.size();
  }
  std::vector<std::vector<std::string>> requested;
  size_t total_cells = 0;
  for (int i = 0; i < request.cuboids_size(); ++i) {
    std::vector<std::string> dims;
    absl::flat_hash_set<std::string> seen;
    size_t cells = 1;
    for (const std::string& dim : request.cuboids(i).dimensions()) {
      auto it = labels.find(dim);
      if (it == labels.end()) {
        std::vector<std::string> known;
        for (const auto& d : schema.dimensions) known.push_back(d.column);
        return absl::InvalidArgumentError(absl::StrCat(
            "cuboids[", i, "]: '", dim,
            "' is not a cube dimension of this dataset; its dimensions are: ",
            known.empty() ? "(none)" : absl::StrJoin(known, ", "), "."));
      }
      if (!seen.insert(dim).second) {
        return absl::InvalidArgumentError(absl::StrCat(
            "cuboids[", i, "] names dimension '", dim, "' twice."));
      }
      // Saturating: the product of many domains overflows size_t.
      cells = it->second == 0 || cells <= kMaxReleasedCells / it->second
                  ? cells * it->second
                  : kMaxReleasedCells + 1;
      dims.push_back(dim);
    }
    total_cells += cells;
    if (total_cells > kMaxReleasedCells) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "The requested cuboids have more than ", kMaxReleasedCells,
          " cells together (the server's limit per request); ask for fewer "
          "or coarser cuboids."));
    }
    requested.push_back(std::move(dims));
  }
  return requested;
}

// "[Sex,Age] [Age]".
std::string CuboidList(const std::vector<std::vector<std::string>>& cuboids) {
  std::vector<std::string> parts;
  for (const auto& dims : cuboids) {
    parts.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  }
  return absl::StrJoin(parts, " ");
}

}  // namespace

absl::Status BuyerServiceImpl::ReleaseCuboidsImpl(
    const auth::Principal& caller, const v1::ReleaseCuboidsRequest& request,
    v1::ReleaseCuboidsResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(const ReleaseStart start,
                   StartRelease(*registry_, caller, request.dataset_id(),
                                request.request_id(), request.epsilon(),
                                registry::kReleaseCuboids));
  const registry::LoadedDataset& d = *start.dataset;
  ASSIGN_OR_RETURN(const std::vector<std::vector<std::string>> requested,
                   CheckRequestedCuboids(d.cube_schema, request));

  core::cube::CuboidReleaseOptions options;
  for (const v1::CuboidSpec& spec : d.manifest.public_cuboids()) {
    options.public_exact_cuboids.emplace_back(spec.dimensions().begin(),
                                              spec.dimensions().end());
  }
  options.epsilon = start.epsilon;
  options.non_negative_integral = request.non_negative_integral();
  options.max_cells = kMaxNoisedCells;
  // Every error of the release depends on the schema, the public cuboids
  // and the request only (cells counted from the declared labels): check
  // them now, before anything is reserved.
  RETURN_IF_ERROR(core::cube::CheckCuboidRelease(d.cube_schema, requested,
                                                 options));

  std::vector<std::pair<std::string, std::string>> parameters = {
      {"dataset", request.dataset_id()},
      {"version", absl::StrCat(d.version)},
      {"epsilon", internal::DoubleBits(request.epsilon())},
      {"non_negative_integral", request.non_negative_integral() ? "1" : "0"}};
  // One line per cuboid, its dimensions joined by newlines (escaped by
  // FingerprintOf), so that no column name can mimic another list.
  for (const auto& dims : requested) {
    parameters.emplace_back("cuboid", absl::StrJoin(dims, "\n"));
  }
  const core::ledger::ReserveRequest reserve = ReserveFor(
      caller, start, registry::kReleaseCuboids, parameters,
      absl::StrCat("ReleaseCuboids ", CuboidList(requested),
                   request.non_negative_integral() ? " integral" : ""),
      start.epsilon);

  return internal::RunRelease<v1::ReleaseCuboidsResponse>(
      *ledger_, reserve, call,
      [&](v1::ReleaseCuboidsResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(core::cube::CuboidRelease release,
                         core::cube::ReleaseCuboids(d.table, d.cube_schema,
                                                    requested, options, *urbg));
        for (const core::cube::Cuboid& cuboid : release.cuboids) {
          *answer->add_cuboids() = registry::CuboidToProto(cuboid);
        }
        for (const double stddev : release.noise_stddev) {
          answer->add_noise_stddev(stddev);
        }
        answer->set_strategy(StrategyName(release.strategy));
        answer->set_sensitivity(release.sensitivity);
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
