// The experiment metrics (docs/selection-experiments.md): coverage C with
// strict dominance and recall.
#include "bench/selection/experiment_metrics.h"

#include <vector>

#include "gtest/gtest.h"

namespace dpq::bench {
namespace {

TEST(ExperimentMetricsTest, CoverageWithStrictDominance) {
  const std::vector<Point> x = {{0.5, 0.5}, {0.9, 0.1}};
  EXPECT_EQ(CoverageC(x, x), 0.0);  // strict: C(X, X) = 0
  EXPECT_EQ(CoverageC(x, {{0.4, 0.4}, {0.6, 0.6}}), 0.5);
  EXPECT_EQ(CoverageC(x, {{0.4, 0.4}, {0.8, 0.0}}), 1.0);
  EXPECT_EQ(CoverageC(x, {{0.5, 0.4}}), 0.0);  // tie in one coordinate
}

TEST(ExperimentMetricsTest, Recall) {
  EXPECT_DOUBLE_EQ(Recall({1, 2, 3, 4}, {4, 9, 1, 8}), 0.5);
  EXPECT_DOUBLE_EQ(Recall({1, 2}, {2, 1}), 1.0);
  EXPECT_DOUBLE_EQ(Recall({1, 2}, {}), 0.0);
}

}  // namespace
}  // namespace dpq::bench
