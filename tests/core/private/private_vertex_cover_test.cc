#include "core/private/private_vertex_cover.h"

#include <cstdint>

#include "absl/status/status.h"
#include "core/dp/discrete_laplace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;

TEST(PrivateVertexCoverTest, Example6CoverSizeWithNegligibleNoise) {
  SeededUrbg urbg(1);
  // Figure 2: cover {A, B, C, D, E, F}, size 6; without E also 6.
  ASSERT_OK_AND_ASSIGN(
      const NoisyCount c,
      PrivateVertexCoverSize(urbg, testing::Figure2Graph(), 1e5));
  EXPECT_EQ(c.value, 6);
  ASSERT_OK_AND_ASSIGN(const NoisyCount d,
                       PrivateVertexCoverSize(
                           urbg, testing::Figure2Graph().WithoutNode(4), 1e5));
  EXPECT_EQ(d.value, 6);
}

TEST(PrivateVertexCoverTest, NoiseScaleIsTwoOverEpsilon) {
  // The paper's listing prints Lap(eps/2); the scale must be 2/eps.
  SeededUrbg urbg(2);
  ASSERT_OK_AND_ASSIGN(
      const NoisyCount c,
      PrivateVertexCoverSize(urbg, testing::Figure2Graph(), 0.5));
  EXPECT_DOUBLE_EQ(c.scale, 4.0);
  ASSERT_OK_AND_ASSIGN(const dp::DiscreteLaplace reference,
                       dp::DiscreteLaplace::Create(4.0));
  EXPECT_EQ(c.bound95, reference.ConfidenceBound(0.95));
}

TEST(PrivateVertexCoverTest, RejectsBadEpsilon) {
  SeededUrbg urbg(3);
  EXPECT_THAT(PrivateVertexCoverSize(urbg, testing::Figure2Graph(), 0.0),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace dpq::core::private_measures
