// Can a decision-tree request's budget buy a useful tree? Decided from
// PUBLIC inputs only (epsilon, N = public_max_rows, the approach, the
// sensitivity mode, the weights and the genetic parameters), never from
// the rows, so the answer is free to show the buyer (the service puts it
// in the tree's answer; it could as well be shown before anything is
// charged; docs/selection.md, "When the budget is too small").
//
// The rule. DP-MOET makes G + 1 selection calls of s draws each (the last
// call draws fewer), so one draw has epsilon_d = epsilon / ((G + 1) s). A
// draw is an exponential mechanism over C = p + s candidate trees with
// exponent epsilon_d u / (2 Delta). It can find a tree that is better by
// g = kUsefulBalancedAccuracyGap in balanced accuracy (TPR and TNR each
// up by g) among C only if that gap moves the log-odds by at least ln C
// (below that, the uniform spread over C candidates outweighs the score):
//   L(epsilon_d) >= ln C, with L in the most favourable case:
//   aggregation, global:  gap g (|w1| + |w2|), Delta = |w1| + |w2|:
//                         L = epsilon_d g / 2
//   aggregation, local:   Delta >= |w1| / P + |w2| / N_neg >= 2 (|w1| +
//                         |w2|) / N (balanced classes at the public
//                         maximum N = public_max_rows): L = epsilon_d g N / 4
//   pareto, global:       a Pareto-score gap of at most C - 1 = Delta:
//                         L = epsilon_d / 2 (whatever g)
//   pareto, local:        as aggregation, local: the Pareto score moves
//                         only through TPR/TNR, and local dampening
//                         measures a candidate's lead in rows to change,
//                         at most about g N / 2 for a rate gap g with
//                         balanced classes: L = epsilon_d g N / 4
// Every case is the best case for the buyer (the true gap and sensitivity
// can only make L smaller), so a request that fails the rule cannot be
// expected to beat chance; passing it is necessary, not sufficient.
#ifndef DPQ_CORE_SELECTION_TREE_TREE_BUDGET_H_
#define DPQ_CORE_SELECTION_TREE_TREE_BUDGET_H_

#include <string>

#include "core/selection/tree/dp_decision_tree.h"

namespace dpq::core::selection {

// g of the rule: a tree 0.1 better in balanced accuracy, e.g. 0.6 against
// chance's 0.5 (on adult the non-private depth-3 tree reaches ~0.8).
inline constexpr double kUsefulBalancedAccuracyGap = 0.1;

struct TreeBudgetAssessment {
  // epsilon >= useful_epsilon.
  bool sufficient = true;
  // The smallest training epsilon that passes the rule with the request's
  // other inputs unchanged (+infinity if none: weights all zero).
  double useful_epsilon = 0;
  // The same for approach AGGREGATION with weights (1, 1) (balanced
  // accuracy) and LOCAL sensitivity, the variant that needs the least
  // (and the one that reaches the non-private tree on adult).
  double useful_epsilon_balanced_local = 0;
  // Empty when sufficient; else one sentence for the buyer naming the
  // epsilon asked for, useful_epsilon and the cheaper variant.
  std::string caveat;
};

// Reads request.selection (approach, sensitivity, weights, epsilon),
// request.genetic and request.public_max_rows (0 counts as 1) only.
TreeBudgetAssessment AssessTreeBudget(const DecisionTreeRequest& request);

// The single-leaf statement of a released tree (post-processing, free):
// empty unless `tree` is one leaf.
std::string SingleLeafCaveat(const DecisionTree& tree);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_BUDGET_H_
