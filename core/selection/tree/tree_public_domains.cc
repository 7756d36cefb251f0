#include "core/selection/tree/tree_public_domains.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

// The declared cube dimension of `column`, or nullptr.
const cube::CubeDimension* FindDimension(const cube::CubeSchema& cube,
                                         const std::string& column) {
  for (const cube::CubeDimension& dim : cube.dimensions) {
    if (dim.column == column) return &dim;
  }
  return nullptr;
}

absl::Status NoPublicDomain(const std::string& column) {
  return absl::FailedPreconditionError(
      absl::StrCat("column '", column,
                   "' has no public domain: the dataset owner must "
                   "declare it as a cube dimension (dpq admin register "
                   "--cube-dimension ...)."));
}

// A nominal dimension's values: its labels without the "other" catch-all
// (which stands for NULL and undeclared values, not a value).
std::vector<std::string> NominalValues(const cube::CubeDimension& dim) {
  std::vector<std::string> values = dim.labels;
  if (dim.has_other && !values.empty()) values.pop_back();
  return values;
}

// The label's public classes (its nominal dimension's values), which
// must include positive_class. Listing them in the error leaks nothing:
// DescribeDataset shows them.
absl::StatusOr<std::vector<std::string>> LabelClasses(
    const cube::CubeSchema& cube, const std::string& label_column,
    const std::string& positive_class) {
  const cube::CubeDimension* label = FindDimension(cube, label_column);
  if (label == nullptr) return NoPublicDomain(label_column);
  if (!label->bin_edges.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "label column '", label_column,
        "' is declared as a "
        "binned cube dimension; a label needs a nominal one (its values "
        "are the classes)."));
  }
  std::vector<std::string> classes = NominalValues(*label);
  if (std::find(classes.begin(), classes.end(), positive_class) ==
      classes.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "positive_class '", positive_class,
        "' is not a declared value of the label column '", label_column,
        "'; its values are: ", absl::StrJoin(classes, ", "), "."));
  }
  return classes;
}

// Sorts, drops non-finite values and repeats (CheckDomain's form).
void SortedDistinctFinite(std::vector<double>& values) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [](double v) { return !std::isfinite(v); }),
               values.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

}  // namespace

absl::StatusOr<FeatureDomain> FeatureDomainOf(const cube::CubeDimension& dim,
                                              table::ColumnType type) {
  FeatureDomain domain;
  domain.name = dim.column;
  if (!dim.bin_edges.empty()) {
    domain.min = dim.bin_edges.front();
    domain.max = dim.bin_edges.back();
    // The interior edges e1..e(k-1): value <= e_i takes the bins below
    // e_i and the values equal to e_i (which the bins put in the bin
    // starting there), a split near the owner's; the outer edges split
    // nothing off a column inside the bins.
    if (dim.bin_edges.size() > 2) {
      domain.thresholds.assign(dim.bin_edges.begin() + 1,
                               dim.bin_edges.end() - 1);
    }
    SortedDistinctFinite(domain.thresholds);
    return domain;
  }
  std::vector<std::string> values = NominalValues(dim);
  if (values.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the cube dimension of column '", dim.column,
                     "' declares no value, "
                     "so it gives the tree no domain to test."));
  }
  if (type == table::ColumnType::kString) {
    domain.numeric = false;
    domain.categories = std::move(values);
    return domain;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    double v = 0;
    if (!absl::SimpleAtod(values[i], &v) || !std::isfinite(v)) {
      return absl::FailedPreconditionError(
          absl::StrCat("the cube dimension of numeric column '", dim.column,
                       "' declares the non-numeric value '", values[i], "'."));
    }
    domain.min = i == 0 ? v : std::min(domain.min, v);
    domain.max = i == 0 ? v : std::max(domain.max, v);
    domain.thresholds.push_back(v);
  }
  // Every declared value but the largest (value <= v_i separates v_i from
  // the next one; the largest would send every declared value left).
  SortedDistinctFinite(domain.thresholds);
  if (!domain.thresholds.empty()) domain.thresholds.pop_back();
  return domain;
}

absl::StatusOr<TreePublicInputs> TreePublicInputsFromCube(
    const table::Schema& schema, const cube::CubeSchema& cube,
    const std::string& label_column, const std::string& positive_class,
    const std::vector<std::string>& features) {
  TreePublicInputs out;
  ASSIGN_OR_RETURN(out.label_classes,
                   LabelClasses(cube, label_column, positive_class));
  out.features = features;
  if (out.features.empty()) {
    for (const cube::CubeDimension& dim : cube.dimensions) {
      if (dim.column != label_column) out.features.push_back(dim.column);
    }
    if (out.features.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the dataset declares no cube dimension besides the label '",
          label_column,
          "', so the tree has no feature with a "
          "public domain (dpq admin register --cube-dimension ...)."));
    }
  }
  for (const std::string& feature : out.features) {
    const cube::CubeDimension* dim = FindDimension(cube, feature);
    if (dim == nullptr) return NoPublicDomain(feature);
    const std::optional<size_t> c = schema.FindColumn(feature);
    if (!c.has_value()) {
      return absl::InternalError(absl::StrCat(
          "cube dimension '", feature, "' is not a column of the dataset."));
    }
    ASSIGN_OR_RETURN(FeatureDomain domain,
                     FeatureDomainOf(*dim, schema.columns()[*c].type));
    out.public_domains.push_back(std::move(domain));
  }
  return out;
}

}  // namespace dpq::core::selection
