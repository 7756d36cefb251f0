#include "core/selection/nodes/influential_nodes.h"

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/selection/nodes/edge_list.h"
#include "core/selection/nodes/node_selection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

// A hub "h" joined to 8 leaves, a 4-clique {a, b, c, d}, a path p-q.
LabeledGraph TestGraph() {
  std::string text;
  for (int i = 0; i < 8; ++i) text += "h,l" + std::to_string(i) + "\n";
  text += "a,b\na,c\na,d\nb,c\nb,d\nc,d\np,q\n";
  return *ParseEdgeList(text);
}

InfluentialNodesRequest Request(size_t k) {
  InfluentialNodesRequest r;
  r.k = k;
  r.selection.epsilon = 1;
  return r;
}

TEST(InfluentialNodesTest, ObjectiveNames) {
  EXPECT_THAT(ParseNodeObjective("Degree"),
              ::dpq::testing::IsOkAndHolds(NodeObjective::kDegree));
  EXPECT_THAT(ParseNodeObjective("egodensity"),
              ::dpq::testing::IsOkAndHolds(NodeObjective::kEgocentricDensity));
  EXPECT_EQ(NodeObjectiveName(NodeObjective::kEgocentricDensity),
            "egocentric_density");
  EXPECT_THAT(
      ParseNodeObjective("pagerank").status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("pagerank")));
}

