// Prediction-preserving simplification of a decision tree: pure post-
// processing of a released tree (no privacy cost: docs/privacy.md 3.1;
// docs/selection.md, "DP-MOET trees are simplified before release").
// DP-MOET's random trees often repeat tests that the path already decides,
// e.g. "(c=='a' ? (c=='b' ? x : y) : z)" where c=='b' is always false.
#ifndef DPQ_CORE_SELECTION_TREE_TREE_SIMPLIFICATION_H_
#define DPQ_CORE_SELECTION_TREE_TREE_SIMPLIFICATION_H_

#include "core/selection/tree/dp_decision_tree.h"

namespace dpq::core::selection {

// A tree that predicts the same class as `tree` on every row and has no
// more nodes. (1) A test whose outcome the path to it implies is replaced
// by the subtree of the branch taken: per feature, a left `== c` branch
// fixes the value to c and a right one excludes c; a left `<= t` branch
// gives a non-NULL upper bound t and a right one "> t or NULL". Category
// facts only decide category tests and numeric facts numeric tests (a
// test of the other kind on the same feature is never decided). (2) An
// inner node whose two children are leaves with the same prediction
// becomes that leaf, bottom-up. Nodes are renumbered in pre-order (root
// 0, then the left subtree, then the right one). Empty in, empty out.
DecisionTree SimplifyTree(const DecisionTree& tree);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_SIMPLIFICATION_H_
