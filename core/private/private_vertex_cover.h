// The DP size of a stable-order greedy vertex cover, for the repair measure
// I_R (paper Section 5, Algorithm 5).
#ifndef DPQ_CORE_PRIVATE_PRIVATE_VERTEX_COVER_H_
#define DPQ_CORE_PRIVATE_PRIVATE_VERTEX_COVER_H_

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/graph/graph.h"
#include "core/private/noisy_count.h"

namespace dpq::core::private_measures {

// Node sensitivity of graph::StableGreedyVertexCoverSize (paper Proposition
// 3: the covers of neighbouring graphs differ by at most one matched edge,
// i.e. two nodes; tested in private_sensitivity_test.cc).
inline constexpr double kVertexCoverSensitivity = 2.0;

// Algorithm 5: c + Z with c = StableGreedyVertexCoverSize(g) (a
// 2-approximation of I_R, Theorem 5) and Z ~ DiscreteLaplace(2 / epsilon).
// The paper's listing prints Lap(eps/2); the scale must be sensitivity /
// epsilon = 2 / epsilon (docs/privacy.md 6.1). epsilon-DP. kInvalidArgument on
// a bad epsilon. O(n + m).
absl::StatusOr<NoisyCount> PrivateVertexCoverSize(dp::SecureUrbg& urbg,
                                                  const graph::Graph& g,
                                                  double epsilon);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_PRIVATE_VERTEX_COVER_H_
