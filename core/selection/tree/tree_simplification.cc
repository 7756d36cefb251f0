// SimplifyTree (tree_simplification.h).
#include "core/selection/tree/tree_simplification.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace dpq::core::selection {
namespace {

// What the path from the root implies about one feature. Every test sends
// NULL right, and a test of a kind that does not match the column sends
// every row right; both keep these facts true on the rows that reach a
// node (a left branch no row can take makes its facts vacuous).
struct FeatureFacts {
  std::optional<std::string> equals;           // value == *equals
  absl::flat_hash_set<std::string> not_equal;  // value != c (or NULL)
  std::optional<double> upper;                 // value non-NULL and <= *upper
  std::optional<double> lower;                 // value > *lower or NULL
};

using PathFacts = absl::flat_hash_map<std::string, FeatureFacts>;

// Which branch `node` takes on every row satisfying `facts`, if fixed.
std::optional<bool> DecidedLeft(const TreeNode& node, const PathFacts& facts) {
  const auto it = facts.find(node.feature);
  if (it == facts.end()) return std::nullopt;
  const FeatureFacts& f = it->second;
  if (node.numeric_test) {
    // value <= upper <= t: left. value > lower >= t or NULL: right. NaN
    // thresholds compare false and decide nothing.
    if (f.upper.has_value() && *f.upper <= node.threshold) return true;
    if (f.lower.has_value() && node.threshold <= *f.lower) return false;
    return std::nullopt;
  }
  if (f.equals.has_value()) return *f.equals == node.category;
  if (f.not_equal.contains(node.category)) return false;
  return std::nullopt;
}

// The facts after taking branch `left` of `node`.
void AddFact(const TreeNode& node, bool left, FeatureFacts& f) {
  if (node.numeric_test) {
    if (std::isnan(node.threshold)) return;  // no row goes left; no bound
    if (left) {
      f.upper = f.upper.has_value() ? std::min(*f.upper, node.threshold)
                                    : node.threshold;
    } else {
      f.lower = f.lower.has_value() ? std::max(*f.lower, node.threshold)
                                    : node.threshold;
    }
  } else if (left) {
    f.equals = node.category;
  } else {
    f.not_equal.insert(node.category);
  }
}

class Simplifier {
 public:
  explicit Simplifier(const DecisionTree& tree) : tree_(tree) {}

  DecisionTree Run() {
    DecisionTree out;
    if (tree_.nodes.empty()) return out;
    nodes_.reserve(tree_.nodes.size());
    Emit(0);
    out.nodes = std::move(nodes_);
    return out;
  }

 private:
  // Appends the simplified subtree of source node v in pre-order; returns
  // its index.
  int32_t Emit(int32_t v) {
    // Skip decided tests: no node is emitted for them.
    while (!tree_.nodes[v].is_leaf) {
      const std::optional<bool> left = DecidedLeft(tree_.nodes[v], facts_);
      if (!left.has_value()) break;
      v = *left ? tree_.nodes[v].left : tree_.nodes[v].right;
    }
    const TreeNode& node = tree_.nodes[v];
    const int32_t self = static_cast<int32_t>(nodes_.size());
    nodes_.push_back(node);
    if (node.is_leaf) return self;
    const int32_t left = EmitBranch(node, true);
    const int32_t right = EmitBranch(node, false);
    const TreeNode& l = nodes_[left];
    const TreeNode& r = nodes_[right];
    if (l.is_leaf && r.is_leaf && l.positive == r.positive) {
      // Both children are the two nodes just after `self`: drop them.
      TreeNode leaf;
      leaf.positive = l.positive;
      nodes_.resize(self);
      nodes_.push_back(std::move(leaf));
      return self;
    }
    nodes_[self].left = left;
    nodes_[self].right = right;
    return self;
  }

  // Emits one child of `node` with the branch's fact added to the path,
  // restoring the feature's facts afterwards.
  int32_t EmitBranch(const TreeNode& node, bool left) {
    FeatureFacts& f = facts_[node.feature];
    const FeatureFacts saved = f;
    AddFact(node, left, f);
    const int32_t child = Emit(left ? node.left : node.right);
    facts_[node.feature] = saved;  // `f` may dangle after a rehash
    return child;
  }

  const DecisionTree& tree_;
  std::vector<TreeNode> nodes_;
  PathFacts facts_;
};

}  // namespace

DecisionTree SimplifyTree(const DecisionTree& tree) {
  return Simplifier(tree).Run();
}

}  // namespace dpq::core::selection
