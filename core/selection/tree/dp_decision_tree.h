// DP cost-sensitive decision tree by DP-MOET (paper: dp-multi-objective-
// selection, Section 6, Algorithm 1, with the corrected TPR/TNR
// sensitivities of docs/privacy.md 6.1; docs/selection.md,
// "Applications"): a genetic algorithm over whole
// random trees whose every selection step is a DP multi-objective
// selection (objectives TPR and TNR). Entry point used by the service.
#ifndef DPQ_CORE_SELECTION_TREE_DP_DECISION_TREE_H_
#define DPQ_CORE_SELECTION_TREE_DP_DECISION_TREE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/multi_objective_selection.h"
#include "core/table/table.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

// One node of a binary tree over table columns. An inner node tests
// `feature` (a numeric column: value <= threshold goes left; a string
// column: value == category goes left; NULL goes right). A leaf predicts
// `positive` (true = the positive class).
struct TreeNode {
  bool is_leaf = true;
  bool positive = false;     // leaves only
  std::string feature;       // inner nodes only
  bool numeric_test = true;  // threshold test, else category test
  double threshold = 0;      // numeric_test
  std::string category;      // !numeric_test
  int32_t left = -1;         // child indices into DecisionTree::nodes
  int32_t right = -1;
};

// nodes[0] is the root. Depth of a leaf-only tree is 0.
struct DecisionTree {
  std::vector<TreeNode> nodes;
  // Compact one-line form, e.g.
  // "(age<=37.5 ? (sex=='Male' ? + : -) : +)" with + / - leaves.
  std::string ToText() const;
  int depth() const;
};

// Genetic-algorithm parameters (the paper's names: p, s, k, d, d_max, o).
// These defaults are the paper's (experiments); the service's are
// kDefaultGenerations and kDefaultPopulation (tree_request.h: 5 and 60).
// Limits are checked.
// initial_depth and max_depth count LEVELS as the paper does (root = level
// 1): a tree has at most max_depth levels, i.e. depth() <= max_depth - 1.
// `generations` rounds of selection + breeding are followed by one final
// selection, so the paper's k equals generations + 1 (as in its artifact;
// docs/selection-experiments.md, "GA iterations"); the budget is split evenly
// over those generations + 1 selections.
struct GeneticParameters {
  uint32_t population = 30;    // p, 2..1000
  uint32_t generations = 10;   // 1..200
  uint32_t selected = 3;       // s: survivors per generation, 1..p
  uint32_t initial_depth = 4;  // d
  uint32_t max_depth = 10;     // d_max, 1..20
};

// A feature a random inner node may test: a numeric threshold drawn
// uniformly from `thresholds` (when given) or else uniformly from
// [min, max], or a category drawn uniformly from `categories`. Treated as
// public (the paper's attribute domains).
struct FeatureDomain {
  std::string name;
  bool numeric = true;
  double min = 0;
  double max = 1;
  std::vector<std::string> categories;  // !numeric, non-empty
  // numeric only: public candidate thresholds (finite, ascending, distinct;
  // FeatureDomainOf takes the interior bin edges or the declared values of
  // the owner's dimension). A uniform draw from [min, max] mostly misses
  // the values of a skewed column (adult's capital gain: 92% zeros in
  // [0, 99999]); a grid point of the declared dimension splits where the
  // owner's bins do. Public, so drawing from it is free.
  std::vector<double> thresholds = {};
};

struct DecisionTreeRequest {
  std::string label_column;
  std::string positive_class;  // label value (text) of the positive class
  // The features, in this order; empty: those of `public_domains`, in
  // their order.
  std::vector<std::string> features;
  // approach, sensitivity, weights (PrivAgg: one per objective, TPR then
  // TNR), epsilon = budget of the whole training; k is ignored.
  SelectionOptions selection;
  GeneticParameters genetic;
  // Extra budget (0 = none) for releasing the DP TPR and TNR of the
  // returned tree on the training data; charged on top of selection.epsilon.
  double accuracy_epsilon = 0;
  // N, the public upper bound on the row count (docs/privacy.md 2.1).
  uint64_t public_max_rows = 0;
  // REQUIRED public attribute domains, one per feature (no more): the
  // thresholds and categories the random trees test are drawn from them.
  // They must be public (the service takes them from the dataset's
  // declared cube dimensions): a domain read from the private rows (min,
  // max, the set of categories) would leak outside the DP accounting.
  // Experiment runners that accept that leak build trees with RunMoet and
  // EncodedTable::ObservedDomains (bench/selection), never this.
  std::vector<FeatureDomain> public_domains;
  // REQUIRED public classes of the label (e.g. a declared dimension's
  // labels): positive_class must be one of them. Whether any row has the
  // positive class is never checked (none: TPR = 0 by convention).
  std::vector<std::string> label_classes;
  // Polled throughout the training (encoding the rows, RunMoet, the DP
  // selections when selection.stop is empty, the accuracy release): true
  // stops it with kCancelled within a few milliseconds of work.
  util::StopFn stop;
};

struct DecisionTreeResult {
  // The selected tree after SimplifyTree (tree_simplification.h):
  // post-processing with the same prediction on every row, no more nodes.
  DecisionTree tree;
  std::optional<double> tpr;  // DP estimates, only if accuracy_epsilon > 0
  std::optional<double> tnr;
  double epsilon_spent = 0;  // selection.epsilon + accuracy_epsilon
  // Statements for the buyer, in this order: the budget caveat of
  // AssessTreeBudget (tree_budget.h; public inputs only) when the request's
  // epsilon is below its useful_epsilon, and SingleLeafCaveat when the
  // returned tree is one leaf (post-processing of the released tree).
  std::vector<std::string> caveats;
  // AssessTreeBudget(request).useful_epsilon.
  double useful_epsilon = 0;
};

// Neighbours: add or remove one row (docs/privacy.md 1); every sensitivity used
// also holds under replacement except the accuracy release (L1 = 2 for the
// counts TP, P, TN, N under add/remove). The trees' leaves and tests are
// random over the public domains; only the DP selections and the accuracy
// release read rows, and no error depends on the rows' content.
// The returned tree is the selected one after SimplifyTree (free post-
// processing); the accuracy release, if any, is of that tree.
// kInvalidArgument naming the problem for an unknown label/feature column,
// a feature without a public domain (or a domain of no feature, of the
// wrong kind for its column, or empty), a positive class not among
// label_classes, bad genetic parameters, bad weights or epsilon.
absl::StatusOr<DecisionTreeResult> TrainDpDecisionTree(
    const table::Table& table, const DecisionTreeRequest& request,
    dp::SecureUrbg& urbg);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_DP_DECISION_TREE_H_
