#include "core/measures/double_cover_matching.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "absl/types/span.h"
#include "core/graph/graph.h"
#include "gtest/gtest.h"
#include "tests/core/measures/brute_force.h"

namespace dpq::core::measures::internal {
namespace {

using graph::Edge;
using graph::Graph;
using graph::NodeId;

bool Active(absl::Span<const uint8_t> active, NodeId v) {
  return active.empty() || active[v] != 0;
}

// Kuhn's algorithm with every mark cleared before each root: slow and
// plainly maximum. The size of a maximum matching of the double cover of
// the subgraph the active nodes induce.
uint64_t ReferenceMatchingSize(const Graph& g,
                               absl::Span<const uint8_t> active) {
  const uint32_t n = g.num_nodes();
  std::vector<NodeId> mate_right(n, kNoMate);
  std::vector<uint8_t> seen(n);
  // Recursive: the reference graphs are small.
  auto augment = [&](auto& self, NodeId u) -> bool {
    for (NodeId v : g.neighbors(u)) {
      if (!Active(active, v) || seen[v]) continue;
      seen[v] = 1;
      if (mate_right[v] == kNoMate || self(self, mate_right[v])) {
        mate_right[v] = u;
        return true;
      }
    }
    return false;
  };
  uint64_t size = 0;
  for (NodeId u = 0; u < n; ++u) {
    if (!Active(active, u)) continue;
    seen.assign(n, 0);
    size += augment(augment, u);
  }
  return size;
}

// Koenig's set Z of `mate_left` by breadth-first search: the left copies
// reachable from the free active ones, any edge left to right, the
// matching back.
std::vector<uint8_t> ReachedFromFreeCopies(
    const Graph& g, absl::Span<const uint8_t> active,
    const std::vector<NodeId>& mate_left) {
  const uint32_t n = g.num_nodes();
  std::vector<NodeId> mate_right(n, kNoMate);
  for (NodeId u = 0; u < n; ++u) {
    if (mate_left[u] != kNoMate) mate_right[mate_left[u]] = u;
  }
  std::vector<uint8_t> reached(n, 0);
  std::vector<NodeId> queue;
  for (NodeId u = 0; u < n; ++u) {
    if (Active(active, u) && mate_left[u] == kNoMate) {
      reached[u] = 1;
      queue.push_back(u);
    }
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    for (NodeId v : g.neighbors(queue[head])) {
      if (!Active(active, v)) continue;
      const NodeId w = mate_right[v];
      if (w != kNoMate && !reached[w]) {
        reached[w] = 1;
        queue.push_back(w);
      }
    }
  }
  return reached;
}

// The size of the greedy matching the searches start from (each active
// left copy takes its first free right neighbour).
uint64_t GreedyMatchingSize(const Graph& g, absl::Span<const uint8_t> active) {
  std::vector<uint8_t> taken(g.num_nodes(), 0);
  uint64_t size = 0;
  for (NodeId u = 0; u < g.num_nodes(); ++u) {
    if (!Active(active, u)) continue;
    for (NodeId v : g.neighbors(u)) {
      if (Active(active, v) && !taken[v]) {
        taken[v] = 1;
        ++size;
        break;
      }
    }
  }
  return size;
}

// The matching of every path (searches only; Hopcroft-Karp from the first
// success on) is a valid maximum matching of the active subgraph's double
// cover, and `reached` is its Koenig set. Returns whether the greedy start
// was short of the maximum: only then do the searches augment, and with a
// work cap of 0 Hopcroft-Karp finishes.
bool ExpectMaximumWithKoenigSet(const Graph& g,
                                absl::Span<const uint8_t> active, bool closed) {
  const uint64_t maximum = ReferenceMatchingSize(g, active);
  std::vector<uint8_t> first_reached;
  for (uint64_t work_per_edge : {kSearchWorkPerEdge, uint64_t{0}}) {
    SCOPED_TRACE(::testing::Message() << "work per edge " << work_per_edge);
    std::vector<uint8_t> reached;
    const std::vector<NodeId> mate = DoubleCoverMatching(
        g.num_nodes(), [&g](NodeId u) { return g.neighbors(u); }, active,
        &reached, closed, work_per_edge);
    std::vector<uint8_t> right_used(g.num_nodes(), 0);
    uint64_t size = 0;
    for (NodeId u = 0; u < g.num_nodes(); ++u) {
      if (mate[u] == kNoMate) continue;
      ++size;
      EXPECT_TRUE(Active(active, u) && Active(active, mate[u])) << u;
      const absl::Span<const NodeId> nu = g.neighbors(u);
      EXPECT_TRUE(std::binary_search(nu.begin(), nu.end(), mate[u]))
          << u << "-" << mate[u];
      EXPECT_FALSE(right_used[mate[u]]) << "right copy " << mate[u];
      right_used[mate[u]] = 1;
    }
    EXPECT_EQ(size, maximum);
    EXPECT_EQ(reached, ReachedFromFreeCopies(g, active, mate));
    // Z is the same for every maximum matching.
    if (first_reached.empty()) {
      first_reached = reached;
    } else {
      EXPECT_EQ(reached, first_reached);
    }
  }
  return GreedyMatchingSize(g, active) < maximum;
}

TEST(DoubleCoverMatchingTest, MaximumWithKoenigSetOnRandomGraphs) {
  std::mt19937_64 rng(20261128);
  int augmented = 0;
  for (uint32_t n : {1u, 2u, 5u, 9u, 16u, 40u}) {
    for (double p : {0.05, 0.15, 0.3, 0.6, 0.9}) {
      for (int trial = 0; trial < 6; ++trial) {
        SCOPED_TRACE(::testing::Message()
                     << "n=" << n << " p=" << p << " trial=" << trial);
        const Graph g = brute_force::RandomGraph(n, p, rng);
        augmented += ExpectMaximumWithKoenigSet(g, {}, false);
        // An arbitrary active subset: neighbours are checked.
        std::vector<uint8_t> some(n);
        for (uint8_t& a : some) a = rng() % 3 != 0;
        augmented += ExpectMaximumWithKoenigSet(g, some, false);
      }
    }
  }
  // The searches and Hopcroft-Karp both had work to do.
  EXPECT_GE(augmented, 20);
}

// Graphs of the conflict kind: overlapping complete multipartite blocks
// (many free copies that no search can augment), sparse random graphs
// (long alternating paths) and odd cycles; and active sets that are unions
// of components (`closed`).
TEST(DoubleCoverMatchingTest, MaximumWithKoenigSetOnStructuredGraphs) {
  std::mt19937_64 rng(20261129);
  int augmented = 0;
  for (int trial = 0; trial < 12; ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial=" << trial);
    std::vector<Edge> edges;
    NodeId next = 0;
    for (int block = 0; block < 8; ++block) {
      std::vector<uint32_t> parts(1 + rng() % 4);
      for (uint32_t& p : parts) p = 1 + rng() % 5;
      brute_force::AddCompleteMultipartite(parts, next, edges);
      for (uint32_t p : parts) next += p;
    }
    // Odd cycles, then random edges across everything.
    for (uint32_t length : {3u, 5u, 7u}) {
      for (uint32_t i = 0; i < length; ++i) {
        edges.emplace_back(next + i, next + (i + 1) % length);
      }
      next += length;
    }
    const uint32_t n = next + 30;
    for (int e = 0; e < 40; ++e) {
      const NodeId u = rng() % n;
      const NodeId v = rng() % n;
      if (u != v) edges.emplace_back(u, v);
    }
    const Graph g = *Graph::FromEdges(n, edges);
    augmented += ExpectMaximumWithKoenigSet(g, {}, false);
    // Every other component, found by a plain search.
    std::vector<uint8_t> active(n, 0);
    std::vector<uint8_t> seen(n, 0);
    bool take = true;
    for (NodeId start = 0; start < n; ++start) {
      if (seen[start]) continue;
      std::vector<NodeId> queue = {start};
      seen[start] = 1;
      for (size_t head = 0; head < queue.size(); ++head) {
        for (NodeId w : g.neighbors(queue[head])) {
          if (!seen[w]) {
            seen[w] = 1;
            queue.push_back(w);
          }
        }
      }
      for (NodeId v : queue) active[v] = take;
      take = !take;
    }
    augmented += ExpectMaximumWithKoenigSet(g, active, true);
  }
  EXPECT_GE(augmented, 6);
}

// Long augmenting paths: a path graph numbered so that the greedy matching
// leaves most copies free and searches must walk far.
TEST(DoubleCoverMatchingTest, LongAlternatingPaths) {
  for (uint32_t n : {2u, 3u, 101u, 2000u}) {
    std::vector<Edge> edges;
    for (NodeId i = 0; i + 1 < n; ++i) {
      // Interleaved ids: consecutive path nodes are far apart.
      const NodeId a = i % 2 == 0 ? i / 2 : n - 1 - i / 2;
      const NodeId b = (i + 1) % 2 == 0 ? (i + 1) / 2 : n - 1 - (i + 1) / 2;
      edges.emplace_back(a, b);
    }
    SCOPED_TRACE(::testing::Message() << "n=" << n);
    ExpectMaximumWithKoenigSet(*Graph::FromEdges(n, edges), {}, false);
  }
}

}  // namespace
}  // namespace dpq::core::measures::internal
