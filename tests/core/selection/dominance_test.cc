#include "core/selection/dominance.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "core/selection/score_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::core::selection {
namespace {

using ::testing::ElementsAre;

ScoreTable Table(size_t n, size_t m, std::vector<double> scores) {
  ScoreTable t;
  t.num_candidates = n;
  t.num_objectives = m;
  t.scores = std::move(scores);
  return t;
}

// Random table with values in {0, ..., levels - 1}: few levels = heavy ties.
ScoreTable RandomTable(std::mt19937_64& rng, size_t n, size_t m, int levels) {
  std::uniform_int_distribution<int> value(0, levels - 1);
  ScoreTable t = Table(n, m, std::vector<double>(n * m));
  for (double& s : t.scores) s = value(rng);
  return t;
}

TEST(DominanceTest, ParetoScoresOfPaperExample44) {
  // u1 = (a3, b5, c4, d2, e1), u2 = (a5, b3, c2, d4, e1).
  const ScoreTable t = Table(5, 2, {3, 5, 4, 2, 1, 5, 3, 2, 4, 1});
  EXPECT_THAT(ParetoScores(t), ElementsAre(0, 0, -1, -1, -4));
  EXPECT_THAT(ParetoScoresNaive(t), ElementsAre(0, 0, -1, -1, -4));
  EXPECT_TRUE(WeaklyDominates(t, 1, 2));
  EXPECT_FALSE(WeaklyDominates(t, 2, 1));
  EXPECT_FALSE(WeaklyDominates(t, 0, 1));
}

TEST(DominanceTest, IdenticalVectorsCostEachOtherOnePoint) {
  EXPECT_THAT(ParetoScores(Table(3, 2, {1, 1, 0, 2, 2, 0})),
              ElementsAre(-1, -1, -2));
  EXPECT_THAT(ParetoScores(Table(3, 3, {1, 1, 1, 1, 1, 1, 1, 1, 1})),
              ElementsAre(-2, -2, -2));
  EXPECT_THAT(ParetoScores(Table(3, 1, {5, 5, 7})), ElementsAre(-2, -2, 0));
}

TEST(DominanceTest, ScoresStayInRange) {
  std::mt19937_64 rng(7);
  for (int rep = 0; rep < 200; ++rep) {
    const size_t n = 1 + rep % 20;
    const ScoreTable t = RandomTable(rng, n, 2, 3);
    for (int64_t s : ParetoScores(t)) {
      EXPECT_LE(s, 0);
      EXPECT_GE(s, -static_cast<int64_t>(n - 1));
    }
  }
}

// The m = 2 Fenwick path and the m = 1 path against the naive definition on
// 10^4 random instances, half of them with heavy ties.
TEST(DominanceTest, FastPathsEqualNaiveOnRandomInstances) {
  std::mt19937_64 rng(11);
  for (int rep = 0; rep < 10000; ++rep) {
    const size_t n = 1 + rep % 25;
    const size_t m = 1 + rep % 2;
    const int levels = rep % 2 == 0 ? 3 : 1000;
    const ScoreTable t = RandomTable(rng, n, m, levels);
    ASSERT_EQ(ParetoScores(t), ParetoScoresNaive(t)) << "rep " << rep;
  }
}

TEST(DominanceTest, CountDominatingPointsMatchesBruteForceBothKinds) {
  std::mt19937_64 rng(13);
  for (int rep = 0; rep < 3000; ++rep) {
    const size_t m = 1 + rep % 4;
    const ScoreTable points = RandomTable(rng, 1 + rep % 13, m, 4);
    const ScoreTable queries = RandomTable(rng, 1 + rep % 7, m, 4);
    for (DominanceKind kind : {DominanceKind::kWeak, DominanceKind::kStrict}) {
      const std::vector<int64_t> fast =
          CountDominatingPoints(points, queries, kind);
      for (size_t q = 0; q < queries.num_candidates; ++q) {
        int64_t expected = 0;
        for (size_t p = 0; p < points.num_candidates; ++p) {
          bool all = true;
          for (size_t i = 0; i < m; ++i) {
            const double a = points.at(i, p), b = queries.at(i, q);
            all = all && (kind == DominanceKind::kWeak ? a >= b : a > b);
          }
          expected += all;
        }
        ASSERT_EQ(fast[q], expected) << "rep " << rep << " query " << q;
      }
    }
  }
}

TEST(DominanceTest, GeneralPathForThreeObjectives) {
  // c dominates a weakly (tie in u1); b is incomparable with both.
  const ScoreTable t = Table(3, 3, {1, 0, 1, 2, 5, 2, 3, 0, 4});
  EXPECT_THAT(ParetoScores(t), ElementsAre(-1, 0, 0));
}

}  // namespace
}  // namespace dpq::core::selection
