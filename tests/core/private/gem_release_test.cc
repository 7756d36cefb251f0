#include "core/private/gem_release.h"

#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
#include "core/private/flow_extensions.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using ::dpq::testing::SeededUrbg;
using graph::Graph;
using measures::Measure;

const std::vector<uint32_t> kGrid = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};

TEST(GemReleaseTest,
     WithoutBoundsEveryCandidateStaysAndTheValueIsTheExtension) {
  const Graph g = testing::StarGraph(30, 0);
  SeededUrbg urbg(3);
  ASSERT_OK_AND_ASSIGN(const GemRelease r,
                       ReleaseWithGem(urbg, g, Measure::kMinimalInconsistency,
                                      kGrid, /*epsilon=*/1e6));
  EXPECT_EQ(r.num_candidates, kGrid.size());
  EXPECT_FALSE(r.noisy_degree_bound.has_value());
  EXPECT_EQ(r.epsilon_degree_bound, 0);
  EXPECT_LE(r.epsilon_selection + r.epsilon_release, 1e6);
  // At epsilon 1e6 the noise is 0 and GEM picks the best: theta >= 29
  // keeps all 29 edges with the least noise among those.
  ASSERT_OK_AND_ASSIGN(const std::vector<int64_t> f,
                       FlowExtensionValues(g, Measure::kMinimalInconsistency,
                                           std::vector<uint32_t>{r.theta}));
  EXPECT_EQ(r.value, f[0]);
  EXPECT_EQ(r.theta, 50u);
}

TEST(GemReleaseTest, KeyedBoundsPruneTheCandidatesToTheNoisyBound) {
  const Graph g = testing::StarGraph(30, 0);
  // Two keyed DCs whose largest key group holds 30 rows: d = 2 * 29.
  const std::vector<DcDegreeBound> bounds = {{true, 29}, {true, 29}};
  SeededUrbg urbg(5);
  ASSERT_OK_AND_ASSIGN(const GemRelease r,
                       ReleaseWithGem(urbg, g, Measure::kProblematic, kGrid,
                                      /*epsilon=*/1e6, bounds));
  ASSERT_TRUE(r.noisy_degree_bound.has_value());
  EXPECT_EQ(*r.noisy_degree_bound, 58u);  // no noise at this epsilon
  EXPECT_GT(r.epsilon_degree_bound, 0);
  EXPECT_LE(r.epsilon_degree_bound + r.epsilon_selection + r.epsilon_release,
            1e6);
  // 1, 2, 5, 10, 20, 50 and the bound 58 itself.
  EXPECT_EQ(r.num_candidates, 7u);
  EXPECT_LE(r.theta, 58u);
  EXPECT_EQ(r.value, 30);  // I_P of the star, exact once theta >= 29
}

TEST(GemReleaseTest, AnUnkeyedDcDisablesThePruning) {
  const Graph g = testing::StarGraph(30, 0);
  const std::vector<DcDegreeBound> bounds = {{true, 29}, {false, 0}};
  SeededUrbg urbg(7);
  ASSERT_OK_AND_ASSIGN(const GemRelease r,
                       ReleaseWithGem(urbg, g, Measure::kProblematic, kGrid,
                                      /*epsilon=*/1.0, bounds));
  EXPECT_FALSE(r.noisy_degree_bound.has_value());
  EXPECT_EQ(r.num_candidates, kGrid.size());
}

TEST(GemReleaseTest, RefusesBadInputBeforeAnyNoise) {
  const Graph g = testing::StarGraph(5, 0);
  SeededUrbg urbg(1);
  EXPECT_THAT(ReleaseWithGem(urbg, g, Measure::kRepair, kGrid, 1.0),
              ::dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                       ::testing::_));
  EXPECT_THAT(ReleaseWithGem(urbg, g, Measure::kMinimalInconsistency,
                             std::vector<uint32_t>{5, 2}, 1.0),
              ::dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                       ::testing::_));
  EXPECT_THAT(
      ReleaseWithGem(urbg, g, Measure::kMinimalInconsistency, kGrid, -1.0),
      ::dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                               ::testing::_));
}

}  // namespace
}  // namespace dpq::core::private_measures
