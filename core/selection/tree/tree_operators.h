// Data-independent operators of the DP-MOET genetic algorithm (paper:
// dp-multi-objective-selection, Section 6.1): random full trees,
// subtree crossover, mutation and pruning. None of them reads the private
// rows, so they are post-processing of the DP selections around them.
//
// Levels: the paper counts the root as level 1, so a tree of
// `levels` L has 2^(L-1) leaves when full and DecisionTree::depth() ==
// L - 1. GeneticParameters::initial_depth and max_depth are level counts
// in this sense (d and d_max of the paper).
#ifndef DPQ_CORE_SELECTION_TREE_TREE_OPERATORS_H_
#define DPQ_CORE_SELECTION_TREE_TREE_OPERATORS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/dp/secure_urbg.h"
#include "core/selection/tree/dp_decision_tree.h"

namespace dpq::core::selection {

// Number of levels of the tree (root = level 1); 0 for an empty tree.
int TreeLevels(const DecisionTree& tree);

// A full random tree with all leaves at level `levels` (>= 1): random
// features and tests from `features` (non-empty), random leaf labels.
DecisionTree RandomTree(const std::vector<FeatureDomain>& features, int levels,
                        dp::SecureUrbg& urbg);

// `tree` with the subtree rooted at node `target` replaced by the subtree
// of `donor` rooted at `donor_root`. Result in pre-order layout.
DecisionTree ReplaceSubtree(const DecisionTree& tree, int32_t target,
                            const DecisionTree& donor, int32_t donor_root);

// Swaps a uniformly chosen subtree of `a` with one of `b` (roots allowed).
// The total node count of the two trees is conserved.
void Crossover(DecisionTree& a, DecisionTree& b, dp::SecureUrbg& urbg);

// Replaces the subtree at a uniformly chosen node of level l by a random full
// tree of max(1, min(levels(tree), max_levels) - l + 1) levels: the artifact's
// rule (docs/selection-experiments.md, "mutation"), which keeps trees from
// growing to max_levels at every mutation. Never makes a tree of at most
// max_levels levels deeper than max_levels.
void Mutate(DecisionTree& tree, const std::vector<FeatureDomain>& features,
            int max_levels, dp::SecureUrbg& urbg);

// Cuts the tree to `max_levels` levels: every inner node at level
// max_levels becomes a leaf with a random label.
void Prune(DecisionTree& tree, int max_levels, dp::SecureUrbg& urbg);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_OPERATORS_H_
