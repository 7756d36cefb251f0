#include "core/selection/tree/tree_evaluation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/util/stop.h"

namespace dpq::core::selection {

double ConfusionCounts::Tpr() const {
  return positives == 0 ? 0.0
                        : static_cast<double>(true_positives) /
                              static_cast<double>(positives);
}

double ConfusionCounts::Tnr() const {
  return negatives == 0 ? 0.0
                        : static_cast<double>(true_negatives) /
                              static_cast<double>(negatives);
}

absl::StatusOr<EncodedTable> EncodedTable::Create(
    const table::Table& table, const std::string& label_column,
    const std::string& positive_class, const std::vector<std::string>& features,
    absl::Span<const size_t> rows, const util::StopFn& stop) {
  const table::Schema& schema = table.schema();
  const std::optional<size_t> label = schema.FindColumn(label_column);
  if (!label.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown label column '", label_column, "'."));
  }
  std::vector<std::string> names = features;
  if (names.empty()) {
    for (const table::ColumnSpec& spec : schema.columns()) {
      if (spec.name != label_column) names.push_back(spec.name);
    }
  }
  if (names.empty()) {
    return absl::InvalidArgumentError(
        "A decision tree needs at least one feature column besides the "
        "label.");
  }
  std::vector<size_t> row_list(rows.begin(), rows.end());
  if (rows.empty()) {
    row_list.resize(table.num_rows());
    for (size_t r = 0; r < row_list.size(); ++r) row_list[r] = r;
  }
  for (size_t r : row_list) {
    if (r >= table.num_rows()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Row ", r, " is out of range (", table.num_rows(), " rows)."));
    }
  }

  EncodedTable out;
  util::StridedStop stopped(stop, kRowsPerStopPoll);
  absl::flat_hash_map<std::string, bool> seen;
  for (const std::string& name : names) {
    const std::optional<size_t> c = schema.FindColumn(name);
    if (!c.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unknown feature column '", name, "'."));
    }
    if (*c == *label) {
      return absl::InvalidArgumentError(absl::StrCat(
          "The label column '", name, "' cannot also be a feature."));
    }
    if (!seen.emplace(name, true).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Feature column '", name, "' is listed twice."));
    }
    const table::Column& column = table.column(*c);
    Feature f;
    f.name = name;
    f.numeric = column.is_numeric();
    if (f.numeric) {
      f.values.reserve(row_list.size());
      for (size_t r : row_list) {
        if (stopped.Requested()) return util::StoppedError();
        f.values.push_back(column.is_null(r)
                               ? std::numeric_limits<double>::quiet_NaN()
                               : column.numeric_at(r));
      }
    } else {
      // Dictionary ids are in string order, so sorting the distinct ids
      // gives sorted category texts.
      std::vector<uint32_t> ids;
      for (size_t r : row_list) {
        if (stopped.Requested()) return util::StoppedError();
        if (!column.is_null(r)) ids.push_back(column.string_ids[r]);
      }
      // O(rows log rows): counted as 16 units a row.
      if (stopped.Requested(16 * ids.size())) return util::StoppedError();
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      absl::flat_hash_map<uint32_t, int32_t> code_of;
      for (uint32_t id : ids) {
        code_of[id] = static_cast<int32_t>(f.categories.size());
        f.categories.emplace_back(table.dictionary().at(id));
      }
      f.codes.reserve(row_list.size());
      for (size_t r : row_list) {
        if (stopped.Requested()) return util::StoppedError();
        f.codes.push_back(column.is_null(r) ? -1
                                            : code_of[column.string_ids[r]]);
      }
    }
    out.features_.push_back(std::move(f));
  }

  // No check that some row has the positive class: failing on that would
  // reveal the data (P = 0 simply gives TPR = 0). Callers validate the
  // class against public label classes (TrainDpDecisionTree) or, in the
  // non-private experiment runners, look at positives() themselves.
  out.positive_.reserve(row_list.size());
  for (size_t r : row_list) {
    if (stopped.Requested()) return util::StoppedError();
    const bool positive = !table.column(*label).is_null(r) &&
                          table.CellText(*label, r) == positive_class;
    out.positive_.push_back(positive ? 1 : 0);
    out.positives_ += positive ? 1 : 0;
  }
  return out;
}

std::vector<FeatureDomain> EncodedTable::ObservedDomains() const {
  std::vector<FeatureDomain> domains;
  for (const Feature& f : features_) {
    FeatureDomain d;
    d.name = f.name;
    d.numeric = f.numeric;
    if (f.numeric) {
      bool any = false;
      for (double v : f.values) {
        if (std::isnan(v)) continue;
        d.min = any ? std::min(d.min, v) : v;
        d.max = any ? std::max(d.max, v) : v;
        any = true;
      }
      if (!any) d.min = d.max = 0;
    } else {
      d.categories = f.categories;
      // A column of NULLs only: one placeholder category, so random tests
      // can still be drawn (they send every row to the right).
      if (d.categories.empty()) d.categories.push_back("");
    }
    domains.push_back(std::move(d));
  }
  return domains;
}

std::vector<EncodedTable::CompiledNode> EncodedTable::Compile(
    const DecisionTree& tree) const {
  std::vector<CompiledNode> compiled(tree.nodes.size());
  for (size_t v = 0; v < tree.nodes.size(); ++v) {
    const TreeNode& node = tree.nodes[v];
    if (node.is_leaf) continue;
    for (size_t f = 0; f < features_.size(); ++f) {
      if (features_[f].name != node.feature) continue;
      compiled[v].feature = static_cast<int32_t>(f);
      if (!node.numeric_test && !features_[f].numeric) {
        const std::vector<std::string>& cats = features_[f].categories;
        const auto it =
            std::lower_bound(cats.begin(), cats.end(), node.category);
        if (it != cats.end() && *it == node.category) {
          compiled[v].code = static_cast<int32_t>(it - cats.begin());
        }
      }
      break;
    }
  }
  return compiled;
}

bool EncodedTable::PredictCompiled(const DecisionTree& tree,
                                   const std::vector<CompiledNode>& compiled,
                                   size_t row) const {
  int32_t v = 0;
  while (!tree.nodes[v].is_leaf) {
    const TreeNode& node = tree.nodes[v];
    bool left = false;
    if (compiled[v].feature >= 0) {
      const Feature& f = features_[compiled[v].feature];
      if (node.numeric_test && f.numeric) {
        left = f.values[row] <= node.threshold;  // false for NaN (NULL)
      } else if (!node.numeric_test && !f.numeric) {
        left = compiled[v].code >= 0 && f.codes[row] == compiled[v].code;
      }
    }
    v = left ? node.left : node.right;
  }
  return tree.nodes[v].positive;
}

bool EncodedTable::Predict(const DecisionTree& tree, size_t row) const {
  return PredictCompiled(tree, Compile(tree), row);
}

ConfusionCounts EncodedTable::Evaluate(const DecisionTree& tree) const {
  // Without a stop function nothing can fail.
  return *Evaluate(tree, nullptr);
}

absl::StatusOr<ConfusionCounts> EncodedTable::Evaluate(
    const DecisionTree& tree, const util::StopFn& stop) const {
  ConfusionCounts counts;
  counts.positives = positives();
  counts.negatives = negatives();
  if (tree.nodes.empty()) return counts;
  const std::vector<CompiledNode> compiled = Compile(tree);
  util::StridedStop stopped(stop, kRowsPerStopPoll);
  for (size_t row = 0; row < positive_.size(); ++row) {
    if (stopped.Requested()) return util::StoppedError();
    const bool predicted = PredictCompiled(tree, compiled, row);
    if (positive_[row]) {
      counts.true_positives += predicted ? 1 : 0;
    } else {
      counts.true_negatives += predicted ? 0 : 1;
    }
  }
  return counts;
}

}  // namespace dpq::core::selection
