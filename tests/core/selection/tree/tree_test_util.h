// Helpers for the DP-MOET tests: tree validity and small tables.
#ifndef DPQ_TESTS_CORE_SELECTION_TREE_TREE_TEST_UTIL_H_
#define DPQ_TESTS_CORE_SELECTION_TREE_TREE_TEST_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/selection/tree/dp_decision_tree.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gtest/gtest.h"

namespace dpq::core::selection::testing {

// True iff every node is reachable exactly once from the root, inner nodes
// have two valid children and a feature, leaves have none.
inline bool IsValidTree(const DecisionTree& tree) {
  if (tree.nodes.empty()) return false;
  std::vector<int> seen(tree.nodes.size(), 0);
  std::vector<int32_t> stack = {0};
  while (!stack.empty()) {
    const int32_t v = stack.back();
    stack.pop_back();
    if (v < 0 || static_cast<size_t>(v) >= tree.nodes.size()) return false;
    if (seen[v]++ > 0) return false;
    const TreeNode& node = tree.nodes[v];
    if (node.is_leaf) {
      if (node.left != -1 || node.right != -1) return false;
    } else {
      if (node.feature.empty()) return false;
      stack.push_back(node.left);
      stack.push_back(node.right);
    }
  }
  for (int s : seen) {
    if (s != 1) return false;
  }
  return true;
}

inline TreeNode Leaf(bool positive) {
  TreeNode n;
  n.positive = positive;
  return n;
}

// A one-test tree: `feature <= threshold ? left_leaf : right_leaf`.
inline DecisionTree Stump(const std::string& feature, double threshold,
                          bool left_positive, bool right_positive) {
  DecisionTree t;
  TreeNode root;
  root.is_leaf = false;
  root.feature = feature;
  root.threshold = threshold;
  root.left = 1;
  root.right = 2;
  t.nodes = {root, Leaf(left_positive), Leaf(right_positive)};
  return t;
}

// Table with an int64 column `x` and a string column `label` ("yes"/"no").
inline table::Table XLabelTable(const std::vector<std::pair<int, bool>>& rows) {
  auto schema = table::Schema::Create({{"x", table::ColumnType::kInt64},
                                       {"label", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> cells;
  for (const auto& [x, positive] : rows) {
    cells.push_back({std::to_string(x), positive ? "yes" : "no"});
  }
  auto t = table::Table::FromCells(*schema, cells);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

}  // namespace dpq::core::selection::testing

#endif  // DPQ_TESTS_CORE_SELECTION_TREE_TREE_TEST_UTIL_H_
