#include "core/private/theta_candidates.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::private_measures {

absl::StatusOr<uint32_t> ValidatePublicMaxRows(uint64_t public_max_rows) {
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  if (public_max_rows < 1 || public_max_rows > kMax) {
    return absl::InvalidArgumentError(
        absl::StrCat("public_max_rows must be in [1, ", kMax, "], but is ",
                     public_max_rows, "."));
  }
  return static_cast<uint32_t>(public_max_rows);
}

absl::Status CheckRowsWithinPublicMax(uint64_t num_rows, uint32_t max_rows) {
  if (num_rows > max_rows) {
    return absl::FailedPreconditionError(absl::StrCat(
        "The dataset has more rows than its public_max_rows N = ", max_rows,
        "; raise N (the privacy analysis needs every dataset to have at "
        "most N rows)."));
  }
  return absl::OkStatus();
}

std::vector<uint32_t> DefaultThetaCandidates(uint32_t max_rows) {
  std::vector<uint32_t> out;
  // 64-bit arithmetic: 5 * 10^9 does not fit in 32 bits.
  for (uint64_t decade = 1; decade < max_rows; decade *= 10) {
    for (uint64_t mantissa : {uint64_t{1}, uint64_t{2}, uint64_t{5}}) {
      const uint64_t theta = mantissa * decade;
      if (theta >= max_rows) break;
      out.push_back(static_cast<uint32_t>(theta));
    }
  }
  out.push_back(max_rows);
  return out;
}

absl::StatusOr<std::vector<uint32_t>> NormalizeThetaCandidates(
    absl::Span<const uint64_t> candidates, uint32_t max_rows) {
  if (candidates.empty()) {
    return absl::InvalidArgumentError(
        "The candidate set Theta must not be empty.");
  }
  std::vector<uint32_t> out;
  out.reserve(candidates.size());
  for (uint64_t theta : candidates) {
    if (theta < 1 || theta > max_rows) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Every candidate theta must be in [1, public_max_rows = ", max_rows,
          "], but one is ", theta, "."));
    }
    out.push_back(static_cast<uint32_t>(theta));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

absl::Status CheckSortedCandidates(absl::Span<const uint32_t> thetas) {
  if (thetas.empty()) {
    return absl::InvalidArgumentError(
        "The candidate set Theta must not be empty.");
  }
  for (size_t i = 0; i < thetas.size(); ++i) {
    if (thetas[i] < 1 || (i > 0 && thetas[i] <= thetas[i - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Candidate thetas must be >= 1 and strictly ascending; position ", i,
          " holds ", thetas[i], "."));
    }
  }
  return absl::OkStatus();
}

}  // namespace dpq::core::private_measures
