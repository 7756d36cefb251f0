// A buyer's measure request (MeasureInconsistency: one measure;
// QualityReport: I_MI, I_P and I_R for one charge), checked in one place
// before any budget is reserved and resolved into the methods and the
// per-measure epsilon each PrivateMeasureRequest runs with.
#ifndef DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_
#define DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"
#include "core/measures/measure.h"
#include "core/private/degree_bound.h"
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

// The public facts about a dataset that the refusals of its releases may
// read (all of them shown by DescribeDataset or fixed by its DCs).
struct PublicDatasetShape {
  uint64_t public_max_rows = 0;  // N
  // DcBoundShape of the dataset's DCs: which DCs are keyed or cross-keyed,
  // every bound 0.
  std::vector<DcDegreeBound> dc_shape;
  uint32_t degree_keys = 0;   // CountDegreeKeys of the DCs
  bool exact_repair = false;  // registered with its exact repair
};

// Every refusal that running `release` on such a dataset could give while
// reading public inputs only (above all a noise scale beyond
// DiscreteLaplace::kMaxScale at theta = N), so that the service gives it
// before anything is reserved. Each of the release's measures (and its row
// count) runs on an empty graph with `shape` and `urbg`, and its output is
// discarded. That finds every such refusal because every release checks
// all the noise scales it may use, at the largest theta it can choose,
// before its first draw, whatever the graph (the tests walk every method
// over extreme N and epsilon). Reads nothing private; O(candidates).
absl::Status CheckMeasureReleaseRuns(const MeasureRelease& release,
                                     const PublicDatasetShape& shape,
                                     dp::SecureUrbg& urbg);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_MEASURE_RELEASE_H_
