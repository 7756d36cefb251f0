#include "core/selection/dampening.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace dpq::core::selection {
namespace {

// a + b = sum + error exactly (Knuth's TwoSum; round to nearest).
void TwoSum(double a, double b, double& sum, double& error) {
  sum = a + b;
  const double b_virtual = sum - a;
  const double a_virtual = sum - b_virtual;
  error = (a - a_virtual) + (b - b_virtual);
}

// A sum of doubles kept exactly, as a nonoverlapping expansion (Shewchuk,
// "Adaptive precision floating-point arithmetic", 1997: components of
// increasing magnitude whose exact sum is the value; zeros dropped). The
// breakpoints b_t of the dampening are such sums: computed exactly, they
// keep the inequality the proof needs, b_{t+1}(y) >= delta_0(y) + b_t(x),
// which holds term by term for the (rounded, hence still ordered) deltas,
// where a running double sum can break it by its rounding (about
// t^2 2^-53 in D units, above the selection margin at 10^5 levels). The
// deltas of the rate sensitivities span a few binades, so an expansion
// keeps two or three components.
class ExactSum {
 public:
  void Add(double x) { components_ = Grow(components_, x); }
  // The sign of (this sum + x - y), exactly.
  int SignPlusMinus(double x, double y) const {
    const std::vector<double> e = Grow(Grow(components_, x), -y);
    return e.empty() ? 0 : (e.back() > 0 ? 1 : -1);
  }
  // y - this sum, rounded once more than the exact difference (the
  // components summed from the smallest: error within 2 ulp).
  double Below(double y) const {
    const std::vector<double> e = Grow(Negated(), y);
    double out = 0;
    for (double c : e) out += c;
    return out;
  }

 private:
  // GROW-EXPANSION: e + x, exactly.
  static std::vector<double> Grow(const std::vector<double>& e, double x) {
    std::vector<double> out;
    out.reserve(e.size() + 1);
    double q = x;
    for (double c : e) {
      double sum, error;
      TwoSum(q, c, sum, error);
      if (error != 0) out.push_back(error);
      q = sum;
    }
    if (q != 0 || out.empty()) out.push_back(q);
    if (out.size() == 1 && out[0] == 0) out.clear();
    return out;
  }
  std::vector<double> Negated() const {
    std::vector<double> out = components_;
    for (double& c : out) c = -c;
    return out;
  }

  std::vector<double> components_;  // increasing magnitude
};

}  // namespace

absl::StatusOr<double> Dampen(double u,
                              absl::FunctionRef<double(uint64_t)> delta_at,
                              double global, uint64_t max_steps) {
  if (!std::isfinite(u)) {
    return absl::InvalidArgumentError(
        absl::StrCat("The score to dampen must be finite, but is ", u, "."));
  }
  if (!std::isfinite(global) || global <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Local dampening needs a finite positive global sensitivity, but it "
        "is ",
        global, "."));
  }
  // Odd extension (D(-u) = -D(u)): work on |u| and restore the sign.
  const double sign = u < 0 ? -1.0 : 1.0;
  const double a = std::fabs(u);
  ExactSum level_start;  // b_t = sum_{j<t} min(delta(j), global), exactly
  for (uint64_t t = 0; t < max_steps; ++t) {
    const double raw = delta_at(t);
    if (!std::isfinite(raw) || raw < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "A sensitivity function must return finite non-negative values, "
          "but returned ",
          raw, " at distance ", t, "."));
    }
    // The cap at the global sensitivity keeps delta admissible (dampening.h).
    const double delta = raw < global ? raw : global;
    // a < b_t + delta, decided exactly (a >= b_t holds by the loop). The
    // value is then t + (a - b_t) / delta with a - b_t rounded: an error
    // of a few ulp of a fraction in [0, 1), far inside the selection's
    // margin, and D stays continuous across levels.
    if (level_start.SignPlusMinus(delta, a) > 0) {
      return sign * (static_cast<double>(t) + level_start.Below(a) / delta);
    }
    level_start.Add(delta);
  }
  // Tail: delta = global from T_max on (admissible after the cap).
  return sign *
         (static_cast<double>(max_steps) + level_start.Below(a) / global);
}

}  // namespace dpq::core::selection
