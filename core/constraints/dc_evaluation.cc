#include "core/constraints/dc_evaluation.h"

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/table/table.h"

namespace dpq::core::constraints {
namespace {

using table::Column;
using table::ColumnType;

bool CompareColumns(const Column& left, size_t left_row, CompareOp op,
                    const Column& right, size_t right_row) {
  if (left.is_numeric() != right.is_numeric()) return false;
  if (!left.is_numeric()) {
    return ApplyCompareOp(left.string_ids[left_row], op,
                          right.string_ids[right_row]);
  }
  if (left.type == ColumnType::kInt64 && right.type == ColumnType::kInt64) {
    return ApplyCompareOp(left.int64s[left_row], op, right.int64s[right_row]);
  }
  return ApplyCompareOp(left.numeric_at(left_row), op,
                        right.numeric_at(right_row));
}

bool CompareWithConstant(const table::Table& table, const Column& column,
                         size_t row, CompareOp op, const Constant& constant) {
  if (!column.is_numeric()) {
    if (constant.type != ColumnType::kString) return false;
    // The constant need not occur in the table, so it has no id: compare
    // texts, which orders exactly like the ids do.
    return ApplyCompareOp(table.dictionary().at(column.string_ids[row]), op,
                          absl::string_view(constant.string_value));
  }
  if (constant.type == ColumnType::kString) return false;
  if (column.type == ColumnType::kInt64 &&
      constant.type == ColumnType::kInt64) {
    return ApplyCompareOp(column.int64s[row], op, constant.int64_value);
  }
  const double value = constant.type == ColumnType::kInt64
                           ? static_cast<double>(constant.int64_value)
                           : constant.double_value;
  return ApplyCompareOp(column.numeric_at(row), op, value);
}

}  // namespace

bool EvaluatePredicate(const Predicate& predicate, const table::Table& table,
                       size_t row_t1, size_t row_t2) {
  auto row_of = [&](const Operand& operand) {
    return operand.tuple == TupleVar::kT1 ? row_t1 : row_t2;
  };
  // Parsed predicates never have a constant on the left; hand-built ones
  // may, and mean the same with the operator mirrored.
  const bool swap = predicate.lhs.is_constant;
  const Operand& left = swap ? predicate.rhs : predicate.lhs;
  const Operand& right = swap ? predicate.lhs : predicate.rhs;
  const CompareOp op = swap ? SwapOperands(predicate.op) : predicate.op;
  if (left.is_constant) return false;  // two constants: rejected by parsing

  const Column& left_column = table.column(left.column);
  const size_t left_row = row_of(left);
  if (left_column.is_null(left_row)) return false;
  if (right.is_constant) {
    return CompareWithConstant(table, left_column, left_row, op,
                               right.constant);
  }
  const Column& right_column = table.column(right.column);
  const size_t right_row = row_of(right);
  if (right_column.is_null(right_row)) return false;
  return CompareColumns(left_column, left_row, op, right_column, right_row);
}

bool Violates(const DenialConstraint& dc, const table::Table& table,
              size_t row_t1, size_t row_t2) {
  if (dc.predicates.empty()) return false;
  for (const Predicate& predicate : dc.predicates) {
    if (!EvaluatePredicate(predicate, table, row_t1, row_t2)) return false;
  }
  return true;
}

bool Conflicts(const DenialConstraint& dc, const table::Table& table, size_t a,
               size_t b) {
  return Violates(dc, table, a, b) || Violates(dc, table, b, a);
}

}  // namespace dpq::core::constraints
