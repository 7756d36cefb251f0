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
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {
namespace {

// The cell as 64 bits such that equal cells (in the DC sense) map to equal
// keys. Within one column the type is fixed, so keys never mix types.
uint64_t CellKey(const table::Column& column, size_t row) {
  switch (column.type) {
    case table::ColumnType::kInt64:
      return std::bit_cast<uint64_t>(column.int64s[row]);
    case table::ColumnType::kDouble: {
      double d = column.doubles[row];
      if (d == 0.0) d = 0.0;  // -0 == +0
      if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
      return std::bit_cast<uint64_t>(d);
    }
    case table::ColumnType::kString:
      return column.string_ids[row];
  }
  return 0;
}

}  // namespace

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
  // Group the rows by X one column at a time: a row's group id after
  // columns x[0..i] is a dense id of (its id after x[0..i-1], its cell in
  // x[i]). Fixed-size keys in a pre-sized hash map keep this one cheap
  // probe per row and column (a map keyed by the whole X tuple as a span
  // was several times slower at 1M rows). NULL rows never equal anything.
  constexpr uint32_t kNullRow = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> group(table.num_rows(), 0);
  size_t num_groups = 1;
  // Start with a string column if there is one (the order of X does not
  // change the grouping).
  std::vector<size_t> columns(x.begin(), x.end());
  std::stable_partition(columns.begin(), columns.end(), [&](size_t c) {
    return table.column(c).type == table::ColumnType::kString;
  });
  x = columns;
  size_t first = 0;
  if (const table::Column& column = table.column(x[0]);
      column.type == table::ColumnType::kString) {
    // String ids are already dense ids of the values: no hashing needed.
    for (size_t row = 0; row < table.num_rows(); ++row) {
      group[row] = column.is_null(row) ? kNullRow : column.string_ids[row];
    }
    num_groups = table.dictionary().size();
    first = 1;
  }
  for (size_t c : x.subspan(first)) {
    const table::Column& column = table.column(c);
    absl::flat_hash_map<std::pair<uint32_t, uint64_t>, uint32_t> dense;
    dense.reserve(table.num_rows());
    for (size_t row = 0; row < table.num_rows(); ++row) {
      if (group[row] == kNullRow) continue;
      if (column.is_null(row)) {
        group[row] = kNullRow;
        continue;
      }
      const auto key = std::make_pair(group[row], CellKey(column, row));
      group[row] =
          dense.try_emplace(key, static_cast<uint32_t>(dense.size()))
              .first->second;
    }
    num_groups = dense.size();
  }
  std::vector<uint32_t> freq(num_groups, 0);
  uint64_t max_freq = 0;
  for (uint32_t g : group) {
    if (g == kNullRow) continue;
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
