// TwinClasses against the definition (equal neighbour lists), pair by pair,
// on graphs full of twins and on graphs with few.
#include "core/graph/twin_classes.h"

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

// Checks `classes` of `nodes` against the definition.
void ExpectTwinClasses(const Graph& g, const std::vector<NodeId>& nodes,
                       const TwinClasses& classes, const std::string& name) {
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
      ASSERT_EQ(classes.class_of(j) == c,
                g.neighbors(nodes[j]) == g.neighbors(nodes[i]))
          << name << " nodes " << nodes[j] << ", " << nodes[i];
    }
  }
  ASSERT_EQ(next_new, classes.size()) << name;
  for (uint32_t c = 0; c < classes.size(); ++c) {
    ASSERT_EQ(classes.members(c), counted[c]) << name;
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
}

}  // namespace
}  // namespace dpq::core::graph
