// Denial constraints over pairs of tuples (docs/core.md "Data model"):
//   forall t1, t2 (t1 != t2): not(p1 and ... and pk)
// where each predicate compares t1.A, t2.A or a constant with `= != < <= > >=`.
// A comparison involving a NULL cell is false (SQL semantics), so a tuple
// with NULL in an attribute a DC reads never violates that DC through it.
#ifndef DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_
#define DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/schema.h"

namespace dpq::core::constraints {

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "!=", "<", "<=", ">", ">=".
absl::string_view CompareOpSymbol(CompareOp op);
// The operator with its operands swapped: a < b  <=>  b > a.
CompareOp SwapOperands(CompareOp op);

// a op b for any totally ordered T (string ids, numbers, text).
template <typename T>
bool ApplyCompareOp(const T& a, CompareOp op, const T& b) {
  switch (op) {
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
  }
  return false;
}

enum class TupleVar { kT1, kT2 };

// "t1" or "t2".
absl::string_view TupleVarName(TupleVar tuple);

// A constant, already converted to the type of the column it is compared
// with (validation does this; string constants keep their text, unescaped).
// kInt64 sets both int64_value and double_value (same number), so numeric
// code can read double_value for either numeric type. A fractional constant
// compared with an int64 column stays kDouble (t1.A < 2.5 is not t1.A < 2).
struct Constant {
  table::ColumnType type = table::ColumnType::kString;
  int64_t int64_value = 0;
  double double_value = 0;
  std::string string_value;
  std::string text;  // as written, for messages
};

// One side of a predicate: a column of t1 or t2, or a constant.
struct Operand {
  bool is_constant = false;
  TupleVar tuple = TupleVar::kT1;  // if !is_constant
  size_t column = 0;               // index into the schema, if !is_constant
  Constant constant;               // if is_constant
};

// `lhs op rhs`. The parser normalises every predicate so that consumers
// only meet three shapes:
//   const op t1.A    becomes  t1.A swapped(op) const   (column on the left)
//   t2.A op t1.B     becomes  t1.B swapped(op) t2.A    (t1 on the left)
//   t1.A op t1.B and t2.A op t2.B (same tuple) are kept as written.
// Hence lhs is never a constant, and a join predicate has lhs.tuple == kT1.
// A predicate comparing two constants is rejected by the parser.
struct Predicate {
  Operand lhs;
  CompareOp op = CompareOp::kEq;
  Operand rhs;

  // t1.A op t2.B: a predicate joining the two tuples.
  bool is_join() const {
    return !lhs.is_constant && !rhs.is_constant && lhs.tuple != rhs.tuple;
  }
};

// Puts `p` in the normal form described at Predicate, without changing its
// meaning: if a constant stands left of a column, or t2 left of t1 in a
// join, the operands trade places and the operator is mirrored
// (SwapOperands). The one rule for every predicate shape: `P` has members
// `lhs`, `op` and `rhs`, and `is_column(operand)` tells a column, which has
// a `tuple`, from a constant. The parser applies it to the predicates as
// written, the conflict-graph planner to DCs that were built by hand.
template <typename P, typename IsColumn>
P NormalizePredicate(P p, IsColumn is_column) {
  const bool lhs_column = is_column(p.lhs);
  const bool rhs_column = is_column(p.rhs);
  const bool constant_first = !lhs_column && rhs_column;
  const bool t2_first = lhs_column && rhs_column &&
                        p.lhs.tuple == TupleVar::kT2 &&
                        p.rhs.tuple == TupleVar::kT1;
  if (constant_first || t2_first) {
    std::swap(p.lhs, p.rhs);
    p.op = SwapOperands(p.op);
  }
  return p;
}

// NormalizePredicate for a resolved predicate.
Predicate NormalizePredicate(Predicate p);

// A validated denial constraint. Built by the parser (dc_parser.h).
struct DenialConstraint {
  std::vector<Predicate> predicates;
  std::string text;  // the source line, for messages
  int line = 0;      // 1-based line in its file (0 if not from a file)

  // True if the DC is a functional dependency X -> B in the paper's sense:
  // predicates t1.X_i = t2.X_i (same column both sides, at least one) and
  // exactly one t1.B != t2.B, nothing else. Fills `lhs` and `rhs` if given.
  bool IsFunctionalDependency(std::vector<size_t>* lhs = nullptr,
                              size_t* rhs = nullptr) const;

  // The columns X with a predicate t1.X = t2.X (same column both sides).
  // Any two tuples that violate this DC agree on all of X, which bounds the
  // degree of a tuple by freq(X) - 1 (paper Lemma 3; holds for every DC with
  // such predicates, not only FDs).
  std::vector<size_t> SameColumnEqualities() const;

  // Renders the DC in the native syntax `not(t1.A=t2.A&t1.B!=t2.B)`:
  // string constants single-quoted with `\'` and `\\` escaped, column names
  // that are not [A-Za-z0-9_]+ in backquotes. Parsing the result against
  // `schema` yields the same predicates (the `text` fields aside).
  std::string ToString(const table::Schema& schema) const;
};

// `t1.A`, `t2.\`my col\``, `'text'`, `5` or `2.5`, as in ToString().
std::string OperandToString(const Operand& operand,
                            const table::Schema& schema);
// `t1.A!=t2.A`, as in ToString().
std::string PredicateToString(const Predicate& predicate,
                              const table::Schema& schema);

}  // namespace dpq::core::constraints

#endif  // DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_
