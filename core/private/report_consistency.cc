#include "core/private/report_consistency.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace dpq::core::private_measures {
namespace {

// Coordinates: 0 = I_MI, 1 = I_P, 2 = I_R.
constexpr int kMi = 0, kP = 1, kR = 2;

// a . x <= 0, as the coefficients of (I_MI, I_P, I_R).
struct HalfSpace {
  std::array<double, 3> a;
};
constexpr std::array<HalfSpace, 3> kRelations = {{
    {{0, -1, 1}},  // I_R - I_P <= 0
    {{-1, 0, 1}},  // I_R - I_MI <= 0
    {{-2, 1, 0}},  // I_P - 2 I_MI <= 0
}};

// Weighted projection onto a . x <= 0 with metric diag(1 / var): moves x by
// -(a . x) / (sum a_i^2 var_i) * var_i a_i. Absent coordinates have var 0
// and do not move; a relation with an absent coordinate is skipped.
bool Project(const HalfSpace& h, const std::array<bool, 3>& present,
             const std::array<double, 3>& var, std::array<double, 3>& x) {
  double dot = 0, norm = 0;
  for (int i = 0; i < 3; ++i) {
    if (h.a[i] == 0) continue;
    if (!present[i]) return false;
    dot += h.a[i] * x[i];
    norm += h.a[i] * h.a[i] * var[i];
  }
  if (dot <= 1e-9 || norm <= 0) return false;
  for (int i = 0; i < 3; ++i) x[i] -= dot / norm * var[i] * h.a[i];
  return true;
}

}  // namespace

ReportValues MakeReportConsistent(const ReportValues& in) {
  const std::array<const std::optional<ReportValue>*, 3> slots = {&in.mi, &in.p,
                                                                  &in.r};
  std::array<bool, 3> present{};
  std::array<double, 3> x{}, var{};
  std::array<int64_t, 3> lo{}, hi{};
  for (int i = 0; i < 3; ++i) {
    present[i] = slots[i]->has_value();
    if (!present[i]) continue;
    const ReportValue& v = **slots[i];
    lo[i] = std::max<int64_t>(0, std::min(v.lower, v.upper));
    hi[i] = std::max(lo[i], v.upper);
    x[i] = static_cast<double>(std::max<int64_t>(0, v.value));
    const double half = (static_cast<double>(hi[i] - lo[i]) + 1) / 2;
    var[i] = half * half;
  }
  // Cyclic projection onto a polyhedral cone (plus x >= 0, kept by the
  // moves: each lowers a larger value or raises a smaller one) converges;
  // 200 rounds are far more than three relations need.
  for (int round = 0; round < 200; ++round) {
    bool moved = false;
    for (const HalfSpace& h : kRelations) moved |= Project(h, present, var, x);
    if (!moved) break;
  }
  std::array<int64_t, 3> v{};
  for (int i = 0; i < 3; ++i) {
    const int64_t rounded =
        static_cast<int64_t>(std::llround(std::max(0.0, x[i])));
    v[i] = present[i] ? std::clamp(rounded, lo[i], hi[i]) : 0;
  }
  // What the intervals or the rounding leave: raise the smaller side
  // within its interval, else lower the larger (never below 0).
  const auto fix = [&](int small, int large, int64_t factor) {
    if (!present[small] || !present[large]) return;
    if (v[small] <= factor * v[large]) return;
    const int64_t need = (v[small] + factor - 1) / factor;  // ceil
    v[large] = std::max(v[large], std::min(need, hi[large]));
    v[small] = std::min(v[small], factor * v[large]);
  };
  // Raising can break an earlier relation; each pass only raises the
  // smaller sides or lowers the larger, and four passes settle it in every
  // case met; the last lines then guarantee the relations by lowering.
  for (int pass = 0; pass < 4; ++pass) {
    fix(kP, kMi, 2);  // I_P <= 2 I_MI
    fix(kR, kP, 1);   // I_R <= I_P
    fix(kR, kMi, 1);  // I_R <= I_MI
  }
  if (present[kP] && present[kMi]) v[kP] = std::min(v[kP], 2 * v[kMi]);
  if (present[kR] && present[kP]) v[kR] = std::min(v[kR], v[kP]);
  if (present[kR] && present[kMi]) v[kR] = std::min(v[kR], v[kMi]);
  ReportValues out = in;
  const std::array<std::optional<ReportValue>*, 3> outs = {&out.mi, &out.p,
                                                           &out.r};
  for (int i = 0; i < 3; ++i) {
    if (present[i]) (*outs[i])->value = v[i];
  }
  return out;
}

void MakeResultsConsistent(absl::Span<const measures::Measure> measures,
                           std::vector<PrivateMeasureResult>& results) {
  if (measures.size() != results.size() || results.size() < 2) return;
  ReportValues values;
  std::array<PrivateMeasureResult*, 3> owner{};
  for (size_t i = 0; i < results.size(); ++i) {
    const ReportValue v{results[i].value, results[i].lower95,
                        results[i].upper95};
    switch (measures[i]) {
      case measures::Measure::kMinimalInconsistency:
        values.mi = v;
        owner[kMi] = &results[i];
        break;
      case measures::Measure::kProblematic:
        values.p = v;
        owner[kP] = &results[i];
        break;
      case measures::Measure::kRepair:
        values.r = v;
        owner[kR] = &results[i];
        break;
      default:
        break;
    }
  }
  const ReportValues out = MakeReportConsistent(values);
  if (owner[kMi] != nullptr) owner[kMi]->value = out.mi->value;
  if (owner[kP] != nullptr) owner[kP]->value = out.p->value;
  if (owner[kR] != nullptr) owner[kR]->value = out.r->value;
}

}  // namespace dpq::core::private_measures
