#include "core/selection/egodensity_sensitivity.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "tests/core/selection/small_graphs.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::SmallGraphs;

// (A1) and (A2) over all graphs on 5 vertices and every edge-neighbour
// (1024 graphs x 10 edges x 5 vertices), t <= 4 (docs/selection.md, "Tests").
TEST(EgodensitySensitivityTest, AdmissibleOnAllFiveVertexGraphs) {
  const SmallGraphs graphs(5);
  double tightest_gap = 1;
  for (uint32_t g = 0; g < graphs.num_graphs(); ++g) {
    for (int e = 0; e < graphs.pairs(); ++e) {
      const uint32_t h = g ^ (1u << e);
      for (int v = 0; v < graphs.vertices(); ++v) {
        const uint64_t dg = graphs.Degree(g, v), dh = graphs.Degree(h, v);
        const double change = std::fabs(graphs.EgocentricDensity(g, v) -
                                        graphs.EgocentricDensity(h, v));
        const double bound = EgocentricDensitySensitivityAt(dg, 0);
        ASSERT_GE(bound + 1e-12, change) << "A1 graph " << g << " vertex " << v;
        tightest_gap = std::min(tightest_gap, bound - change);
        for (uint64_t t = 0; t <= 4; ++t) {
          ASSERT_GE(EgocentricDensitySensitivityAt(dg, t + 1),
                    EgocentricDensitySensitivityAt(dh, t))
              << "A2 graph " << g << " vertex " << v << " t " << t;
        }
      }
    }
  }
  // The bound is attained somewhere (it is the exact local sensitivity).
  EXPECT_NEAR(tightest_gap, 0, 1e-12);
}

// Local view of one vertex v with degree d and T edges among its
// neighbours: adding an edge to a new neighbour with c neighbours in N(v)
// gives (d + 1, T + c); removing one to a neighbour with c neighbours in
// N(v) gives (d - 1, T - c); an edge between two neighbours gives T +- 1.
// Enumerates every feasible (d, T, c) up to d = 40 (docs/selection.md,
// "Sensitivities").
TEST(EgodensitySensitivityTest, BoundsEveryLocalChangeUpToDegree40) {
  const auto density = [](int64_t d, int64_t t) {
    return d < 2 ? 0.0 : 2.0 * t / (static_cast<double>(d) * (d - 1));
  };
  for (int64_t d = 0; d <= 40; ++d) {
    const double bound = EgocentricDensitySensitivityAt(d, 0);
    for (int64_t t = 0; t <= d * (d - 1) / 2; ++t) {
      const double here = density(d, t);
      for (int64_t c = 0; c <= d; ++c) {
        // Adding: the new neighbour is adjacent to c of the d old ones.
        if (c <= d) {
          ASSERT_GE(bound + 1e-12, std::fabs(density(d + 1, t + c) - here));
        }
        // Removing: the old neighbour had c neighbours inside N(v).
        if (d >= 1 && c <= d - 1 && c <= t && t - c <= (d - 1) * (d - 2) / 2) {
          ASSERT_GE(bound + 1e-12, std::fabs(density(d - 1, t - c) - here));
        }
      }
      if (t + 1 <= d * (d - 1) / 2) {
        ASSERT_GE(bound + 1e-12, std::fabs(density(d, t + 1) - here));
      }
    }
  }
}

TEST(EgodensitySensitivityTest, ValuesAndVertexWrapper) {
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(1, 0), 1.0);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(2, 0), 1.0);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(4, 0), 0.5);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(100, 0), 0.02);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(100, 90), 0.2);
  EXPECT_DOUBLE_EQ(EgocentricDensitySensitivityAt(100, 99), 1.0);
  const EgocentricDensitySensitivity s({4, 10});
  EXPECT_DOUBLE_EQ(s.At(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(s.At(1, 5), 0.4);
  EXPECT_DOUBLE_EQ(s.Global(), 1.0);
}

// Lemma 7.2 of the paper as printed, kept only to show why it is not used
// (docs/privacy.md 6.1): at d - t = 3 it is 2 (above the global sensitivity 1)
// and at the next t it drops to 1, so (A2) fails with y = x.
double PaperLemma72(int64_t d, int64_t t) {
  return d - t > 2 ? 2.0 / static_cast<double>(d - t - 2) : 1.0;
}

TEST(EgodensitySensitivityTest, PaperFormulaViolatesA2) {
  EXPECT_DOUBLE_EQ(PaperLemma72(5, 2), 2.0);
  EXPECT_LT(PaperLemma72(5, 3), PaperLemma72(5, 2));
  EXPECT_GE(EgocentricDensitySensitivityAt(5, 3),
            EgocentricDensitySensitivityAt(5, 2));
}

}  // namespace
}  // namespace dpq::core::selection
