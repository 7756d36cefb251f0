// The public inputs of a decision tree taken from a dataset's declared cube
// dimensions: the features' domains (what a random inner node may test)
// and the label's classes. The owner declares the dimensions and every
// buyer sees their labels and bins (DescribeDataset), so nothing here is
// read from a row: a domain read from the data (its min, max or set of
// categories) would leak outside the DP accounting (docs/privacy.md).
#ifndef DPQ_CORE_SELECTION_TREE_TREE_PUBLIC_DOMAINS_H_
#define DPQ_CORE_SELECTION_TREE_TREE_PUBLIC_DOMAINS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cube/cuboid_release.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/table/schema.h"

namespace dpq::core::selection {

struct TreePublicInputs {
  // The features, in order: those asked for, or (none asked for) every
  // declared dimension but the label, in declaration order.
  std::vector<std::string> features;
  // One per feature, in the same order.
  std::vector<FeatureDomain> public_domains;
  // The label's declared values; positive_class is one of them.
  std::vector<std::string> label_classes;
};

// The tree's public domain of one declared dimension of a column of type
// `type`: bins -> numeric [first edge, last edge] with the interior edges
// as thresholds; nominal text -> its values as categories; nominal
// numbers -> numeric [smallest, largest] declared value with every
// declared value but the largest as thresholds (FeatureDomain::thresholds:
// the public grid the random tests draw from). The "other" catch-all cell
// stands for NULL and undeclared values, so it is no value. kFailedPrecondition
// naming the column when the dimension declares no value or a non-numeric value
// of a numeric column.
absl::StatusOr<FeatureDomain> FeatureDomainOf(const cube::CubeDimension& dim,
                                              table::ColumnType type);

// The public inputs of a tree over `label_column` (positive class
// `positive_class`) and `features` (empty: every declared dimension but the
// label). `schema` must hold every column (check the request's columns
// first). kFailedPrecondition naming the column for a label or feature
// that is not a declared dimension, a binned label, a dimension without a
// usable domain, or (no features asked for) no dimension besides the
// label; kInvalidArgument listing the label's declared values when
// positive_class is not one of them (they are public). Reads no row.
absl::StatusOr<TreePublicInputs> TreePublicInputsFromCube(
    const table::Schema& schema, const cube::CubeSchema& cube,
    const std::string& label_column, const std::string& positive_class,
    const std::vector<std::string>& features);

}  // namespace dpq::core::selection

#endif  // DPQ_CORE_SELECTION_TREE_TREE_PUBLIC_DOMAINS_H_
