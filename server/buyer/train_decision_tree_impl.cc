// BuyerService.TrainDecisionTree: a DP cost-sensitive decision tree
// (DP-MOET) of a table dataset (issue 6, design.md section 8).
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "core/cube/cuboid_release.h"
#include "core/dp/epsilon.h"
#include "core/ledger/epsilon_units.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/table/schema.h"
#include "core/util/status_macros.h"
#include "server/buyer/buyer_convert.h"
#include "server/buyer/buyer_service_impl.h"
#include "server/buyer/release_helpers.h"
#include "server/buyer/release_pipeline.h"

namespace dpq::server::buyer {

namespace sel = core::selection;

namespace internal {

absl::StatusOr<std::vector<double>> CheckSelectionWeights(
    sel::Approach approach,
    const google::protobuf::RepeatedField<double>& weights, size_t objectives,
    const char* what) {
  if (approach == sel::Approach::kPareto) {
    if (!weights.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "weights apply to SELECTION_APPROACH_AGGREGATION only, but ",
          weights.size(), " were given with the Pareto approach."));
    }
    return std::vector<double>();
  }
  if (weights.empty()) return std::vector<double>(objectives, 1.0);
  if (static_cast<size_t>(weights.size()) != objectives) {
    return absl::InvalidArgumentError(absl::StrCat(
        "weights must hold one number per objective (", objectives, ": ",
        what, "), but holds ", weights.size(), "."));
  }
  bool any_nonzero = false;
  for (int i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "weights[", i, "] must be finite, but is ", weights[i], "."));
    }
    any_nonzero = any_nonzero || weights[i] != 0;
  }
  if (!any_nonzero) {
    return absl::InvalidArgumentError(
        "weights must not all be zero: the aggregate would rank every "
        "candidate equally.");
  }
  return std::vector<double>(weights.begin(), weights.end());
}

}  // namespace internal

namespace {

// The genetic parameters with the documented defaults, or
// kInvalidArgument naming the field.
absl::StatusOr<sel::GeneticParameters> GeneticFromRequest(
    const v1::TrainDecisionTreeRequest& request) {
  sel::GeneticParameters genetic;
  genetic.generations = request.generations() == 0 ? kDefaultGenerations
                                                   : request.generations();
  genetic.population = request.population() == 0 ? kDefaultPopulation
                                                  : request.population();
  if (genetic.generations > kMaxGenerations) {
    return absl::InvalidArgumentError(absl::StrCat(
        "generations must be at most ", kMaxGenerations, " (0 means ",
        kDefaultGenerations, "), but is ", request.generations(), "."));
  }
  if (genetic.population < kMinPopulation ||
      genetic.population > kMaxPopulation) {
    return absl::InvalidArgumentError(absl::StrCat(
        "population must be in [", kMinPopulation, ", ", kMaxPopulation,
        "] (0 means ", kDefaultPopulation, "), but is ", request.population(),
        "."));
  }
  if (genetic.selected > genetic.population) {
    genetic.selected = genetic.population;
  }
  return genetic;
}

// Label and features exist, the label is no feature, no feature twice.
// kInvalidArgument naming the field and listing the columns.
absl::Status CheckColumns(const core::table::Schema& schema,
                          const v1::TrainDecisionTreeRequest& request) {
  auto unknown = [&](const char* field, const std::string& name) {
    std::vector<std::string> names;
    for (const auto& c : schema.columns()) names.push_back(c.name);
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": '", name, "' is not a column of the dataset; "
                     "its columns are: ", absl::StrJoin(names, ", "), "."));
  };
  if (request.label_column().empty()) {
    return absl::InvalidArgumentError("label_column must not be empty.");
  }
  if (!schema.FindColumn(request.label_column()).has_value()) {
    return unknown("label_column", request.label_column());
  }
  if (request.positive_class().empty()) {
    return absl::InvalidArgumentError(
        "positive_class must not be empty: give the label value (as text) "
        "of the positive class.");
  }
  absl::flat_hash_set<std::string> seen;
  for (const std::string& feature : request.features()) {
    if (!schema.FindColumn(feature).has_value()) {
      return unknown("features", feature);
    }
    if (feature == request.label_column()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "features must not contain the label column '", feature, "'."));
    }
    if (!seen.insert(feature).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("features lists '", feature, "' twice."));
    }
  }
  return absl::OkStatus();
}

// The declared cube dimension of `column`, or nullptr.
const core::cube::CubeDimension* FindDimension(
    const core::cube::CubeSchema& cube, const std::string& column) {
  for (const core::cube::CubeDimension& dim : cube.dimensions) {
    if (dim.column == column) return &dim;
  }
  return nullptr;
}

