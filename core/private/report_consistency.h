// Making the parts of a quality report agree (post-processing, no budget).
//
// The exact measures of one conflict graph always satisfy
//   I_R <= I_P   (a minimum cover uses only nodes with an edge),
//   I_R <= I_MI  (each node of a minimum cover covers an edge of its own),
//   I_P <= 2 I_MI (every edge makes at most two nodes problematic).
// Released independently, the noisy values need not (I_P = 112 beside
// I_MI = 19). MakeReportConsistent moves the values of a report to the
// nearest point that satisfies them, in the least-squares sense weighted
// by the square of each value's interval half-width (the less certain
// value moves more: a lower bound whose interval is wide, because theta
// may cut much, moves before a precise one; the noise scale alone would
// trust a small-theta undercount), by cyclic projection onto the three
// half-spaces; each value is then kept in its own interval, rounded, and a
// remaining violation is fixed by raising the smaller side where its
// interval allows, else lowering the larger. Each interval stays its own
// measure's: it is not narrowed by the others (that would need a joint
// confidence level).
#ifndef DPQ_CORE_PRIVATE_REPORT_CONSISTENCY_H_
#define DPQ_CORE_PRIVATE_REPORT_CONSISTENCY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "core/measures/measure.h"
#include "core/private/private_measures.h"

namespace dpq::core::private_measures {

// One released value and its 95% interval (lower <= upper); absent
// measures are nullopt and constrain nothing.
struct ReportValue {
  int64_t value = 0;
  int64_t lower = 0;
  int64_t upper = 0;
};

struct ReportValues {
  std::optional<ReportValue> mi, p, r;
};

// The adjusted values (same presence as the input), all >= 0 and
// satisfying the three relations among those present; each inside its
// interval whenever the intervals admit a consistent point.
ReportValues MakeReportConsistent(const ReportValues& in);

// The same on released results: results[i] released measures[i] (sizes
// match); the values of I_MI, I_P and I_R among them are adjusted in place
// (a single result, or other measures, are left alone).
void MakeResultsConsistent(absl::Span<const measures::Measure> measures,
                           std::vector<PrivateMeasureResult>& results);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_REPORT_CONSISTENCY_H_
