#include "core/measures/certified_packing_lp.h"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dpq::core::measures {
namespace {

// GLPK's floating simplex stops within about 1e-9 of a vertex on these
// LPs; its exact simplex reports correctly rounded doubles (within one
// unit in the last place, below 2.3e-16 relative). Each attempt reads the
// values with a tolerance above that error, and the largest denominator
// it accepts keeps denominator * tolerance < 1/4 (rational_recovery.h).
constexpr double kFloatTolerance = 1e-9;
constexpr double kExactTolerance = 4.5e-16;
// LPs with this many columns or more are first solved by GLPK's interior
// point method: GLPK's simplex needs a pivot per fractional value, and its
// time grows with the square of the size (14 s at 12,000 nodes of a
// squared cycle, against 0.2 s by interior point; 9 s at 300,000). The
// interior point method converges to the centre of the optimal face,
// which is rational when that face is a vertex or symmetric about one; it
// stops within about 1e-9 of it. Otherwise its values do not certify and
// the simplex runs as for smaller LPs.
constexpr int kInteriorPointColumns = 5000;
constexpr double kInteriorTolerance = 1e-7;
// Duals larger than this are not expected on packing LPs with 0/+-1 rows
// (and would only make the check overflow): such a proposal fails.
constexpr double kMaxDual = 1 << 20;

double MaxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

}  // namespace

CertifiedPackingLp::CertifiedPackingLp() : lp_(glp_create_prob()) {
  glp_set_obj_dir(lp_, GLP_MAX);
}

CertifiedPackingLp::~CertifiedPackingLp() { glp_delete_prob(lp_); }

void CertifiedPackingLp::FreeThreadEnvironment() { glp_free_env(); }

int CertifiedPackingLp::AddColumns(int count, int32_t objective) {
  const int first = glp_add_cols(lp_, count);
  for (int c = first; c < first + count; ++c) {
    glp_set_col_bnds(lp_, c, GLP_DB, 0.0, 1.0);
    glp_set_obj_coef(lp_, c, objective);
    objective_.push_back(objective);
  }
  return first;
}

void CertifiedPackingLp::AddRow(absl::Span<const std::pair<int, int32_t>> terms,
                                int32_t upper) {
  const int row = glp_add_rows(lp_, 1);
  glp_set_row_bnds(lp_, row, GLP_UP, 0.0, upper);
  std::vector<int> index(1, 0);
  std::vector<double> value(1, 0.0);
  for (const auto& [column, coefficient] : terms) {
    index.push_back(column);
    value.push_back(coefficient);
    term_column_.push_back(column - 1);
    term_coefficient_.push_back(coefficient);
  }
  glp_set_mat_row(lp_, row, static_cast<int>(terms.size()), index.data(),
                  value.data());
  row_begin_.push_back(term_column_.size());
  upper_.push_back(upper);
}

absl::StatusOr<CertifiedPackingLp::Bounds> CertifiedPackingLp::Maximize(
    absl::string_view what, Precision precision) {
  if (precision == Precision::kBounds &&
      num_columns() >= kInteriorPointColumns) {
    glp_iptcp ipt;
    glp_init_iptcp(&ipt);
    ipt.msg_lev = GLP_MSG_OFF;
    if (glp_interior(lp_, &ipt) == 0 && glp_ipt_status(lp_) == GLP_OPT) {
      if (std::optional<Bounds> b =
              Certify(Solution::kInteriorPoint, kInteriorTolerance)) {
        return *std::move(b);
      }
    }
  }
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  // The dual simplex: 3x faster than the primal on these LPs (measured on
  // tax-like tables), and the right one after rows are added.
  parm.meth = GLP_DUALP;
  int code = glp_simplex(lp_, &parm);
  if (code == 0 && glp_get_status(lp_) == GLP_OPT) {
    std::optional<Bounds> b = Certify(Solution::kSimplex, kFloatTolerance);
    if (b.has_value() && b->exact()) return *std::move(b);
    // Re-solved from the floating basis in rational arithmetic: GLPK's
    // values are then the exact optimum's, correctly rounded.
    code = glp_exact(lp_, &parm);
    if (code == 0 && glp_get_status(lp_) == GLP_OPT) {
      b = Certify(Solution::kSimplex, kExactTolerance);
      if (b.has_value() && b->exact()) return *std::move(b);
      return absl::InternalError(absl::StrCat(
          "The optimum of ", what,
          " could not be certified in exact arithmetic (its optimal vertex "
          "has denominators beyond what GLPK's doubles carry), so no cover "
          "bound is produced rather than an uncertain one."));
    }
  }
  return absl::InternalError(absl::StrCat("GLPK did not solve ", what,
                                          " (code ", code, ", status ",
                                          glp_get_status(lp_), ")."));
}

