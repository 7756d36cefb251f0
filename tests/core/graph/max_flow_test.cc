#include "core/graph/max_flow.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace dpq::core::graph {
namespace {

// The classic CLRS network (max flow 23).
template <typename Capacity>
Capacity ClrsFlow() {
  MaxFlow<Capacity> f(6);
  f.AddArc(0, 1, 16);
  f.AddArc(0, 2, 13);
  f.AddArc(1, 3, 12);
  f.AddArc(2, 1, 4);
  f.AddArc(2, 4, 14);
  f.AddArc(3, 2, 9);
  f.AddArc(3, 5, 20);
  f.AddArc(4, 3, 7);
  f.AddArc(4, 5, 4);
  f.Finalize();
  return f.Run(0, 5);
}

TEST(MaxFlowTest, ClassicNetwork) {
  EXPECT_EQ(ClrsFlow<int64_t>(), 23);
  EXPECT_DOUBLE_EQ(ClrsFlow<double>(), 23.0);
}

TEST(MaxFlowTest, FlowsRespectCapacitiesAndConservation) {
  MaxFlow<int64_t> f(4);
  const uint32_t a = f.AddArc(0, 1, 3);
  const uint32_t b = f.AddArc(0, 2, 2);
  const uint32_t c = f.AddArc(1, 3, 2);
  const uint32_t d = f.AddArc(2, 3, 3);
  const uint32_t e = f.AddArc(1, 2, 1);
  f.Finalize();
  EXPECT_EQ(f.Run(0, 3), 5);
  EXPECT_EQ(f.Flow(a), 3);
  EXPECT_EQ(f.Flow(b), 2);
  EXPECT_EQ(f.Flow(c), 2);
  EXPECT_EQ(f.Flow(e), 1);
  EXPECT_EQ(f.Flow(d), 3);
}

// Growing capacities and re-running gives the flow of a fresh network with
// the final capacities, on random networks.
TEST(MaxFlowTest, IncrementalRunsMatchFreshOnes) {
  std::mt19937_64 rng(7);
  for (int rep = 0; rep < 200; ++rep) {
    const uint32_t n = 3 + rng() % 12;
    struct Arc {
      uint32_t from, to;
      int64_t cap, grow;
    };
    std::vector<Arc> arcs;
    for (int i = 0; i < 3 * static_cast<int>(n); ++i) {
      const uint32_t u = rng() % n, v = rng() % n;
      if (u != v) {
        arcs.push_back({u, v, static_cast<int64_t>(rng() % 5),
                        static_cast<int64_t>(rng() % 4)});
      }
    }
    MaxFlow<int64_t> grown(n), fresh(n);
    for (const Arc& x : arcs) {
      grown.AddArc(x.from, x.to, x.cap);
      fresh.AddArc(x.from, x.to, x.cap + x.grow);
    }
    grown.Finalize();
    fresh.Finalize();
    const int64_t before = grown.Run(0, n - 1);
    for (uint32_t i = 0; i < arcs.size(); ++i) {
      grown.IncreaseCapacity(i, arcs[i].grow);
    }
    const int64_t after = grown.Run(0, n - 1);
    EXPECT_LE(before, after);
    EXPECT_EQ(after, fresh.Run(0, n - 1)) << "rep " << rep;
  }
}

TEST(MaxFlowTest, ResetReusesTheSolver) {
  MaxFlow<int64_t> f(2);
  f.AddArc(0, 1, 4);
  f.Finalize();
  EXPECT_EQ(f.Run(0, 1), 4);
  f.Reset(3);
  f.AddArc(0, 1, 2);
  f.AddArc(1, 2, 1);
  f.Finalize();
  EXPECT_EQ(f.Run(0, 2), 1);
}

}  // namespace
}  // namespace dpq::core::graph
