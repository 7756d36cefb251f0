// A buyer's measure request (MeasureInconsistency: one measure;
// QualityReport: I_MI, I_P and I_R for one charge), checked in one place
// before any budget is reserved and resolved into the methods and the
// per-measure epsilon each PrivateMeasureRequest runs with.
#ifndef DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_
#define DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"

namespace dpq::core::private_measures {

// What a buyer asks for, before any check.
struct MeasureReleaseSpec {
  // Released in this order, each with an equal part of epsilon.
  std::vector<measures::Measure> measures;
  // For I_MI and I_P.
  SelectionMethod method = SelectionMethod::kGroupBound;
  // For I_R; empty: the dataset's default (ResolveRepairMethod).
  std::optional<RepairMethod> repair_method;
  // The whole release's: a valid epsilon (dp::ValidateRequestEpsilon; the
  // service checks it with the release's other fields).
  double epsilon = 0;
  // Also release the row count (row_count_release.h): kRowCountShare of
  // epsilon, or nothing when the owner published the row count.
  bool row_count = false;
  bool row_count_public = false;
};

// A checked request.
struct MeasureRelease {
  std::vector<measures::Measure> measures;
  SelectionMethod method = SelectionMethod::kGroupBound;
  RepairMethod repair_method = RepairMethod::kCoverBound;
  // What each measure runs at: epsilon (less the row count's part) split
  // in equal parts; all parts sum to at most epsilon exactly
  // (dp::SplitEpsilon, dp::EqualPart; sequential composition).
  double epsilon_each = 0;
  // The row count, if asked for; its epsilon is 0 when it is public.
  bool row_count = false;
  bool row_count_public = false;
  double epsilon_row_count = 0;

  // The name of the method `measure` is released with (the repair
  // method's for I_R, the selection method's otherwise).
  std::string MethodName(measures::Measure measure) const;
};

// The repair method to release I_R with: `requested`, or when empty kExact
// if the owner registered the dataset with its exact repair and
// kCoverBound otherwise. kInvalidArgument for kExact on a dataset without
// it (both facts are public: DatasetInfo.exact_repair).
absl::StatusOr<RepairMethod> ResolveRepairMethod(
    std::optional<RepairMethod> requested, bool exact_repair_registered);

// Checks that `spec` asks for at least one measure and only releasable
// ones (CheckMeasureReleasable), resolves the repair method if I_R is
// among them (ResolveRepairMethod) and splits epsilon. kInvalidArgument
// otherwise.
absl::StatusOr<MeasureRelease> BuildMeasureRelease(
    const MeasureReleaseSpec& spec, bool exact_repair_registered);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_
