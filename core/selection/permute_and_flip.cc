#include "core/selection/permute_and_flip.h"

#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/dp/secure_urbg.h"
#include "core/dp/selection_gap.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {
absl::StatusOr<size_t> SamplePermuteAndFlip(dp::SecureUrbg& urbg,
                                            absl::Span<const double> qualities,
                                            double epsilon,
                                            double sensitivity) {
  ASSIGN_OR_RETURN(const std::vector<dp::SelectionGap> gaps,
                   dp::SelectionGaps(qualities, epsilon, sensitivity));
  // Lazy Fisher-Yates: the next candidate is uniform over the unvisited
  // ones, which is the same as walking one uniform permutation. Each is
  // accepted with probability exp(-gamma_r), exactly (selection_gap.h).
  std::vector<size_t> order(qualities.size());
  std::iota(order.begin(), order.end(), size_t{0});
  for (size_t next = 0; next < order.size(); ++next) {
    const size_t pick = next + urbg.UniformBelow(order.size() - next);
    std::swap(order[next], order[pick]);
    const size_t r = order[next];
    // A best candidate has gap 0 and is always accepted: the pass ends at
    // the latest there.
    if (dp::SampleBernoulliExpGap(gaps[r], urbg)) return r;
  }
  return order.back();  // unreachable: a best candidate is always accepted
}

}  // namespace dpq::core::selection
