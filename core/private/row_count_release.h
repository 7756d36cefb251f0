// The DP row count a quality report may include, so that buyers can put
// the measures per row (I_P / rows) and compare datasets of different
// sizes.
//
// The count of rows has sensitivity 1 under unbounded DP (one row added or
// removed changes it by one), so count + DiscreteLaplace(1 / epsilon) is
// epsilon-DP; on datasets with public exact cuboids the caller charges the
// group-privacy multiple, as for every other release (docs/privacy.md 1.1).
// Where the owner published the row count (row_count_public), it is
// returned exact and costs nothing. The value is clamped to [0, N]
// (post-processing) and comes with its two-sided 95% interval (2.5% each
// side, the noise is all the error).
#ifndef DPQ_CORE_PRIVATE_ROW_COUNT_RELEASE_H_
#define DPQ_CORE_PRIVATE_ROW_COUNT_RELEASE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/dp/secure_urbg.h"

namespace dpq::core::private_measures {

// Share of a report's epsilon spent on the row count when it is asked for
// and not public; the three measures share the rest equally.
inline constexpr double kRowCountShare = 0.1;

struct RowCountRelease {
  int64_t value = 0;    // clamped to [0, N]
  int64_t bound95 = 0;  // 95% bound of |noise| (0 when exact)
  int64_t lower95 = 0;
  int64_t upper95 = 0;
  double epsilon = 0;  // spent (0 when exact)
  bool exact = false;  // the owner's public row count
};

// rows + DiscreteLaplace(1 / epsilon), or `rows` itself when `rows_public`
// (epsilon is then ignored). `max_rows` is N (>= rows). kInvalidArgument
// for a bad epsilon (not public) or rows > max_rows.
absl::StatusOr<RowCountRelease> ReleaseRowCount(dp::SecureUrbg& urbg,
                                                uint64_t rows, bool rows_public,
                                                double epsilon,
                                                uint64_t max_rows);

}  // namespace dpq::core::private_measures

#endif  // DPQ_CORE_PRIVATE_ROW_COUNT_RELEASE_H_