absl::Status NoPublicDomain(const std::string& column) {
  return absl::FailedPreconditionError(absl::StrCat(
      "column '", column, "' has no public domain: the dataset owner must "
      "declare it as a cube dimension (dpq admin register "
      "--cube-dimension ...)."));
}

// A nominal dimension's values: its labels without the "other" catch-all
// (which stands for NULL and undeclared values, not a value).
std::vector<std::string> NominalValues(const core::cube::CubeDimension& dim) {
  std::vector<std::string> values = dim.labels;
  if (dim.has_other && !values.empty()) values.pop_back();
  return values;
}

// The tree's public domain of a feature from its declared dimension (whose
// labels/bins every buyer sees in DescribeDataset): bins -> numeric [first
// edge, last edge]; nominal text -> its categories; nominal integers ->
// numeric [smallest, largest] declared value. kFailedPrecondition when the
// dimension gives no usable domain.
absl::StatusOr<sel::FeatureDomain> DomainOf(
    const core::cube::CubeDimension& dim, core::table::ColumnType type) {
  sel::FeatureDomain domain;
  domain.name = dim.column;
  if (!dim.bin_edges.empty()) {
    domain.min = dim.bin_edges.front();
    domain.max = dim.bin_edges.back();
    return domain;
  }
  std::vector<std::string> values = NominalValues(dim);
  if (values.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the cube dimension of column '", dim.column, "' declares no value, "
        "so it gives the tree no domain to test."));
  }
  if (type == core::table::ColumnType::kString) {
    domain.numeric = false;
    domain.categories = std::move(values);
    return domain;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    double v = 0;
    if (!absl::SimpleAtod(values[i], &v) || !std::isfinite(v)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the cube dimension of numeric column '", dim.column,
          "' declares the non-numeric value '", values[i], "'."));
    }
    domain.min = i == 0 ? v : std::min(domain.min, v);
    domain.max = i == 0 ? v : std::max(domain.max, v);
  }
  return domain;
}

// The label's public classes (its nominal dimension's values), which
// must include positive_class. Listing them in the error leaks nothing:
// DescribeDataset shows them.
absl::StatusOr<std::vector<std::string>> LabelClasses(
    const core::cube::CubeSchema& cube,
    const v1::TrainDecisionTreeRequest& request) {
  const core::cube::CubeDimension* label =
      FindDimension(cube, request.label_column());
  if (label == nullptr) return NoPublicDomain(request.label_column());
  if (!label->bin_edges.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "label column '", request.label_column(), "' is declared as a "
        "binned cube dimension; a label needs a nominal one (its values "
        "are the classes)."));
  }
  std::vector<std::string> classes = NominalValues(*label);
  if (std::find(classes.begin(), classes.end(), request.positive_class()) ==
      classes.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "positive_class '", request.positive_class(),
        "' is not a declared value of the label column '",
        request.label_column(), "'; its values are: ",
        absl::StrJoin(classes, ", "), "."));
  }
  return classes;
}

// Public domains of the features (empty request list: every declared
// dimension but the label) and the label's classes, all from the declared
// cube dimensions. Looks at no row, so every error here is safe to report
// before any budget is reserved.
absl::Status PublicDomainsFromCube(const core::table::Schema& schema,
                                   const core::cube::CubeSchema& cube,
                                   const v1::TrainDecisionTreeRequest& request,
                                   sel::DecisionTreeRequest* tree) {
  ASSIGN_OR_RETURN(tree->label_classes, LabelClasses(cube, request));
  std::vector<std::string> features(request.features().begin(),
                                    request.features().end());
  if (features.empty()) {
    for (const core::cube::CubeDimension& dim : cube.dimensions) {
      if (dim.column != request.label_column()) features.push_back(dim.column);
    }
    if (features.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the dataset declares no cube dimension besides the label '",
          request.label_column(), "', so the tree has no feature with a "
          "public domain (dpq admin register --cube-dimension ...)."));
    }
  }
  for (const std::string& feature : features) {
    const core::cube::CubeDimension* dim = FindDimension(cube, feature);
    if (dim == nullptr) return NoPublicDomain(feature);
    const std::optional<size_t> c = schema.FindColumn(feature);
    if (!c.has_value()) {
      return absl::InternalError(absl::StrCat(
          "cube dimension '", feature, "' is not a column of the dataset."));
    }
    ASSIGN_OR_RETURN(sel::FeatureDomain domain,
                     DomainOf(*dim, schema.columns()[*c].type));
    tree->public_domains.push_back(std::move(domain));
  }
  tree->features = std::move(features);
  return absl::OkStatus();
}

}  // namespace