TEST(InfluentialNodesTest, NonPrivateTopK) {
  const LabeledGraph g = TestGraph();
  const ScoreTable scores = NodeScoreTable(
      g.graph, {NodeObjective::kDegree, NodeObjective::kEgocentricDensity});
  // Agg with weights (1, 100): clique members 3 + 100 = 103 beat h (8).
  auto agg = NonPrivateTopNodes(scores, Approach::kAggregation, {1, 100}, 5);
  ASSERT_TRUE(agg.ok());
  std::vector<std::string> labels;
  for (size_t v : *agg) labels.push_back(g.labels[v]);
  EXPECT_THAT(labels, UnorderedElementsAre("a", "b", "c", "d", "h"));
  // Pareto: h (max degree) and the clique (density 1, degree 3) are not
  // dominated by anybody else; ties between clique members cost 3 each.
  auto pareto = NonPrivateTopNodes(scores, Approach::kPareto, {}, 1);
  ASSERT_TRUE(pareto.ok());
  EXPECT_EQ(g.labels[pareto->front()], "h");
  EXPECT_THAT(NonPrivateTopNodes(scores, Approach::kPareto, {}, 100).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
}

TEST(InfluentialNodesTest, HugeEpsilonFindsTheTrueTopK) {
  const LabeledGraph g = TestGraph();
  for (SensitivityMode mode :
       {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
    InfluentialNodesRequest r = Request(5);
    r.selection.approach = Approach::kAggregation;
    r.selection.weights = {1, 100};
    r.selection.sensitivity = mode;
    r.selection.epsilon = 1e5;
    SeededUrbg urbg(1);
    auto result = SelectInfluentialNodes(g, r, urbg);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_THAT(result->nodes, UnorderedElementsAre("a", "b", "c", "d", "h"));
    EXPECT_DOUBLE_EQ(result->epsilon_spent, 1e5);
  }
}

TEST(InfluentialNodesTest, EveryVariantReturnsKDistinctNodesDeterministically) {
  const LabeledGraph g = TestGraph();
  for (Approach approach : {Approach::kPareto, Approach::kAggregation}) {
    for (SensitivityMode mode :
         {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
      InfluentialNodesRequest r = Request(3);
      r.selection.approach = approach;
      r.selection.sensitivity = mode;
      if (approach == Approach::kAggregation) r.selection.weights = {1, 100};
      SeededUrbg a(9), b(9);
      auto first = SelectInfluentialNodes(g, r, a);
      auto second = SelectInfluentialNodes(g, r, b);
      ASSERT_TRUE(first.ok()) << first.status();
      ASSERT_TRUE(second.ok());
      EXPECT_EQ(first->nodes, second->nodes);
      ASSERT_EQ(first->nodes.size(), 3u);
      EXPECT_NE(first->nodes[0], first->nodes[1]);
      EXPECT_NE(first->nodes[1], first->nodes[2]);
      EXPECT_NE(first->nodes[0], first->nodes[2]);
    }
  }
}

TEST(InfluentialNodesTest, RejectsBadInput) {
  const LabeledGraph g = TestGraph();
  SeededUrbg urbg(1);
  EXPECT_THAT(SelectInfluentialNodes(g, Request(0), urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
  EXPECT_THAT(
      SelectInfluentialNodes(g, Request(20), urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node count")));
  for (double eps : {0.0, -2.0, std::numeric_limits<double>::quiet_NaN()}) {
    InfluentialNodesRequest r = Request(2);
    r.selection.epsilon = eps;
    EXPECT_THAT(
        SelectInfluentialNodes(g, r, urbg).status(),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Epsilon")));
  }
  InfluentialNodesRequest r = Request(2);
  r.selection.approach = Approach::kAggregation;
  r.selection.weights = {1};
  EXPECT_THAT(SelectInfluentialNodes(g, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("one weight per objective")));
  r.objectives = {NodeObjective::kDegree};
  r.selection.weights = {1, 2};
  EXPECT_THAT(SelectInfluentialNodes(g, r, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("one weight per objective")));
}

// The two phases compose to SelectInfluentialNodes: same seed, same nodes.
TEST(InfluentialNodesTest, PrepareThenDrawEqualsSelect) {
  const LabeledGraph g = TestGraph();
  for (SensitivityMode mode :
       {SensitivityMode::kGlobal, SensitivityMode::kLocal}) {
    InfluentialNodesRequest r = Request(3);
    r.selection.sensitivity = mode;
    auto scores = PrepareInfluentialNodeScores(g, r);
    ASSERT_TRUE(scores.ok()) << scores.status();
    SeededUrbg a(7), b(7);
    auto drawn = DrawInfluentialNodes(g, **scores, 3, 1, a);
    auto selected = SelectInfluentialNodes(g, r, b);
    ASSERT_TRUE(drawn.ok() && selected.ok());
    EXPECT_EQ(drawn->nodes, selected->nodes);
    EXPECT_DOUBLE_EQ(drawn->epsilon_spent, 1);
  }
}

// Neither k nor epsilon enters the scores (what makes caching them safe);
// the draws from one set of scores stay random.
TEST(InfluentialNodesTest, ScoresIgnoreKAndEpsilonAndDrawsVary) {
  const LabeledGraph g = TestGraph();
  InfluentialNodesRequest r = Request(1);
  r.selection.sensitivity = SensitivityMode::kLocal;
  auto first = PrepareInfluentialNodeScores(g, r);
  r.k = 5;
  r.selection.epsilon = 1e3;
  auto second = PrepareInfluentialNodeScores(g, r);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ((*first)->selection.scores, (*second)->selection.scores);
  EXPECT_EQ((*first)->selection.sensitivity, (*second)->selection.sensitivity);
  EXPECT_EQ((*first)->num_nodes, g.graph.num_nodes());
  // 15 nodes at epsilon = 0.01: nearly uniform; with the fixed seed the
  // 30 draws are deterministic and not all equal.
  std::set<std::string> drawn;
  SeededUrbg urbg(3);
  for (int i = 0; i < 30; ++i) {
    auto result = DrawInfluentialNodes(g, **first, 1, 0.01, urbg);
    ASSERT_TRUE(result.ok()) << result.status();
    drawn.insert(result->nodes.front());
  }
  EXPECT_GT(drawn.size(), 1u);
}

TEST(InfluentialNodesTest, DrawRejectsBadInput) {
  const LabeledGraph g = TestGraph();
  auto scores = PrepareInfluentialNodeScores(g, Request(1));
  ASSERT_TRUE(scores.ok());
  SeededUrbg urbg(1);
  EXPECT_THAT(DrawInfluentialNodes(g, **scores, 0, 1, urbg).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("k")));
  EXPECT_THAT(
      DrawInfluentialNodes(g, **scores, 16, 1, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("node count")));
  EXPECT_THAT(
      DrawInfluentialNodes(g, **scores, 1, -1, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Epsilon")));
  const LabeledGraph small = *ParseEdgeList("x,y\n");
  EXPECT_THAT(
      DrawInfluentialNodes(small, **scores, 1, 1, urbg).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("another graph")));
}

}  // namespace
}  // namespace dpq::core::selection
