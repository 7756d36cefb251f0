#include "server/buyer/buyer_convert.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::server::buyer {

namespace pm = core::private_measures;
using core::measures::Measure;

absl::StatusOr<Measure> MeasureFromProto(v1::Measure measure) {
  switch (measure) {
    case v1::MEASURE_MI:
      return Measure::kMinimalInconsistency;
    case v1::MEASURE_P:
      return Measure::kProblematic;
    case v1::MEASURE_R:
      return Measure::kRepair;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "measure must be MEASURE_MI, MEASURE_P or MEASURE_R, but is ",
          v1::Measure_IsValid(measure) ? v1::Measure_Name(measure)
                                       : std::to_string(measure),
          "."));
  }
}

v1::Measure MeasureToProto(Measure measure) {
  switch (measure) {
    case Measure::kMinimalInconsistency:
      return v1::MEASURE_MI;
    case Measure::kProblematic:
      return v1::MEASURE_P;
    case Measure::kRepair:
      return v1::MEASURE_R;
    default:
      return v1::MEASURE_UNSPECIFIED;
  }
}

absl::StatusOr<pm::SelectionMethod> MethodFromProto(
    v1::SelectionMethod method) {
  switch (method) {
    case v1::SELECTION_METHOD_UNSPECIFIED:
    case v1::SELECTION_METHOD_OPTIMIZED:
      return pm::SelectionMethod::kOptimized;
    case v1::SELECTION_METHOD_HIERARCHICAL:
      return pm::SelectionMethod::kHierarchical;
    case v1::SELECTION_METHOD_BASIC:
      return pm::SelectionMethod::kBasic;
    case v1::SELECTION_METHOD_BASELINE:
      return pm::SelectionMethod::kBaseline;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "method must be a SelectionMethod (OPTIMIZED, HIERARCHICAL, BASIC "
          "or BASELINE), but is ",
          static_cast<int>(method), "."));
  }
}

v1::MeasureResult ToMeasureResult(v1::Measure measure,
                                  const pm::PrivateMeasureResult& result) {
  v1::MeasureResult out;
  out.set_measure(measure);
  out.set_value(result.value);
  out.set_epsilon(result.epsilon_spent);
  out.set_theta(result.theta.value_or(0));
  out.set_bound95(result.bound95);
  out.set_method(result.method);
  return out;
}

}  // namespace dpq::server::buyer
