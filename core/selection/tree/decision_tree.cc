// DecisionTree::ToText and depth() (declared in dp_decision_tree.h).
#include <string>

#include "absl/strings/str_cat.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_operators.h"
#include "core/util/shortest_double.h"

namespace dpq::core::selection {
namespace {

using util::ShortestDouble;

// Single-quoted, with ' and \ escaped, so the text form is unambiguous.
std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

void AppendText(const DecisionTree& tree, int32_t v, std::string& out) {
  const TreeNode& node = tree.nodes[v];
  if (node.is_leaf) {
    out.push_back(node.positive ? '+' : '-');
    return;
  }
  absl::StrAppend(
      &out, "(", node.feature, node.numeric_test ? "<=" : "==",
      node.numeric_test ? ShortestDouble(node.threshold) : Quote(node.category),
      " ? ");
  AppendText(tree, node.left, out);
  out.append(" : ");
  AppendText(tree, node.right, out);
  out.push_back(')');
}

}  // namespace

std::string DecisionTree::ToText() const {
  if (nodes.empty()) return "";
  std::string out;
  AppendText(*this, 0, out);
  return out;
}

int DecisionTree::depth() const {
  const int levels = TreeLevels(*this);
  return levels == 0 ? 0 : levels - 1;
}

}  // namespace dpq::core::selection
