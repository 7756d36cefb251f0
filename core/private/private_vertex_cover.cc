#include "core/private/private_vertex_cover.h"

#include <cstdint>

#include "core/dp/epsilon.h"
#include "core/graph/stable_vertex_cover.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<NoisyCount> PrivateVertexCoverSize(dp::SecureUrbg& urbg,
                                                  const graph::Graph& g,
                                                  double epsilon) {
  // Validate before any work so that a bad request costs nothing.
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  const uint32_t cover = graph::StableGreedyVertexCoverSize(g);
  return ReleaseNoisyCount(urbg, static_cast<int64_t>(cover),
                           kVertexCoverSensitivity, epsilon);
}

}  // namespace dpq::core::private_measures
