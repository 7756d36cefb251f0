#include "core/private/measure_release.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/graph/graph.h"
#include "core/private/row_count_release.h"
#include "core/util/error_details.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

using measures::Measure;

std::string MeasureRelease::MethodName(Measure measure) const {
  return std::string(measure == Measure::kRepair
                         ? RepairMethodName(repair_method)
                         : SelectionMethodName(method));
}

absl::StatusOr<RepairMethod> ResolveRepairMethod(
    std::optional<RepairMethod> requested, bool exact_repair_registered) {
  if (!requested.has_value()) {
    return exact_repair_registered ? RepairMethod::kExact
                                   : RepairMethod::kCoverBound;
  }
  if (*requested == RepairMethod::kExact && !exact_repair_registered) {
    return util::InvalidFieldError(
        "repair_method",
        "repair_method EXACT needs a dataset registered with "
        "exact_repair (see DatasetInfo.exact_repair); use COVER_BOUND.");
  }
  return *requested;
}

absl::StatusOr<MeasureRelease> BuildMeasureRelease(
    const MeasureReleaseSpec& spec, bool exact_repair_registered) {
  if (spec.measures.empty()) {
    return absl::InvalidArgumentError("A release needs at least one measure.");
  }
  MeasureRelease release;
  release.measures = spec.measures;
  release.method = spec.method;
  for (const Measure measure : spec.measures) {
    RETURN_IF_ERROR(CheckMeasureReleasable(measure));
    if (measure == Measure::kRepair) {
      ASSIGN_OR_RETURN(
          release.repair_method,
          ResolveRepairMethod(spec.repair_method, exact_repair_registered));
    }
  }
  double for_measures = spec.epsilon;
  release.row_count = spec.row_count;
  release.row_count_public = spec.row_count_public;
  if (spec.row_count && !spec.row_count_public) {
    const dp::TwoParts parts = dp::SplitEpsilon(spec.epsilon, kRowCountShare);
    release.epsilon_row_count = parts.first;
    for_measures = parts.second;
  }
  release.epsilon_each = dp::EqualPart(for_measures, spec.measures.size());
  return release;
}

absl::Status CheckMeasureReleaseRuns(const MeasureRelease& release,
                                     const PublicDatasetShape& shape,
                                     dp::SecureUrbg& urbg) {
  ASSIGN_OR_RETURN(const graph::Graph empty, graph::Graph::FromEdges(0, {}));
  const auto refused = [&shape](const absl::Status& why) {
    return util::InvalidFieldError(
        "epsilon",
        absl::StrCat("This request cannot be released on this dataset "
                     "(public_max_rows ",
                     shape.public_max_rows,
                     "), whatever its rows: ", why.message(),
                     " Raise epsilon, or ask the owner for a smaller "
                     "public_max_rows. Nothing was charged."));
  };
  for (const Measure measure : release.measures) {
    PrivateMeasureRequest request;
    request.measure = measure;
    request.method = release.method;
    request.repair_method = release.repair_method;
    if (shape.exact_repair) request.exact_repair = 0;
    request.cover_bound = 0;
    request.epsilon = release.epsilon_each;
    request.public_max_rows = shape.public_max_rows;
    if (UsesDegreeBounds(release.method)) {
      request.degree_bounds = shape.dc_shape;
      request.degree_keys = shape.degree_keys;
    }
    const absl::Status ran =
        ComputePrivateMeasure(urbg, empty, request).status();
    if (!ran.ok()) return refused(ran);
  }
  if (release.row_count) {
    const absl::Status ran =
        ReleaseRowCount(urbg, 0, release.row_count_public,
                        release.epsilon_row_count, shape.public_max_rows)
            .status();
    if (!ran.ok()) return refused(ran);
  }
  return absl::OkStatus();
}

}  // namespace dpq::core::private_measures
