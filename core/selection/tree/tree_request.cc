#include "core/selection/tree/tree_request.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/selection/selection_weights.h"
#include "core/selection/tree/tree_public_domains.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
namespace {

// The genetic parameters with the defaults, or kInvalidArgument naming the
// field (with the value asked for).
absl::StatusOr<GeneticParameters> GeneticFromSpec(
    const DecisionTreeSpec& spec) {
  GeneticParameters genetic;
  genetic.generations =
      spec.generations == 0 ? kDefaultGenerations : spec.generations;
  genetic.population =
      spec.population == 0 ? kDefaultPopulation : spec.population;
  if (genetic.generations > kMaxGenerations) {
    return util::InvalidFieldError(
        "generations",
        absl::StrCat("generations must be at most ", kMaxGenerations,
                     " (0 means ", kDefaultGenerations, "), but is ",
                     spec.generations, "."));
  }
  if (genetic.population < kMinPopulation ||
      genetic.population > kMaxPopulation) {
    return util::InvalidFieldError(
        "population",
        absl::StrCat("population must be in [", kMinPopulation, ", ",
                     kMaxPopulation, "] (0 means ", kDefaultPopulation,
                     "), but is ", spec.population, "."));
  }
  if (genetic.selected > genetic.population) {
    genetic.selected = genetic.population;
  }
  return genetic;
}

// Label and features exist, the label is no feature, no feature twice.
// kInvalidArgument naming the field and listing the columns (the schema is
// public).
absl::Status CheckColumns(const table::Schema& schema,
                          const DecisionTreeSpec& spec) {
  auto unknown = [&](const char* field, const std::string& name) {
    std::vector<std::string> names;
    for (const auto& c : schema.columns()) names.push_back(c.name);
    return util::InvalidFieldError(
        field, absl::StrCat(field, ": '", name,
                            "' is not a column of the dataset; "
                            "its columns are: ",
                            absl::StrJoin(names, ", "), "."));
  };
  if (spec.label_column.empty()) {
    return util::InvalidFieldError("label_column",
                                   "label_column must not be empty.");
  }
  if (!schema.FindColumn(spec.label_column).has_value()) {
    return unknown("label_column", spec.label_column);
  }
  if (spec.positive_class.empty()) {
    return util::InvalidFieldError(
        "positive_class",
        "positive_class must not be empty: give the label value (as text) "
        "of the positive class.");
  }
  absl::flat_hash_set<std::string> seen;
  for (const std::string& feature : spec.features) {
    if (!schema.FindColumn(feature).has_value()) {
      return unknown("features", feature);
    }
    if (feature == spec.label_column) {
      return util::InvalidFieldError(
          "features",
          absl::StrCat("features must not contain the label column '", feature,
                       "'."));
    }
    if (!seen.insert(feature).second) {
      return util::InvalidFieldError(
          "features", absl::StrCat("features lists '", feature, "' twice."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DecisionTreeRequest> BuildDecisionTreeRequest(
    const table::Schema& schema, const cube::CubeSchema& cube,
    const DecisionTreeSpec& spec) {
  DecisionTreeRequest request;
  ASSIGN_OR_RETURN(
      request.selection.weights,
      CheckSelectionWeights(spec.approach, spec.weights, 2, "TPR, TNR"));
  ASSIGN_OR_RETURN(request.genetic, GeneticFromSpec(spec));
  RETURN_IF_ERROR(CheckColumns(schema, spec));
  ASSIGN_OR_RETURN(
      TreePublicInputs inputs,
      TreePublicInputsFromCube(schema, cube, spec.label_column,
                               spec.positive_class, spec.features));
  request.label_column = spec.label_column;
  request.positive_class = spec.positive_class;
  request.features = std::move(inputs.features);
  request.public_domains = std::move(inputs.public_domains);
  request.label_classes = std::move(inputs.label_classes);
  request.selection.approach = spec.approach;
  request.selection.sensitivity = spec.sensitivity;
  request.selection.epsilon = spec.epsilon;
  request.accuracy_epsilon = spec.accuracy_epsilon;
  request.public_max_rows = spec.public_max_rows;
  return request;
}

}  // namespace dpq::core::selection
