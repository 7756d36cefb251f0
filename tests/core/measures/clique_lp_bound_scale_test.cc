// The cover bound (core/measures/clique_lp_bound.h) at the scale where
// floating point used to decide it: 10^5 components whose LP optima have
// denominator 3, and one component of 3 x 10^5 nodes at y = 1/3. The
// released bound must be the ceiling of the exact LP optimum on both
// neighbours, so their bounds differ by at most 1. Before the optimum was
// certified in exact arithmetic, the summed doubles of these graphs passed
// the fixed shift of 1e-7 and the bound rounded up by one where the exact
// LP is an integer: on one neighbour and not on the other, two apart under
// a noise of sensitivity 1.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "core/measures/clique_lp_bound.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::measures {
namespace {

using graph::Edge;
using graph::Graph;
using graph::NodeId;

// `k7s` disjoint copies of K7, then `k6s` of K6, then `edges` disjoint
// edges. The triangle LP of K_n has y = 1/3 on every node (the rows of the
// triangles at a node number (n-1)(n-2)/2 of n(n-1)(n-2)/6, so summing all
// rows gives Y <= n/3), so K7's cover LP is 14/3, K6's 4 and an edge's 1.
Graph Cliques(uint32_t k7s, uint32_t k6s, uint32_t edges) {
  std::vector<Edge> e;
  NodeId next = 0;
  auto clique = [&](NodeId size) {
    for (NodeId a = 0; a < size; ++a) {
      for (NodeId b = a + 1; b < size; ++b) e.emplace_back(next + a, next + b);
    }
    next += size;
  };
  for (uint32_t i = 0; i < k7s; ++i) clique(7);
  for (uint32_t i = 0; i < k6s; ++i) clique(6);
  for (uint32_t i = 0; i < edges; ++i) clique(2);
  return Graph::FromSortedUniqueEdges(next, e);
}

// The square of the cycle C_n (i adjacent to i +- 1 and i +- 2 mod n, n >=
// 6): one component whose triangles (i, i+1, i+2) are tight at y = 1/3.
// Summing those n rows gives 3 Y <= n, so the cover LP is 2n/3. Then the
// edge (n, n+1), and with `closed` a node n+2 adjacent to both (a
// triangle: the cover LP of that component goes from 1 to 2).
Graph SquaredCycleAndEdge(uint32_t n, bool closed) {
  std::vector<Edge> e;
  for (NodeId i = 0; i < n; ++i) {
    for (NodeId d : {1u, 2u}) {
      const NodeId j = (i + d) % n;
      e.emplace_back(std::min(i, j), std::max(i, j));
    }
  }
  e.emplace_back(n, n + 1);
  if (closed) {
    e.emplace_back(n, n + 2);
    e.emplace_back(n + 1, n + 2);
  }
  std::sort(e.begin(), e.end());
  return Graph::FromSortedUniqueEdges(closed ? n + 3 : n + 2, e);
}

TEST(CliqueLpBoundScaleTest, HundredThousandComponentsGiveTheExactCeiling) {
  // k = 3j copies of K7 have the integral cover LP 14j; with one more edge
  // it is 14j + 1, and removing one endpoint of that edge gives back 14j.
  // Each of the 10^5 component optima is 14/3, which is not a double:
  // summed in doubles they came to 14j + 6.3e-7, and both bounds were one
  // too high.
  constexpr uint32_t kK7s = 100'002;
  constexpr uint64_t kLp = uint64_t{14} * kK7s / 3;
  const Graph with = Cliques(kK7s, 0, 1);
  const Graph without = with.WithoutNode(with.num_nodes() - 1);
  ASSERT_OK_AND_ASSIGN(const CliqueLpBound a, CliqueLpCoverBound(with, {}));
  ASSERT_OK_AND_ASSIGN(const CliqueLpBound b, CliqueLpCoverBound(without, {}));
  EXPECT_EQ(a.components_solved, kK7s);
  EXPECT_EQ(a.bound, kLp + 1);
  EXPECT_EQ(b.bound, kLp);
  // A K7 that loses a node is a K6: 2/3 less, the same ceiling.
  const Graph k6 = Cliques(kK7s - 1, 1, 0);
  ASSERT_OK_AND_ASSIGN(const CliqueLpBound c, CliqueLpCoverBound(k6, {}));
  EXPECT_EQ(c.bound, kLp);
}

TEST(CliqueLpBoundScaleTest, OneComponentOfThreeHundredThousandNodes) {
  // C_n^2 with n = 3m has the cover LP 2m, which summed in doubles (n
  // values of 1/3) came to 2m + 3.1e-7 and released 2m + 1. With the edge,
  // 2m + 1; the neighbour that closes the edge into a triangle, 2m + 2.
  // (Solved by the interior point method: GLPK's simplex would need hours
  // on this component.)
  constexpr uint32_t kM = 100'000;
  const Graph edge = SquaredCycleAndEdge(3 * kM, /*closed=*/false);
  const Graph triangle = SquaredCycleAndEdge(3 * kM, /*closed=*/true);
  ASSERT_OK_AND_ASSIGN(const CliqueLpBound a, CliqueLpCoverBound(edge, {}));
  ASSERT_OK_AND_ASSIGN(const CliqueLpBound b, CliqueLpCoverBound(triangle, {}));
  EXPECT_EQ(a.largest_component, 3 * kM);
  EXPECT_EQ(a.bound, 2 * kM + 1);
  EXPECT_EQ(b.bound, 2 * kM + 2);
}

}  // namespace
}  // namespace dpq::core::measures
