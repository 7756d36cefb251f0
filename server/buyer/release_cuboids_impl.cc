// BuyerService.ReleaseCuboids: DP count marginals of a table dataset
// (docs/cube.md).
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/cube/cuboid_release.h"
#include "core/cube/cuboid_request.h"
#include "core/dp/secure_urbg.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_identity.h"
#include "server/buyer/release_pipeline.h"
#include "server/buyer/release_validation.h"

namespace dpq::server::buyer {

absl::Status BuyerServiceImpl::ReleaseCuboidsImpl(
    const auth::Principal& caller, const v1::ReleaseCuboidsRequest& request,
    v1::ReleaseCuboidsResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(const PreparedRelease<core::cube::CuboidRequest> prepared,
                   PrepareReleaseCuboids(*registry_, caller, request));
  const registry::LoadedDataset& d = *prepared.dataset;
  const core::cube::CuboidRequest& cuboids = prepared.spec;
  return internal::RunRelease<v1::ReleaseCuboidsResponse>(
      *ledger_, prepared.reserve, call,
      [&](v1::ReleaseCuboidsResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
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
