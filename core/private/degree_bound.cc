#include "core/private/degree_bound.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/dp/discrete_laplace.h"
#include "core/graph/row_groups.h"
#include "core/util/status_macros.h"

namespace dpq::core::private_measures {

namespace {

absl::Status CheckColumn(const table::Table& table, size_t c) {
  if (c < table.num_columns()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Column index ", c, " is out of range; the table has ",
                   table.num_columns(), " columns."));
}

// The largest number of rows without a NULL in X that agree on all of X
// (0 for none). X is non-empty and in range.
uint64_t LargestGroupSize(const table::Table& table,
                          absl::Span<const size_t> x) {
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
    return max_freq;
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
  return max_freq;
}

// The double's bits with -0 read as +0 and every NaN as one value: equal
// keys for cells a comparison calls equal (and for NaNs, which only raises
// a count).
uint64_t DoubleKey(double v) {
  if (v == 0) v = 0;
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  return std::bit_cast<uint64_t>(v);
}

// c of a cross-column equality t1.a = t2.b (degree_bound.h).
absl::StatusOr<uint64_t> CrossBound(const table::Table& table, size_t a,
                                    size_t b) {
  const table::Column& ca = table.column(a);
  const table::Column& cb = table.column(b);
  if (ca.is_numeric() != cb.is_numeric()) {
    return absl::InvalidArgumentError(
        "A DC compares a string column with a number column; validate the "
        "DCs against the table first.");
  }
  // Numbers compare as int64 only when both sides are int64.
  const bool as_double = ca.is_numeric() && ca.type != cb.type;
  ASSIGN_OR_RETURN(const uint64_t fa, LargestValueCount(table, a, as_double));
  ASSIGN_OR_RETURN(const uint64_t fb, LargestValueCount(table, b, as_double));
  return std::max(fa, fb);
}

// The first cross-column equality t1.A = t2.B of `dc` (the parser puts t1
// on the left of a join), if any.
std::optional<std::pair<size_t, size_t>> CrossEquality(
    const constraints::DenialConstraint& dc) {
  for (const constraints::Predicate& p : dc.predicates) {
    if (p.is_join() && p.op == constraints::CompareOp::kEq &&
        p.lhs.column != p.rhs.column) {
      return std::pair{p.lhs.column, p.rhs.column};
    }
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<uint64_t> DegreeBoundForColumns(const table::Table& table,
                                               absl::Span<const size_t> x) {
  if (x.empty()) {
    return absl::InvalidArgumentError(
        "The degree bound needs at least one equality column.");
  }
  for (size_t c : x) RETURN_IF_ERROR(CheckColumn(table, c));
  const uint64_t largest = LargestGroupSize(table, x);
  return largest == 0 ? 0 : largest - 1;
}

absl::StatusOr<uint64_t> LargestValueCount(const table::Table& table,
                                           size_t column, bool as_double) {
  RETURN_IF_ERROR(CheckColumn(table, column));
  const table::Column& c = table.column(column);
  if (!as_double || c.type != table::ColumnType::kInt64) {
    const size_t x[] = {column};
    return LargestGroupSize(table, x);
  }
  absl::flat_hash_map<uint64_t, uint32_t> freq;
  uint64_t largest = 0;
  for (size_t row = 0; row < table.num_rows(); ++row) {
    if (c.is_null(row)) continue;
    largest = std::max<uint64_t>(largest, ++freq[DoubleKey(c.numeric_at(row))]);
  }
  return largest;
}

std::vector<DcDegreeBound> DcBoundShape(
    absl::Span<const constraints::DenialConstraint> dcs) {
  std::vector<DcDegreeBound> out(dcs.size());
  for (size_t i = 0; i < dcs.size(); ++i) {
    out[i].keyed = !dcs[i].SameColumnEqualities().empty();
    out[i].cross_keyed = !out[i].keyed && CrossEquality(dcs[i]).has_value();
  }
  return out;
}

absl::StatusOr<std::vector<DcDegreeBound>> ComputeDegreeBounds(
    const table::Table& table,
    absl::Span<const constraints::DenialConstraint> dcs) {
  // The flags come from DcBoundShape, so that the public shape the
  // pre-reservation checks read is the one the releases see.
  std::vector<DcDegreeBound> out = DcBoundShape(dcs);
  // DCs often share their equality columns (5 of the 8 tax FDs start with
  // zip): compute each distinct column set once.
  absl::flat_hash_map<std::vector<size_t>, uint64_t> by_columns;
  for (size_t i = 0; i < dcs.size(); ++i) {
    DcDegreeBound& b = out[i];
    if (b.keyed) {
      std::vector<size_t> x = dcs[i].SameColumnEqualities();
      std::sort(x.begin(), x.end());
      if (auto it = by_columns.find(x); it != by_columns.end()) {
        b.bound = it->second;
      } else {
        ASSIGN_OR_RETURN(b.bound, DegreeBoundForColumns(table, x));
        by_columns.emplace(std::move(x), b.bound);
      }
    } else if (b.cross_keyed) {
      const std::pair<size_t, size_t> pair = *CrossEquality(dcs[i]);
      if (pair.first >= table.num_columns() ||
          pair.second >= table.num_columns()) {
        return absl::InvalidArgumentError(
            "A DC names a column the table does not have.");
      }
      ASSIGN_OR_RETURN(b.cross_bound,
                       CrossBound(table, pair.first, pair.second));
    }
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

uint32_t CountDegreeKeys(absl::Span<const constraints::DenialConstraint> dcs) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (const constraints::DenialConstraint& dc : dcs) {
    if (!dc.SameColumnEqualities().empty()) continue;
    std::optional<std::pair<size_t, size_t>> pair = CrossEquality(dc);
    if (!pair.has_value()) continue;
    if (pair->first > pair->second) std::swap(pair->first, pair->second);
    if (std::find(pairs.begin(), pairs.end(), *pair) == pairs.end()) {
      pairs.push_back(*pair);
    }
  }
  return CountMinimalKeys(dcs) + 2 * static_cast<uint32_t>(pairs.size());
}

uint64_t LargestDegreeBound(absl::Span<const DcDegreeBound> bounds) {
  uint64_t largest = 0;
  for (const DcDegreeBound& b : bounds) {
    largest = std::max(largest, b.group_bound());
  }
  return largest;
}

bool EveryDcBounded(absl::Span<const DcDegreeBound> bounds) {
  return !bounds.empty() &&
         std::all_of(bounds.begin(), bounds.end(),
                     [](const DcDegreeBound& b) { return b.bounded(); });
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
