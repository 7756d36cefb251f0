#include "server/buyer/release_identity.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/measures/measure.h"
#include "core/selection/nodes/influential_nodes_request.h"
#include "server/buyer/release_helpers.h"

namespace dpq::server::buyer {

namespace sel = core::selection;
using core::measures::Measure;
using internal::DoubleBits;

std::string WeightBits(const std::vector<double>& weights) {
  std::vector<std::string> bits;
  for (const double w : weights) bits.push_back(DoubleBits(w));
  return absl::StrJoin(bits, ",");
}

ReleaseIdentity MeasureInconsistencyIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon) {
  const Measure measure = release.measures.front();
  // Only the method that applies to the measure is part of the identity.
  const std::string method = release.MethodName(measure);
  const std::string measure_name(core::measures::MeasureName(measure));
  return {{{"measure", measure_name},
           {"epsilon", DoubleBits(epsilon)},
           {"method", method}},
          absl::StrCat("MeasureInconsistency ", measure_name, " ", method)};
}

ReleaseIdentity QualityReportIdentity(
    const core::private_measures::MeasureRelease& release, double epsilon) {
  const std::string methods =
      absl::StrCat(release.MethodName(Measure::kMinimalInconsistency), ",",
                   release.MethodName(Measure::kRepair));
  ReleaseIdentity identity{{{"measure", "MI,P,R"},
                            {"epsilon", DoubleBits(epsilon)},
                            {"method", methods}},
                           absl::StrCat("QualityReport MI,P,R ", methods)};
  // A retry must ask for the same parts: the row count is one of them.
  if (release.row_count) {
    identity.parameters.emplace_back("row_count", "1");
    absl::StrAppend(&identity.operation, " +rows");
  }
  return identity;
}

ReleaseIdentity ReleaseCuboidsIdentity(
    const v1::ReleaseCuboidsRequest& request,
    const core::cube::CuboidRequest& cuboids) {
  ReleaseIdentity identity;
  identity.parameters = {
      {"epsilon", DoubleBits(request.epsilon())},
      {"non_negative_integral", request.non_negative_integral() ? "1" : "0"}};
  // One line per cuboid, its dimensions joined by newlines (escaped by
  // FingerprintOf), so that no column name can mimic another list.
  std::vector<std::string> listed;  // "[Sex,Age] [Age]"
  for (const std::vector<std::string>& dims : cuboids.cuboids) {
    identity.parameters.emplace_back("cuboid", absl::StrJoin(dims, "\n"));
    listed.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  }
  identity.operation =
      absl::StrCat("ReleaseCuboids ", absl::StrJoin(listed, " "),
                   request.non_negative_integral() ? " integral" : "");
  return identity;
}

ReleaseIdentity TrainDecisionTreeIdentity(
    const v1::TrainDecisionTreeRequest& request,
    const sel::DecisionTreeRequest& tree) {
  const std::string approach(sel::ApproachName(tree.selection.approach));
  const std::string sensitivity(
      sel::SensitivityModeName(tree.selection.sensitivity));
  return {{{"label", request.label_column()},
           {"positive", request.positive_class()},
           {"features", absl::StrJoin(request.features(), "\n")},
           {"approach", approach},
           {"weights", WeightBits(tree.selection.weights)},
           {"sensitivity", sensitivity},
           {"epsilon", DoubleBits(request.epsilon())},
           {"accuracy_epsilon", DoubleBits(request.accuracy_epsilon())},
           {"generations", absl::StrCat(tree.genetic.generations)},
           {"population", absl::StrCat(tree.genetic.population)}},
          absl::StrCat("TrainDecisionTree label=", request.label_column(), " ",
                       approach, " ", sensitivity,
                       " generations=", tree.genetic.generations,
                       " population=", tree.genetic.population,
                       tree.accuracy_epsilon > 0 ? " with accuracy" : "")};
}

ReleaseIdentity SelectInfluentialNodesIdentity(
    const v1::SelectInfluentialNodesRequest& request,
    const sel::InfluentialNodesRequest& nodes) {
  const std::string approach(sel::ApproachName(nodes.selection.approach));
  const std::string sensitivity(
      sel::SensitivityModeName(nodes.selection.sensitivity));
  const std::string objectives = sel::NodeObjectiveList(nodes.objectives);
  return {{{"k", absl::StrCat(request.k())},
           {"objectives", objectives},
           {"approach", approach},
           {"weights", WeightBits(nodes.selection.weights)},
           {"sensitivity", sensitivity},
           {"epsilon", DoubleBits(request.epsilon())}},
          absl::StrCat("SelectInfluentialNodes k=", request.k(), " ", approach,
                       " ", sensitivity, " ", objectives)};
}

}  // namespace dpq::server::buyer
