// Denial constraints over pairs of tuples (design.md section 3):
//   forall t1, t2 (t1 != t2): not(p1 and ... and pk)
// where each predicate compares t1.A, t2.A or a constant with `= != < <= > >=`.
// A comparison involving a NULL cell is false (SQL semantics), so a tuple
// with NULL in an attribute a DC reads never violates that DC through it.
#ifndef DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_
#define DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/table/schema.h"

namespace dpq::core::constraints {

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe };

// "=", "!=", "<", "<=", ">", ">=".
absl::string_view CompareOpSymbol(CompareOp op);
// The operator with its operands swapped: a < b  <=>  b > a.
CompareOp SwapOperands(CompareOp op);

enum class TupleVar { kT1, kT2 };

// A constant, already converted to the type of the column it is compared
// with (validation does this; string constants keep their text).
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

// `lhs op rhs`. After validation, a predicate with exactly one column is
// normalised to have the column on the left, and a predicate comparing t2
// with t1 is normalised to t1 on the left.
struct Predicate {
  Operand lhs;
  CompareOp op = CompareOp::kEq;
  Operand rhs;

  // t1.A op t2.B: a predicate joining the two tuples.
  bool is_join() const {
    return !lhs.is_constant && !rhs.is_constant && lhs.tuple != rhs.tuple;
  }
};

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

  // Renders the DC in the native syntax `not(t1.A=t2.A&t1.B!=t2.B)`.
  std::string ToString(const table::Schema& schema) const;
};

}  // namespace dpq::core::constraints

#endif  // DPQ_CORE_CONSTRAINTS_DENIAL_CONSTRAINT_H_
