#include "core/selection/tree/tree_operators.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace dpq::core::selection {
namespace {

bool RandomBit(dp::SecureUrbg& urbg) { return urbg.UniformBelow(2) == 1; }

TreeNode RandomLeaf(dp::SecureUrbg& urbg) {
  TreeNode leaf;
  leaf.positive = RandomBit(urbg);
  return leaf;
}

TreeNode RandomTest(const std::vector<FeatureDomain>& features,
                    dp::SecureUrbg& urbg) {
  const FeatureDomain& f = features[urbg.UniformBelow(features.size())];
  TreeNode node;
  node.is_leaf = false;
  node.feature = f.name;
  node.numeric_test = f.numeric;
  if (f.numeric && !f.thresholds.empty()) {
    node.threshold = f.thresholds[urbg.UniformBelow(f.thresholds.size())];
  } else if (f.numeric) {
    // Convex combination: no overflow even for a domain of +-1e308.
    const double u = urbg.UniformDouble();
    node.threshold = f.min * (1 - u) + f.max * u;
  } else {
    node.category = f.categories[urbg.UniformBelow(f.categories.size())];
  }
  return node;
}

// Appends a random full tree of `levels` levels to `out` in pre-order and
// returns the index of its root.
int32_t AppendRandom(const std::vector<FeatureDomain>& features, int levels,
                     dp::SecureUrbg& urbg, std::vector<TreeNode>& out) {
  const int32_t index = static_cast<int32_t>(out.size());
  if (levels <= 1) {
    out.push_back(RandomLeaf(urbg));
    return index;
  }
  out.push_back(RandomTest(features, urbg));
  const int32_t left = AppendRandom(features, levels - 1, urbg, out);
  const int32_t right = AppendRandom(features, levels - 1, urbg, out);
  out[index].left = left;
  out[index].right = right;
  return index;
}

// Copies the subtree of `src` at `root` into `out`, replacing the node
// `target` (when met) by the subtree of `donor` at `donor_root`.
int32_t AppendCopy(const DecisionTree& src, int32_t root, int32_t target,
                   const DecisionTree* donor, int32_t donor_root,
                   std::vector<TreeNode>& out) {
  if (root == target && donor != nullptr) {
    return AppendCopy(*donor, donor_root, -1, nullptr, -1, out);
  }
  const int32_t index = static_cast<int32_t>(out.size());
  out.push_back(src.nodes[root]);
  if (!src.nodes[root].is_leaf) {
    const int32_t left =
        AppendCopy(src, src.nodes[root].left, target, donor, donor_root, out);
    const int32_t right =
        AppendCopy(src, src.nodes[root].right, target, donor, donor_root, out);
    out[index].left = left;
    out[index].right = right;
  }
  return index;
}

// Level of every node (root = 1).
std::vector<int> NodeLevels(const DecisionTree& tree) {
  std::vector<int> levels(tree.nodes.size(), 0);
  if (tree.nodes.empty()) return levels;
  std::vector<int32_t> stack = {0};
  levels[0] = 1;
  while (!stack.empty()) {
    const int32_t v = stack.back();
    stack.pop_back();
    const TreeNode& node = tree.nodes[v];
    if (node.is_leaf) continue;
    levels[node.left] = levels[v] + 1;
    levels[node.right] = levels[v] + 1;
    stack.push_back(node.left);
    stack.push_back(node.right);
  }
  return levels;
}

}  // namespace

int TreeLevels(const DecisionTree& tree) {
  const std::vector<int> levels = NodeLevels(tree);
  return levels.empty() ? 0 : *std::max_element(levels.begin(), levels.end());
}

DecisionTree RandomTree(const std::vector<FeatureDomain>& features, int levels,
                        dp::SecureUrbg& urbg) {
  DecisionTree tree;
  AppendRandom(features, levels, urbg, tree.nodes);
  return tree;
}

DecisionTree ReplaceSubtree(const DecisionTree& tree, int32_t target,
                            const DecisionTree& donor, int32_t donor_root) {
  DecisionTree out;
  out.nodes.reserve(tree.nodes.size() + donor.nodes.size());
  AppendCopy(tree, 0, target, &donor, donor_root, out.nodes);
  return out;
}

void Crossover(DecisionTree& a, DecisionTree& b, dp::SecureUrbg& urbg) {
  // Uniform node choice; the artifact's size-weighted descent is only
  // roughly uniform (docs/selection-experiments.md, "crossover point"),
  // and the choice is data-independent either
  // way.
  const auto ia = static_cast<int32_t>(urbg.UniformBelow(a.nodes.size()));
  const auto ib = static_cast<int32_t>(urbg.UniformBelow(b.nodes.size()));
  DecisionTree new_a = ReplaceSubtree(a, ia, b, ib);
  DecisionTree new_b = ReplaceSubtree(b, ib, a, ia);
  a = std::move(new_a);
  b = std::move(new_b);
}

void Mutate(DecisionTree& tree, const std::vector<FeatureDomain>& features,
            int max_levels, dp::SecureUrbg& urbg) {
  const std::vector<int> levels = NodeLevels(tree);
  const auto target = static_cast<int32_t>(urbg.UniformBelow(levels.size()));
  const int current = *std::max_element(levels.begin(), levels.end());
  const int sub_levels =
      std::max(1, std::min(current, max_levels) - levels[target] + 1);
  const DecisionTree replacement = RandomTree(features, sub_levels, urbg);
  tree = ReplaceSubtree(tree, target, replacement, 0);
}

void Prune(DecisionTree& tree, int max_levels, dp::SecureUrbg& urbg) {
  if (TreeLevels(tree) <= max_levels) return;
  const std::vector<int> levels = NodeLevels(tree);
  // Turn the inner nodes at the last allowed level into random leaves,
  // then copy what is still reachable.
  for (size_t v = 0; v < tree.nodes.size(); ++v) {
    if (levels[v] == max_levels && !tree.nodes[v].is_leaf) {
      tree.nodes[v] = RandomLeaf(urbg);
    }
  }
  DecisionTree out;
  AppendCopy(tree, 0, -1, nullptr, -1, out.nodes);
  tree = std::move(out);
}

}  // namespace dpq::core::selection
