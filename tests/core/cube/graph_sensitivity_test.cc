#include "core/cube/graph_sensitivity.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::cube {
namespace {

using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::StatusIs;

// Brute force over edge changes D (+1 add, -1 remove, 0 keep) of a graph
// with the given possible edges: D is realisable by G = {D = -1} and
// H = {D = +1} (plus any common edges), the known degrees agree iff every
// known node has net change 0, and G, H are induced neighbours iff no
// non-empty proper part of D keeps the known degrees too. Returns the
// largest |D| (the L1 distance of the adjacency counts) over such D.
int64_t BruteForce(const std::vector<std::pair<int, int>>& edges,
                   const std::vector<bool>& known_out,
                   const std::vector<bool>& known_in) {
  const size_t m = edges.size();
  auto feasible = [&](const std::vector<int>& d) {
    std::vector<int> out(known_out.size(), 0), in(known_in.size(), 0);
    for (size_t e = 0; e < m; ++e) {
      out[edges[e].first] += d[e];
      in[edges[e].second] += d[e];
    }
    for (size_t v = 0; v < out.size(); ++v) {
      if ((known_out[v] && out[v] != 0) || (known_in[v] && in[v] != 0)) {
        return false;
      }
    }
    return true;
  };
  auto minimal = [&](const std::vector<int>& d) {
    std::vector<int> sub(m, 0);
    while (true) {
      size_t i = 0;
      while (i < m && sub[i] == d[i]) sub[i++] = 0;
      if (i == m) return true;
      sub[i] = d[i];
      if (sub != d && feasible(sub)) return false;
    }
  };
  std::vector<int> d(m, -1);
  int64_t best = 0;
  while (true) {
    int64_t size = 0;
    for (int x : d) size += std::abs(x);
    if (size > best && feasible(d) && minimal(d)) best = size;
    size_t i = 0;
    while (i < m && d[i] == 1) d[i++] = -1;
    if (i == m) break;
    ++d[i];
  }
  return best;
}

TEST(GraphSensitivityTest, UndirectedKnownDegreesMatchBruteForce) {
  // Undirected simple graphs without loops on 4 and 5 nodes, the first n
  // nodes' degrees known; same enumeration as BruteForce, with the
  // undirected degree (an edge changes both endpoints' degrees).
  for (int num_nodes : {4, 5}) {
    std::vector<std::pair<int, int>> edges;
    for (int u = 0; u < num_nodes; ++u) {
      for (int v = u + 1; v < num_nodes; ++v) edges.push_back({u, v});
    }
    for (int n = 0; n <= num_nodes; ++n) {
      std::vector<bool> known(num_nodes, false);
      for (int v = 0; v < n; ++v) known[v] = true;
      const size_t m = edges.size();
      auto feasible = [&](const std::vector<int>& d) {
        std::vector<int> deg(num_nodes, 0);
        for (size_t e = 0; e < m; ++e) {
          deg[edges[e].first] += d[e];
          deg[edges[e].second] += d[e];
        }
        for (int v = 0; v < num_nodes; ++v) {
          if (known[v] && deg[v] != 0) return false;
        }
        return true;
      };
      std::vector<int> d(m, -1);
      int64_t best = 0;
      while (true) {
        int64_t size = 0;
        for (int x : d) size += std::abs(x);
        if (size > best && feasible(d)) {
          bool minimal = true;
          std::vector<int> sub(m, 0);
          while (minimal) {
            size_t i = 0;
            while (i < m && sub[i] == d[i]) sub[i++] = 0;
            if (i == m) break;
            sub[i] = d[i];
            if (sub != d && feasible(sub)) minimal = false;
          }
          if (minimal) best = size;
        }
        size_t i = 0;
        while (i < m && d[i] == 1) d[i++] = -1;
        if (i == m) break;
        ++d[i];
      }
      if (n >= 3) {
        // The draft's min(n + 1, |V|) fails on 5 nodes (brute force: 5 for
        // n = 3, 6 for n = 4, 5): we refuse instead.
        if (num_nodes == 5) {
          EXPECT_GT(best, std::min(n + 1, num_nodes));
        }
        EXPECT_THAT(UndirectedKnownDegreeSensitivity(n, num_nodes),
                    StatusIs(absl::StatusCode::kFailedPrecondition,
                             ::testing::HasSubstr("Lemma 5.1(i)")));
        continue;
      }
      ASSERT_OK_AND_ASSIGN(int64_t formula,
                           UndirectedKnownDegreeSensitivity(n, num_nodes));
      EXPECT_EQ(best, formula) << num_nodes << " nodes, " << n << " known";
    }
  }
}

TEST(GraphSensitivityTest, DirectedKnownDegreesMatchBruteForce) {
  // Directed graphs on 3 nodes, self-loops allowed (the table model).
  const int num_nodes = 3;
  std::vector<std::pair<int, int>> arcs;
  for (int u = 0; u < num_nodes; ++u) {
    for (int v = 0; v < num_nodes; ++v) arcs.push_back({u, v});
  }
  for (int n_out = 0; n_out <= num_nodes; ++n_out) {
    for (int n_in = 0; n_in <= num_nodes; ++n_in) {
      std::vector<bool> known_out(num_nodes, false), known_in(num_nodes, false);
      for (int v = 0; v < n_out; ++v) known_out[v] = true;
      for (int v = 0; v < n_in; ++v) known_in[num_nodes - 1 - v] = true;
      ASSERT_OK_AND_ASSIGN(int64_t formula, DirectedKnownDegreeSensitivity(
                                                n_out, n_in, num_nodes));
      EXPECT_EQ(BruteForce(arcs, known_out, known_in), formula)
          << n_out << " out-degrees, " << n_in << " in-degrees known";
    }
  }
}

TEST(GraphSensitivityTest, DraftsDirectedBoundIsTooSmall) {
  // One known out-degree, no in-degree: the draft's 2 min(1, 0) + 1 = 1,
  // but removing (v, a) and adding (v, b) are induced neighbours.
  EXPECT_THAT(DirectedKnownDegreeSensitivity(1, 0, 5), IsOkAndHolds(2));
  EXPECT_THAT(DirectedKnownDegreeSensitivity(0, 0, 5), IsOkAndHolds(1));
  EXPECT_THAT(DirectedKnownDegreeSensitivity(2, 2, 5), IsOkAndHolds(5));
  EXPECT_THAT(DirectedKnownDegreeSensitivity(5, 5, 5), IsOkAndHolds(10));
}

TEST(GraphSensitivityTest, RejectsBadCounts) {
  EXPECT_THAT(UndirectedKnownDegreeSensitivity(6, 5),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("6 of 5")));
  EXPECT_THAT(UndirectedKnownDegreeSensitivity(0, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("nodes")));
  EXPECT_THAT(DirectedKnownDegreeSensitivity(1, -1, 5),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("nodes")));
}

}  // namespace
}  // namespace dpq::core::cube
