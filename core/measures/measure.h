// The five inconsistency measures of Livshits et al. (paper Def. 1).
#ifndef DPQ_CORE_MEASURES_MEASURE_H_
#define DPQ_CORE_MEASURES_MEASURE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dpq::core::measures {

enum class Measure {
  kDrastic,               // I_D: 1 if any conflict
  kMinimalInconsistency,  // I_MI: number of conflicting pairs (edges)
  kProblematic,           // I_P: tuples in some conflict (positive degree)
  kRepair,                // I_R: minimum tuple deletions (min vertex cover)
  kMaximalConsistency,    // I_MC: maximal consistent subsets (maximal
                          //       independent sets)
};

// Short names used on the command line and in JSON: "d", "mi", "p", "r",
// "mc" (ParseMeasure is case-insensitive and also accepts "I_MI" etc.).
absl::StatusOr<Measure> ParseMeasure(absl::string_view text);
// "D", "MI", "P", "R", "MC".
absl::string_view MeasureName(Measure measure);

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_MEASURE_H_