std::optional<CertifiedPackingLp::Bounds> CertifiedPackingLp::Certify(
    Solution solution, double tolerance) const {
  const bool ipt = solution == Solution::kInteriorPoint;
  const int num_rows = static_cast<int>(upper_.size());
  std::vector<double> x(objective_.size());
  for (size_t j = 0; j < x.size(); ++j) {
    const int column = static_cast<int>(j + 1);
    x[j] = ipt ? glp_ipt_col_prim(lp_, column) : glp_get_col_prim(lp_, column);
  }
  std::vector<double> u(num_rows);
  for (int r = 0; r < num_rows; ++r) {
    u[r] = ipt ? glp_ipt_row_dual(lp_, r + 1) : glp_get_row_dual(lp_, r + 1);
  }
  // The primal must be read exactly: its feasibility is what makes c^T x a
  // lower bound, and the cuts are taken from it.
  std::optional<ScaledIntegers> primal =
      RecoverCommonDenominator(x, tolerance, int64_t{1} << 46, 1.0 + tolerance);
  if (!primal.has_value() || !PrimalFeasible(*primal)) return std::nullopt;
  // Any u >= 0 gives an upper bound. Read exactly when it can be (a vertex
  // of the dual: then the bounds meet), else on a grid of 2^-32, rounded
  // down (an interior point's dual, the centre of a dual optimal face, need
  // not be rational; the bound is then a hair above the optimum).
  const double max_dual = MaxAbs(u);
  if (max_dual > kMaxDual) return std::nullopt;
  std::optional<ScaledIntegers> dual = RecoverCommonDenominator(
      u, tolerance * std::max(1.0, max_dual), int64_t{1} << 40, kMaxDual);
  if (!dual.has_value()) dual = OnGrid(u);
  __int128 primal_value = 0;
  for (size_t j = 0; j < objective_.size(); ++j) {
    const __int128 term =
        static_cast<__int128>(objective_[j]) * primal->numerators[j];
    if (__builtin_add_overflow(primal_value, term, &primal_value)) {
      return std::nullopt;
    }
  }
  const std::optional<__int128> dual_value = DualObjective(*dual);
  if (!dual_value.has_value()) return std::nullopt;
  Bounds out;
  out.lower = {primal_value, primal->denominator};
  out.upper = {*dual_value, dual->denominator};
  out.primal = *std::move(primal);
  return out;
}

ScaledIntegers CertifiedPackingLp::OnGrid(const std::vector<double>& u) {
  constexpr int64_t kGrid = int64_t{1} << 32;
  ScaledIntegers out;
  out.denominator = kGrid;
  out.numerators.reserve(u.size());
  // |u| <= kMaxDual = 2^20, so u * 2^32 < 2^52: exact in a double.
  for (double v : u) {
    out.numerators.push_back(v > 0 ? static_cast<int64_t>(std::floor(v * kGrid))
                                   : 0);
  }
  return out;
}

bool CertifiedPackingLp::Bounds::exact() const {
  // lower / q == upper / r, crosswise (both below 2^80 over denominators
  // below 2^47: the products fit).
  __int128 left, right;
  return !__builtin_mul_overflow(lower.numerator, upper.denominator, &left) &&
         !__builtin_mul_overflow(upper.numerator, lower.denominator, &right) &&
         left == right;
}

bool CertifiedPackingLp::PrimalFeasible(const ScaledIntegers& x) const {
  const int64_t q = x.denominator;
  for (int64_t n : x.numerators) {
    if (n < 0 || n > q) return false;
  }
  // |coefficient| < 2^31, |n| <= 2^46 and fewer than 2^32 terms a row: the
  // sums stay far inside 128 bits.
  for (size_t r = 0; r < upper_.size(); ++r) {
    __int128 sum = 0;
    for (uint64_t t = row_begin_[r]; t < row_begin_[r + 1]; ++t) {
      sum += static_cast<__int128>(term_coefficient_[t]) *
             x.numerators[term_column_[t]];
    }
    if (sum > static_cast<__int128>(upper_[r]) * q) return false;
  }
  return true;
}

std::optional<__int128> CertifiedPackingLp::DualObjective(
    const ScaledIntegers& u) const {
  const int64_t r = u.denominator;
  // (A^T u)_j, over r: each term below 2^31 * 2^62, fewer than 2^32 of
  // them a column.
  std::vector<__int128> column_sum(objective_.size(), 0);
  __int128 value = 0;
  for (size_t row = 0; row < upper_.size(); ++row) {
    // A negative dual is clamped at 0: any u >= 0 gives a valid bound.
    const int64_t m = std::max<int64_t>(0, u.numerators[row]);
    if (m == 0) continue;
    for (uint64_t t = row_begin_[row]; t < row_begin_[row + 1]; ++t) {
      column_sum[term_column_[t]] +=
          static_cast<__int128>(term_coefficient_[t]) * m;
    }
    if (__builtin_add_overflow(value, static_cast<__int128>(upper_[row]) * m,
                               &value)) {
      return std::nullopt;
    }
  }
  for (size_t j = 0; j < objective_.size(); ++j) {
    const __int128 w = static_cast<__int128>(objective_[j]) * r - column_sum[j];
    if (w > 0 && __builtin_add_overflow(value, w, &value)) return std::nullopt;
  }
  return value;
}

}  // namespace dpq::core::measures
