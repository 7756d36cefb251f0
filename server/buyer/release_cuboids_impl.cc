#include "server/buyer/release_cuboids_impl.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/cube/cuboid_release.h"
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/release_fingerprint.h"

namespace dpq::server::buyer {

absl::StatusOr<PreparedRelease<core::cube::CuboidRequest>>
PrepareReleaseCuboids(const registry::DatasetRegistry& registry,
                      const auth::Principal& caller,
                      const v1::ReleaseCuboidsRequest& request) {
  const ReleaseBasics basics = BasicsOf(registry::kReleaseCuboids, request);
  ASSIGN_OR_RETURN(ReleaseStart start, StartRelease(registry, caller, basics));
  core::cube::CuboidRequestSpec spec = CuboidRequestSpecFromProto(request);
  spec.epsilon = start.budget.epsilon;
  ASSIGN_OR_RETURN(core::cube::CuboidRequest cuboids,
                   core::cube::BuildCuboidRequest(
                       start.dataset->cube_schema,
                       PublicExactCuboids(start.dataset->manifest), spec));
  ReleaseIdentity identity = ReleaseCuboidsIdentity(request, cuboids);
  return Prepared(caller, basics, std::move(start), std::move(cuboids),
                  std::move(identity));
}

ReleaseIdentity ReleaseCuboidsIdentity(
    const v1::ReleaseCuboidsRequest& request,
    const core::cube::CuboidRequest& cuboids) {
  ReleaseIdentity identity;
  identity.parameters = {
      {"epsilon", DoubleBits(request.epsilon())},
      {"non_negative_integral", request.non_negative_integral() ? "1" : "0"}};
  // One line per cuboid, its dimensions joined by newlines (escaped by
  // FingerprintOf), so that no column name can mimic another list.
  std::vector<std::string> listed;  // "[Sex,Age] [Age]"
  for (const std::vector<std::string>& dims : cuboids.cuboids) {
    identity.parameters.emplace_back("cuboid", absl::StrJoin(dims, "\n"));
    listed.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  }
  identity.operation =
      absl::StrCat("ReleaseCuboids ", absl::StrJoin(listed, " "),
                   request.non_negative_integral() ? " integral" : "");
  return identity;
}

absl::Status ReleaseCuboidsImpl(const BuyerCore& service,
                                const auth::Principal& caller,
                                const v1::ReleaseCuboidsRequest& request,
                                v1::ReleaseCuboidsResponse* response,
                                const CallContext& call) {
  ASSIGN_OR_RETURN(const PreparedRelease<core::cube::CuboidRequest> prepared,
                   PrepareReleaseCuboids(*service.registry, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  const core::cube::CuboidRequest& cuboids = prepared.spec;
  return RunRelease<v1::ReleaseCuboidsResponse>(
      *service.ledger, prepared.reserve, call,
      [&](v1::ReleaseCuboidsResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = service.NewUrbg();
        ASSIGN_OR_RETURN(
            core::cube::CuboidRelease release,
            core::cube::ReleaseCuboids(d.table, d.cube_schema, cuboids.cuboids,
                                       cuboids.options, *urbg));
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