absl::Status BuyerServiceImpl::TrainDecisionTreeImpl(
    const auth::Principal& caller, const v1::TrainDecisionTreeRequest& request,
    v1::TrainDecisionTreeResponse* response, const CallContext& call) const {
  ASSIGN_OR_RETURN(const ReleaseStart start,
                   StartRelease(*registry_, caller, request.dataset_id(),
                                request.request_id(), request.epsilon(),
                                registry::kTrainDecisionTree));
  const registry::LoadedDataset& d = *start.dataset;
  double accuracy_epsilon = 0;
  if (request.accuracy_epsilon() != 0) {
    RETURN_IF_ERROR(core::dp::ValidateRequestEpsilon(
        request.accuracy_epsilon(), "accuracy_epsilon"));
    accuracy_epsilon =
        core::ledger::QuantizedEpsilon(request.accuracy_epsilon());
  }
  ASSIGN_OR_RETURN(const sel::Approach approach,
                   ApproachFromProto(request.approach()));
  ASSIGN_OR_RETURN(const sel::SensitivityMode sensitivity,
                   SensitivityFromProto(request.sensitivity()));
  ASSIGN_OR_RETURN(std::vector<double> weights,
                   internal::CheckSelectionWeights(approach, request.weights(),
                                                   2, "TPR, TNR"));
  ASSIGN_OR_RETURN(const sel::GeneticParameters genetic,
                   GeneticFromRequest(request));
  RETURN_IF_ERROR(CheckColumns(d.table.schema(), request));
  sel::DecisionTreeRequest tree_request;
  RETURN_IF_ERROR(PublicDomainsFromCube(d.table.schema(), d.cube_schema,
                                        request, &tree_request));

  const std::string approach_name(sel::ApproachName(approach));
  const std::string sensitivity_name(sel::SensitivityModeName(sensitivity));
  const std::string features = absl::StrJoin(request.features(), "\n");
  std::vector<std::string> weight_bits;
  for (const double w : weights) weight_bits.push_back(internal::DoubleBits(w));
  // Both parts in exact ledger units: the charge covers their sum.
  int64_t spent_units = *core::ledger::ChargeUnits(start.epsilon);
  if (accuracy_epsilon > 0) {
    spent_units += *core::ledger::ChargeUnits(accuracy_epsilon);
  }
  const core::ledger::ReserveRequest reserve = ReserveFor(
      caller, start, registry::kTrainDecisionTree,
      {{"dataset", request.dataset_id()},
       {"version", absl::StrCat(d.version)},
       {"label", request.label_column()},
       {"positive", request.positive_class()},
       {"features", features},
       {"approach", approach_name},
       {"weights", absl::StrJoin(weight_bits, ",")},
       {"sensitivity", sensitivity_name},
       {"epsilon", internal::DoubleBits(request.epsilon())},
       {"accuracy_epsilon", internal::DoubleBits(request.accuracy_epsilon())},
       {"generations", absl::StrCat(genetic.generations)},
       {"population", absl::StrCat(genetic.population)}},
      absl::StrCat("TrainDecisionTree label=", request.label_column(), " ",
                   approach_name, " ", sensitivity_name,
                   " generations=", genetic.generations,
                   " population=", genetic.population,
                   accuracy_epsilon > 0 ? " with accuracy" : ""),
      core::ledger::EpsilonOfUnits(spent_units));

  tree_request.label_column = request.label_column();
  tree_request.positive_class = request.positive_class();
  tree_request.selection.approach = approach;
  tree_request.selection.sensitivity = sensitivity;
  tree_request.selection.weights = std::move(weights);
  tree_request.selection.epsilon = start.epsilon;
  tree_request.genetic = genetic;
  tree_request.accuracy_epsilon = accuracy_epsilon;
  tree_request.public_max_rows = d.manifest.public_max_rows();
  tree_request.stop = [&call] { return call.Over(); };

  // Held through the computation, which polls call.Over() and so gives it
  // back soon after the call ends; refused before anything is reserved (it
  // depends on the caller's own and the other calls running, not on the
  // data).
  ASSIGN_OR_RETURN(HeavyJobLimiter::Slot slot,
                   heavy_jobs_.TryAcquire("TrainDecisionTree", caller.id));
  return internal::RunRelease<v1::TrainDecisionTreeResponse>(
      *ledger_, reserve, call,
      [&](v1::TrainDecisionTreeResponse* answer) -> absl::Status {
        const std::unique_ptr<core::dp::SecureUrbg> urbg = NewUrbg();
        ASSIGN_OR_RETURN(
            sel::DecisionTreeResult result,
            sel::TrainDpDecisionTree(d.table, tree_request, *urbg));
        TreeToProto(result.tree, answer);
        if (result.tpr.has_value()) answer->set_tpr(*result.tpr);
        if (result.tnr.has_value()) answer->set_tnr(*result.tnr);
        return absl::OkStatus();
      },
      response);
}

}  // namespace dpq::server::buyer
