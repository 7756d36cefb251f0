// TwinClasses against the definition (equal neighbour lists), pair by pair,
// on graphs full of twins and on graphs with few.
#include "core/graph/twin_classes.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/graph/graph.h"
#include "gtest/gtest.h"
#include "tests/core/private/test_graphs.h"

namespace dpq::core::graph {
namespace {

using private_measures::testing::NamedGraph;

std::vector<NamedGraph> Graphs() {
  std::vector<NamedGraph> graphs =
      private_measures::testing::TwinRichTestGraphs();
  for (NamedGraph& ng : private_measures::testing::RandomTestGraphs()) {
    graphs.push_back(std::move(ng));
  }
  return graphs;
}

// N(u) + u == N(v) + v.
bool ClosedEqual(const Graph& g, NodeId u, NodeId v) {
  std::vector<NodeId> a(g.neighbors(u).begin(), g.neighbors(u).end());
  std::vector<NodeId> b(g.neighbors(v).begin(), g.neighbors(v).end());
  a.push_back(u);
  b.push_back(v);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// Checks `classes` of `nodes` against the definition.
void ExpectTwinClasses(const Graph& g, const std::vector<NodeId>& nodes,
                       const TwinClasses& classes, const std::string& name,
                       Twins twins = Twins::kFalse) {
  std::vector<uint32_t> counted(classes.size(), 0);
  uint32_t next_new = 0;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    const uint32_t c = classes.class_of(i);
    ASSERT_LT(c, classes.size()) << name;
    // Dense ids, numbered by first member.
    if (counted[c] == 0) {
      ASSERT_EQ(c, next_new++) << name;
      ASSERT_EQ(classes.representative(c), nodes[i]) << name;
    }
    ++counted[c];
    for (uint32_t j = 0; j < i; ++j) {
      const bool open = g.neighbors(nodes[j]) == g.neighbors(nodes[i]);
      const bool closed =
          twins == Twins::kFalseAndTrue && ClosedEqual(g, nodes[j], nodes[i]);
      ASSERT_EQ(classes.class_of(j) == c, open || closed)
          << name << " nodes " << nodes[j] << ", " << nodes[i];
      // Members of a clique class are adjacent, of the others not.
      if (classes.class_of(j) == c) {
        ASSERT_EQ(classes.clique(c), closed) << name;
      }
    }
  }
  ASSERT_EQ(next_new, classes.size()) << name;
  for (uint32_t c = 0; c < classes.size(); ++c) {
    ASSERT_EQ(classes.members(c), counted[c]) << name;
    if (classes.members(c) == 1) {
      ASSERT_FALSE(classes.clique(c)) << name;
    }
  }
}

TEST(TwinClassesTest, ClassesAreTheNodesWithEqualNeighbourLists) {
  int with_twins = 0;
  for (const NamedGraph& ng : Graphs()) {
    std::vector<NodeId> all;
    for (NodeId v = 0; v < ng.graph.num_nodes(); ++v) all.push_back(v);
    const TwinClasses classes = TwinClasses::Find(ng.graph, all);
    ExpectTwinClasses(ng.graph, all, classes, ng.name);
    if (classes.size() < all.size()) ++with_twins;
    // A subset in another order (every other node, descending).
    std::vector<NodeId> some;
    for (NodeId v = ng.graph.num_nodes(); v-- > 0;) {
      if (v % 2 == 0) some.push_back(v);
    }
    ExpectTwinClasses(ng.graph, some, TwinClasses::Find(ng.graph, some),
                      ng.name + " (subset)");
  }
  EXPECT_GE(with_twins, 60);
}

// With true twins too: a node never has both kinds (twin_classes.h), so
// the classes still partition the nodes, by the definition of either kind.
TEST(TwinClassesTest, TrueTwinsShareAClassToo) {
  int with_cliques = 0;
  for (const NamedGraph& ng : Graphs()) {
    std::vector<NodeId> all;
    for (NodeId v = 0; v < ng.graph.num_nodes(); ++v) all.push_back(v);
    const TwinClasses classes =
        TwinClasses::Find(ng.graph, all, Twins::kFalseAndTrue);
    ExpectTwinClasses(ng.graph, all, classes, ng.name, Twins::kFalseAndTrue);
    for (uint32_t c = 0; c < classes.size(); ++c) {
      if (classes.clique(c)) {
        ++with_cliques;
        break;
      }
    }
    std::vector<NodeId> some;
    for (NodeId v = ng.graph.num_nodes(); v-- > 0;) {
      if (v % 3 != 1) some.push_back(v);
    }
    ExpectTwinClasses(ng.graph, some,
                      TwinClasses::Find(ng.graph, some, Twins::kFalseAndTrue),
                      ng.name + " (subset)", Twins::kFalseAndTrue);
  }
  EXPECT_GE(with_cliques, 25);
}

TEST(TwinClassesTest, KnownClasses) {
  // K_{2,3}: the two sides are the classes; a star's leaves are one class.
  const Graph k23 =
      *Graph::FromEdges(5, {{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}});
  const TwinClasses classes = TwinClasses::Find(k23, {0, 1, 2, 3, 4});
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes.members(0), 2u);
  EXPECT_EQ(classes.members(1), 3u);
  // A triangle's nodes are true twins (adjacent), not false ones.
  const Graph triangle = *Graph::FromEdges(3, {{0, 1}, {0, 2}, {1, 2}});
  EXPECT_EQ(TwinClasses::Find(triangle, {0, 1, 2}).size(), 3u);
  EXPECT_EQ(TwinClasses::Find(triangle, {}).size(), 0u);
  const TwinClasses closed =
      TwinClasses::Find(triangle, {0, 1, 2}, Twins::kFalseAndTrue);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed.members(0), 3u);
  EXPECT_TRUE(closed.clique(0));
  // A triangle with a pendant node on 0: 1 and 2 are true twins, 0 and 3
  // are alone.
  const Graph paw = *Graph::FromEdges(4, {{0, 1}, {0, 2}, {1, 2}, {0, 3}});
  const TwinClasses paw_classes =
      TwinClasses::Find(paw, {0, 1, 2, 3}, Twins::kFalseAndTrue);
  ASSERT_EQ(paw_classes.size(), 3u);
  EXPECT_EQ(paw_classes.class_of(1), paw_classes.class_of(2));
  EXPECT_TRUE(paw_classes.clique(paw_classes.class_of(1)));
  EXPECT_FALSE(paw_classes.clique(paw_classes.class_of(0)));
}

}  // namespace
}  // namespace dpq::core::graph
