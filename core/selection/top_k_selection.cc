#include "core/selection/top_k_selection.h"

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/dp/budget_split.h"
#include "core/dp/epsilon.h"
#include "core/dp/exponential_mechanism.h"
#include "core/dp/secure_urbg.h"
#include "core/selection/permute_and_flip.h"
#include "core/util/status_macros.h"

namespace dpq::core::selection {

absl::StatusOr<std::vector<size_t>> SelectWithoutReplacement(
    const SelectionScores& scores, size_t k, double epsilon,
    GlobalMechanism mechanism, dp::SecureUrbg& urbg) {
  const size_t n = scores.scores.size();
  if (k == 0 || k > n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The number of candidates to select must be between 1 and the "
        "number of candidates (",
        n, "), but is ", k, "."));
  }
  RETURN_IF_ERROR(dp::ValidateEpsilon(epsilon));
  // Sequential composition: k draws at epsilon / k each (rounded down so
  // that the k parts sum to at most epsilon exactly).
  const double per_draw = dp::EqualPart(epsilon, k);
  std::vector<size_t> remaining(n);
  for (size_t r = 0; r < n; ++r) remaining[r] = r;
  std::vector<double> qualities;
  std::vector<size_t> chosen;
  chosen.reserve(k);
  for (size_t draw = 0; draw < k; ++draw) {
    qualities.clear();
    for (size_t r : remaining) qualities.push_back(scores.scores[r]);
    ASSIGN_OR_RETURN(const size_t pick,
                     mechanism == GlobalMechanism::kPermuteAndFlip
                         ? SamplePermuteAndFlip(urbg, qualities, per_draw,
                                                scores.sensitivity)
                         : dp::SampleExponentialMechanism(
                               urbg, qualities, per_draw, scores.sensitivity));
    chosen.push_back(remaining[pick]);
    remaining.erase(remaining.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return chosen;
}

}  // namespace dpq::core::selection
