#include "core/selection/tree/tree_operators.h"

#include <cmath>
#include <vector>

#include "core/selection/tree/dp_decision_tree.h"
#include "gtest/gtest.h"
#include "tests/core/selection/tree/tree_test_util.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::core::selection {
namespace {

using ::dpq::core::selection::testing::IsValidTree;
using ::dpq::core::selection::testing::Leaf;
using ::dpq::core::selection::testing::Stump;

std::vector<FeatureDomain> Features() {
  FeatureDomain age{"age", true, 17, 90, {}};
  FeatureDomain sex{"sex", false, 0, 0, {"Female", "Male"}};
  return {age, sex};
}

size_t CountLeaves(const DecisionTree& t) {
  size_t leaves = 0;
  for (const TreeNode& n : t.nodes) leaves += n.is_leaf ? 1 : 0;
  return leaves;
}

// With public thresholds, a random numeric test draws only from them.
TEST(TreeOperatorsTest, RandomTestsDrawThresholdsFromTheGrid) {
  FeatureDomain age{"age", true, 17, 90, {}, {25, 40, 65}};
  dpq::testing::SeededUrbg urbg(3);
  for (int i = 0; i < 50; ++i) {
    const DecisionTree t = RandomTree({age}, 4, urbg);
    for (const TreeNode& n : t.nodes) {
      if (n.is_leaf) continue;
      EXPECT_TRUE(n.threshold == 25 || n.threshold == 40 || n.threshold == 65)
          << n.threshold;
    }
  }
}

TEST(TreeOperatorsTest, RandomTreeIsFullWithAllLeavesAtTheLastLevel) {
  dpq::testing::SeededUrbg urbg(1);
  for (int levels = 1; levels <= 6; ++levels) {
    const DecisionTree t = RandomTree(Features(), levels, urbg);
    ASSERT_TRUE(IsValidTree(t));
    EXPECT_EQ(TreeLevels(t), levels);
    EXPECT_EQ(t.depth(), levels - 1);
    EXPECT_EQ(CountLeaves(t), size_t{1} << (levels - 1));
    EXPECT_EQ(t.nodes.size(), (size_t{1} << levels) - 1);
    for (const TreeNode& n : t.nodes) {
      if (n.is_leaf) continue;
      if (n.numeric_test) {
        EXPECT_EQ(n.feature, "age");
        EXPECT_GE(n.threshold, 17);
        EXPECT_LE(n.threshold, 90);
      } else {
        EXPECT_EQ(n.feature, "sex");
        EXPECT_TRUE(n.category == "Female" || n.category == "Male");
      }
    }
  }
}

TEST(TreeOperatorsTest, CrossoverConservesNodesAndValidity) {
  dpq::testing::SeededUrbg urbg(2);
  for (int i = 0; i < 200; ++i) {
    DecisionTree a = RandomTree(Features(), 1 + i % 5, urbg);
    DecisionTree b = RandomTree(Features(), 1 + (i / 5) % 5, urbg);
    const size_t total = a.nodes.size() + b.nodes.size();
    Crossover(a, b, urbg);
    ASSERT_TRUE(IsValidTree(a));
    ASSERT_TRUE(IsValidTree(b));
    EXPECT_EQ(a.nodes.size() + b.nodes.size(), total);
  }
}

TEST(TreeOperatorsTest, MutationKeepsTreesValidAndWithinMaxLevels) {
  dpq::testing::SeededUrbg urbg(3);
  for (int max_levels = 1; max_levels <= 6; ++max_levels) {
    for (int i = 0; i < 50; ++i) {
      DecisionTree t = RandomTree(Features(), 1 + i % max_levels, urbg);
      Mutate(t, Features(), max_levels, urbg);
      ASSERT_TRUE(IsValidTree(t));
      EXPECT_LE(TreeLevels(t), max_levels);
    }
  }
}

TEST(TreeOperatorsTest, PruneCutsToMaxLevels) {
  dpq::testing::SeededUrbg urbg(4);
  for (int max_levels = 1; max_levels <= 5; ++max_levels) {
    DecisionTree t = RandomTree(Features(), 7, urbg);
    Prune(t, max_levels, urbg);
    ASSERT_TRUE(IsValidTree(t));
    EXPECT_EQ(TreeLevels(t), max_levels);
    EXPECT_EQ(CountLeaves(t), size_t{1} << (max_levels - 1));
  }
  // A tree within the limit is left alone.
  DecisionTree small = Stump("age", 30, true, false);
  const std::string before = small.ToText();
  Prune(small, 2, urbg);
  EXPECT_EQ(small.ToText(), before);
}

TEST(TreeOperatorsTest, ReplaceSubtreeSwapsTheChosenNode) {
  const DecisionTree t = Stump("age", 30, true, false);
  DecisionTree leaf;
  leaf.nodes = {Leaf(true)};
  EXPECT_EQ(ReplaceSubtree(t, 2, leaf, 0).ToText(), "(age<=30 ? + : +)");
  EXPECT_EQ(ReplaceSubtree(t, 0, leaf, 0).ToText(), "+");
  EXPECT_EQ(ReplaceSubtree(leaf, 0, t, 0).ToText(), "(age<=30 ? + : -)");
}

TEST(TreeOperatorsTest, ToTextQuotesCategories) {
  DecisionTree t = Stump("age", 37.5, true, false);
  TreeNode inner;
  inner.is_leaf = false;
  inner.feature = "sex";
  inner.numeric_test = false;
  inner.category = "it's";
  inner.left = 3;
  inner.right = 4;
  t.nodes[1] = inner;
  t.nodes.push_back(Leaf(true));
  t.nodes.push_back(Leaf(false));
  EXPECT_EQ(t.ToText(), "(age<=37.5 ? (sex=='it\\'s' ? + : -) : -)");
  EXPECT_EQ(t.depth(), 2);
  EXPECT_EQ(DecisionTree{}.ToText(), "");
}

}  // namespace
}  // namespace dpq::core::selection
