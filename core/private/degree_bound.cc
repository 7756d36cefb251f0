#include "core/private/degree_bound.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
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
  const size_t k = x.size();
  // Keys of the rows without NULL in X, back to back. Reserved up front so
  // that the spans into it stay valid.
  std::vector<uint64_t> keys;
  keys.reserve(table.num_rows() * k);
  absl::flat_hash_map<absl::Span<const uint64_t>, uint64_t> freq;
  uint64_t max_freq = 0;
  for (size_t row = 0; row < table.num_rows(); ++row) {
    bool has_null = false;
    for (size_t c : x) has_null = has_null || table.column(c).is_null(row);
    if (has_null) continue;
    const size_t start = keys.size();
    for (size_t c : x) keys.push_back(CellKey(table.column(c), row));
    const uint64_t f = ++freq[absl::MakeConstSpan(keys.data() + start, k)];
    max_freq = std::max(max_freq, f);
  }
  return max_freq == 0 ? 0 : max_freq - 1;
}

absl::StatusOr<std::vector<DcDegreeBound>> ComputeDegreeBounds(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs) {
  std::vector<DcDegreeBound> out;
  out.reserve(dcs.size());
  for (const constraints::DenialConstraint& dc : dcs) {
    DcDegreeBound b;
    const std::vector<size_t> x = dc.SameColumnEqualities();
    if (!x.empty()) {
      b.keyed = true;
      ASSIGN_OR_RETURN(b.bound, DegreeBoundForColumns(table, x));
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
