// A linear program with small integer data, solved by GLPK in floating
// point and then certified in exact integer arithmetic: its optimum is
// known as an exact rational, or enclosed between two exact rationals, so
// that a ceiling a buyer sees (clique_lp_bound.h) is never decided by
// rounding.
//
// The LP:  maximize c^T x  subject to  A x <= b,  0 <= x <= 1,
// with integer c, A and b (int32). Its dual: minimize b^T u + 1^T w
// subject to A^T u + w >= c, u >= 0, w >= 0.
//
// Why the certificate proves the bounds. Let x and u be exact rationals.
// If x satisfies every row and bound exactly, c^T x <= OPT. For any u >=
// 0, setting w_j = max(0, c_j - (A^T u)_j) makes (u, w) dual feasible, and
// weak duality gives OPT <= b^T u + 1^T w. So lower = c^T x and upper =
// b^T u + 1^T w enclose OPT, and if they are equal, OPT is that value and
// x is optimal. Every quantity in the check is an integer over one of two
// common denominators, summed in 128-bit integers (with overflow checks:
// an overflow counts as a failed certificate), so no rounding enters
// either bound. GLPK's doubles only propose x and u (rational_recovery.h):
// a wrong proposal fails the check or leaves the bounds apart. For the
// exact optimum the simplex proposes; if its values do not certify, GLPK's
// exact rational simplex (glp_exact) re-solves from the basis and proposes
// again from its correctly rounded values. If that also fails (an optimal
// vertex whose denominators exceed what a double can carry), Maximize
// returns kInternal: no bound is produced rather than an uncertain one.
#ifndef DPQ_CORE_MEASURES_CERTIFIED_PACKING_LP_H_
#define DPQ_CORE_MEASURES_CERTIFIED_PACKING_LP_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/measures/rational_recovery.h"

// GLPK's problem object (glpk.h), kept out of this header.
struct glp_prob;

namespace dpq::core::measures {

// numerator / denominator, denominator > 0.
struct ExactRational {
  __int128 numerator = 0;
  int64_t denominator = 1;
};

class CertifiedPackingLp {
 public:
  // An LP with no rows or columns.
  CertifiedPackingLp();
  ~CertifiedPackingLp();
  CertifiedPackingLp(const CertifiedPackingLp&) = delete;
  CertifiedPackingLp& operator=(const CertifiedPackingLp&) = delete;

  // `count` new columns with bounds [0, 1] and objective coefficient
  // `objective`; returns the 1-based index of the first.
  int AddColumns(int count, int32_t objective);
  // The row sum_k coefficient_k * x_{column_k} <= upper (1-based columns).
  void AddRow(absl::Span<const std::pair<int, int32_t>> terms, int32_t upper);

  int num_columns() const { return static_cast<int>(objective_.size()); }

  // Frees the calling thread's GLPK environment (allocated by its first
  // GLPK call and never freed by GLPK itself). Call it on a thread that
  // holds no CertifiedPackingLp any more.
  static void FreeThreadEnvironment();

  // What a solve certifies, exactly: lower <= OPT <= upper.
  struct Bounds {
    // A feasible x, exactly: column j (1-based) is primal.numerators[j - 1]
    // / primal.denominator.
    ScaledIntegers primal;
    // c^T x (so at most OPT) and a dual solution's objective (at least OPT).
    ExactRational lower;
    ExactRational upper;
    // lower == upper: both are the optimum and x is optimal.
    bool exact() const;
  };

  enum class Precision {
    // The optimum itself (lower == upper), by the simplex.
    kExact,
    // Bounds that may leave a hair between them: on LPs of
    // kInteriorPointColumns columns or more, from GLPK's interior point
    // method when its primal reads as an exact feasible rational (else as
    // kExact).
    kBounds,
  };

  // Solves (after rows were added, from the last basis) and certifies what
  // `precision` asks for, as described above. kInternal if GLPK fails or
  // no certificate is found; `what` names the LP in the message (e.g.
  // "the clique LP of a component of 12 nodes"). The LP is always feasible
  // (x = 0) and bounded (0 <= x <= 1).
  absl::StatusOr<Bounds> Maximize(absl::string_view what,
                                  Precision precision = Precision::kExact);

 private:
  // Which of GLPK's solutions to read.
  enum class Solution { kSimplex, kInteriorPoint };
  // The bounds that GLPK's current values of `solution` certify, read with
  // the given tolerance (relative to the largest dual for the duals), if
  // its primal reads as an exact feasible point.
  std::optional<Bounds> Certify(Solution solution, double tolerance) const;
  // Duals on the grid 2^-32, rounded down, negatives at 0.
  static ScaledIntegers OnGrid(const std::vector<double>& u);
  // Exact feasibility of x (over its denominator) for rows and bounds.
  bool PrimalFeasible(const ScaledIntegers& x) const;
  // b^T u + 1^T w for u (clamped at 0) and w = max(0, c - A^T u), over
  // u's denominator; nullopt on overflow.
  std::optional<__int128> DualObjective(const ScaledIntegers& u) const;

  glp_prob* lp_;
  // The rows again, as integers, for the exact check.
  std::vector<int32_t> objective_;      // c, per column (0-based)
  std::vector<uint64_t> row_begin_{0};  // row r's terms: [begin[r], begin[r+1])
  std::vector<int32_t> term_column_;    // 0-based
  std::vector<int32_t> term_coefficient_;
  std::vector<int32_t> upper_;  // b, per row
};

}  // namespace dpq::core::measures

#endif  // DPQ_CORE_MEASURES_CERTIFIED_PACKING_LP_H_
