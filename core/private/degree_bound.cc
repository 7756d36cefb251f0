#include "core/private/degree_bound.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/discrete_laplace.h"
#include "core/graph/row_groups.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

absl::StatusOr<uint64_t> DegreeBoundForColumns(const table::Table& table,
                                               absl::Span<const size_t> x) {
  if (x.empty()) {
    return absl::InvalidArgumentError(
        "The degree bound needs at least one equality column.");
  }
  for (size_t c : x) {
    if (c >= table.num_columns()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Column index ", c, " is out of range; the table has ",
                       table.num_columns(), " columns."));
    }
  }
  // Rows with a NULL in X equal nothing; the others are grouped by X on
  // integer codes (graph::RefineRowGroups: no hashing for string columns
  // and small integer spans).
  const size_t n = table.num_rows();
  if (x.size() == 1 && table.column(x[0]).type == table::ColumnType::kString) {
    // One string column: its dictionary ids are the groups already.
    const table::Column& column = table.column(x[0]);
    std::vector<uint32_t> freq(table.dictionary().size(), 0);
    uint64_t max_freq = 0;
    for (size_t row = 0; row < n; ++row) {
      if (column.is_null(row)) continue;
      max_freq = std::max<uint64_t>(max_freq, ++freq[column.string_ids[row]]);
    }
    return max_freq == 0 ? 0 : max_freq - 1;
  }
  std::vector<uint32_t> group(n, 0);
  for (size_t c : x) {
    const table::Column& column = table.column(c);
    for (size_t row = 0; row < n; ++row) {
      if (column.is_null(row)) group[row] = graph::kNoRowGroup;
    }
  }
  const uint32_t num_groups = graph::RefineRowGroups(table, x, 1, &group);
  std::vector<uint32_t> freq(num_groups, 0);
  uint64_t max_freq = 0;
  for (uint32_t g : group) {
    if (g == graph::kNoRowGroup) continue;
    max_freq = std::max<uint64_t>(max_freq, ++freq[g]);
  }
  return max_freq == 0 ? 0 : max_freq - 1;
}

absl::StatusOr<std::vector<DcDegreeBound>> ComputeDegreeBounds(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs) {
  std::vector<DcDegreeBound> out;
  out.reserve(dcs.size());
  // DCs often share their equality columns (5 of the 8 tax FDs start with
  // zip): compute each distinct column set once.
  absl::flat_hash_map<std::vector<size_t>, uint64_t> by_columns;
  for (const constraints::DenialConstraint& dc : dcs) {
    DcDegreeBound b;
    std::vector<size_t> x = dc.SameColumnEqualities();
    if (!x.empty()) {
      b.keyed = true;
      std::sort(x.begin(), x.end());
      if (auto it = by_columns.find(x); it != by_columns.end()) {
        b.bound = it->second;
      } else {
        ASSIGN_OR_RETURN(b.bound, DegreeBoundForColumns(table, x));
        by_columns.emplace(std::move(x), b.bound);
      }
    }
    out.push_back(b);
  }
  return out;
}

uint32_t CountMinimalKeys(absl::Span<const constraints::DenialConstraint> dcs) {
  std::vector<std::vector<size_t>> keys;
  for (const constraints::DenialConstraint& dc : dcs) {
    std::vector<size_t> x = dc.SameColumnEqualities();
    if (x.empty()) continue;
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end()), x.end());
    if (std::find(keys.begin(), keys.end(), x) == keys.end()) {
      keys.push_back(std::move(x));
    }
  }
  uint32_t minimal = 0;
  for (const std::vector<size_t>& x : keys) {
    const bool has_proper_subset =
        std::any_of(keys.begin(), keys.end(), [&](const auto& y) {
          return y.size() < x.size() &&
                 std::includes(x.begin(), x.end(), y.begin(), y.end());
        });
    minimal += has_proper_subset ? 0 : 1;
  }
  return minimal;
}

uint64_t LargestDegreeBound(absl::Span<const DcDegreeBound> bounds) {
  uint64_t largest = 0;
  for (const DcDegreeBound& b : bounds) {
    if (b.keyed) largest = std::max(largest, b.bound);
  }
  return largest;
}

bool DegreeBoundApplies(absl::Span<const DcDegreeBound> bounds) {
  const size_t keyed = static_cast<size_t>(
      std::count_if(bounds.begin(), bounds.end(),
                    [](const DcDegreeBound& b) { return b.keyed; }));
  return keyed >= 1 && 2 * keyed >= bounds.size();
}

bool HasUnkeyedDc(absl::Span<const DcDegreeBound> bounds) {
  return std::any_of(bounds.begin(), bounds.end(),
                     [](const DcDegreeBound& b) { return !b.keyed; });
}

absl::StatusOr<uint32_t> NoisyDegreeBound(
    dp::SecureUrbg& urbg, absl::Span<const DcDegreeBound> bounds,
    double epsilon, uint32_t max_rows) {
  uint64_t keyed = 0;
  int64_t sum = 0;
  for (const DcDegreeBound& b : bounds) {
    if (!b.keyed) continue;
    ++keyed;
    // Each bound is < 2^32 (rows are 32-bit ids); the sum of a few thousand
    // cannot overflow, and saturating keeps it an upper bound anyway.
    sum = static_cast<int64_t>(
        std::min<uint64_t>(static_cast<uint64_t>(sum) + b.bound,
                           std::numeric_limits<int64_t>::max() / 2));
  }
  if (keyed == 0) {
    return absl::InvalidArgumentError(
        "The degree bound needs a DC with a same-column equality "
        "(t1.A = t2.A).");
  }
  // Sensitivity k: each keyed DC's d_bound moves by at most 1 (Lemma 3).
  ASSIGN_OR_RETURN(
      const dp::DiscreteLaplace noise,
      dp::DiscreteLaplace::ForSensitivity(static_cast<double>(keyed), epsilon));
  int64_t noisy = 0;
  if (__builtin_add_overflow(sum, noise.Sample(urbg), &noisy)) {
    noisy = std::numeric_limits<int64_t>::max();
  }
  return static_cast<uint32_t>(
      std::clamp<int64_t>(noisy, 1, static_cast<int64_t>(max_rows)));
}

}  // namespace dpq::core::private_measures
