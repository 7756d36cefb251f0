// Evaluation of decision trees on a private table: the confusion counts
// behind the DP-MOET objectives TPR = TP/P and TNR = TN/N (paper:
// dp-multi-objective-selection, Section 6.1).
#ifndef DPQ_CORE_SELECTION_TREE_TREE_EVALUATION_H_
#define DPQ_CORE_SELECTION_TREE_TREE_EVALUATION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_operators.h"
#include "core/table/table.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

struct ConfusionCounts {
  uint64_t true_positives = 0;
  uint64_t positives = 0;  // P
  uint64_t true_negatives = 0;
  uint64_t negatives = 0;  // N
  // Conventions (so that no error depends on the rows): TPR = 0 when P = 0,
  // TNR = 0 when N = 0.
  double Tpr() const;
  double Tnr() const;
};

// The feature columns and the binary label of a table, in the layout the
// trees are evaluated on. A row is positive iff its label cell text equals
// the positive class; a NULL label is negative.
class EncodedTable {
 public:
  // kInvalidArgument naming the column for an unknown label or feature
  // column, the label among the features, or no feature; never for the
  // rows' content (a positive class no row has gives positives() == 0).
  // `rows` selects and orders the rows used (empty: all rows). `stop` is
  // polled every kRowsPerStopPoll rows of every column: kCancelled
  // (util::StoppedError) once it says so.
  static absl::StatusOr<EncodedTable> Create(
      const table::Table& table, const std::string& label_column,
      const std::string& positive_class,
      const std::vector<std::string>& features,
      absl::Span<const size_t> rows = {}, const util::StopFn& stop = nullptr);

  size_t num_rows() const { return positive_.size(); }
  uint64_t positives() const { return positives_; }
  uint64_t negatives() const { return positive_.size() - positives_; }

  // NOT PRIVATE: the feature domains as the data shows them (numeric
  // [min, max] of the non-NULL values, [0, 0] if none; categories =
  // distinct values). For the experiment runners only (bench/
  // selection), which reproduce the paper's setting where the attribute
  // domains are assumed public. The service never uses it:
  // TrainDpDecisionTree requires public domains.
  std::vector<FeatureDomain> ObservedDomains() const;

  // Class of one row: follows numeric `value <= threshold` and category
  // `value == category` tests to the left, everything else (NULL, an
  // unknown feature or category) to the right.
  bool Predict(const DecisionTree& tree, size_t row) const;

  // Confusion counts of `tree` over all rows. O(rows * depth).
  ConfusionCounts Evaluate(const DecisionTree& tree) const;
  // The same, polling `stop` every kRowsPerStopPoll rows (a tree on a
  // million rows must not run unchecked): kCancelled
  // (util::StoppedError) once it says so.
  absl::StatusOr<ConfusionCounts> Evaluate(const DecisionTree& tree,
                                           const util::StopFn& stop) const;
  static constexpr uint64_t kRowsPerStopPoll = 4096;

 private:
  struct Feature {
    std::string name;
    bool numeric = true;
    std::vector<double> values;  // numeric: NaN = NULL
    std::vector<int32_t> codes;  // category: index into categories, -1 = NULL
    std::vector<std::string> categories;  // sorted
  };
  // A tree node resolved against the features: feature index (-1 =
  // unknown) and the code of the tested category (-2 = absent).
  struct CompiledNode {
    int32_t feature = -1;
    int32_t code = -2;
  };
  std::vector<CompiledNode> Compile(const DecisionTree& tree) const;
  bool PredictCompiled(const DecisionTree& tree,
                       const std::vector<CompiledNode>& compiled,
                       size_t row) const;

  std::vector<Feature> features_;
  std::vector<uint8_t> positive_;
  uint64_t positives_ = 0;
};

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_EVALUATION_H_
