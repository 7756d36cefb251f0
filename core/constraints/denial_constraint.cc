#include "core/constraints/denial_constraint.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/table/schema.h"
#include "core/util/shortest_double.h"

namespace dpq::core::constraints {
namespace {

bool IsPlainName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

// Backslash-escapes `quote` and the backslash itself, which is exactly what
// the parser unescapes, so rendering and parsing round-trip.
std::string Quote(absl::string_view text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    if (c == quote || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back(quote);
  return out;
}

// The shortest decimal form that parses back to `value`, with a '.' or an
// exponent: "5" would be read back as an int64 constant.
std::string FormatDouble(double value) {
  std::string text = util::ShortestDouble(value);
  if (std::isfinite(value) && text.find_first_of(".e") == std::string::npos) {
    text += ".0";
  }
  return text;
}

}  // namespace

absl::string_view CompareOpSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "?";
}

CompareOp SwapOperands(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return CompareOp::kGt;
    case CompareOp::kLe:
      return CompareOp::kGe;
    case CompareOp::kGt:
      return CompareOp::kLt;
    case CompareOp::kGe:
      return CompareOp::kLe;
    case CompareOp::kEq:
    case CompareOp::kNe:
      return op;
  }
  return op;
}

Predicate NormalizePredicate(Predicate p) {
  return NormalizePredicate(std::move(p), [](const Operand& operand) {
    return !operand.is_constant;
  });
}

absl::string_view TupleVarName(TupleVar tuple) {
  return tuple == TupleVar::kT1 ? "t1" : "t2";
}

std::string OperandToString(const Operand& operand,
                            const table::Schema& schema) {
  if (!operand.is_constant) {
    const std::string& name = schema.column(operand.column).name;
    return absl::StrCat(TupleVarName(operand.tuple), ".",
                        IsPlainName(name) ? name : Quote(name, '`'));
  }
  const Constant& c = operand.constant;
  switch (c.type) {
    case table::ColumnType::kInt64:
      return absl::StrCat(c.int64_value);
    case table::ColumnType::kDouble:
      return FormatDouble(c.double_value);
    case table::ColumnType::kString:
      return Quote(c.string_value, '\'');
  }
  return c.text;
}

std::string PredicateToString(const Predicate& predicate,
                              const table::Schema& schema) {
  return absl::StrCat(OperandToString(predicate.lhs, schema),
                      CompareOpSymbol(predicate.op),
                      OperandToString(predicate.rhs, schema));
}

bool DenialConstraint::IsFunctionalDependency(std::vector<size_t>* lhs,
                                              size_t* rhs) const {
  std::vector<size_t> equal_columns;
  size_t unequal_column = 0;
  int num_unequal = 0;
  for (const Predicate& p : predicates) {
    // After normalisation a join predicate has t1 on the left; checking it
    // anyway keeps this correct for hand-built DCs.
    if (!p.is_join() || p.lhs.tuple != TupleVar::kT1 ||
        p.lhs.column != p.rhs.column) {
      return false;
    }
    if (p.op == CompareOp::kEq) {
      equal_columns.push_back(p.lhs.column);
    } else if (p.op == CompareOp::kNe) {
      unequal_column = p.lhs.column;
      ++num_unequal;
    } else {
      return false;
    }
  }
  if (equal_columns.empty() || num_unequal != 1) return false;
  std::vector<size_t> x = SameColumnEqualities();
  // X -> B with B in X can never be violated: not an FD worth the name.
  for (size_t column : x) {
    if (column == unequal_column) return false;
  }
  if (lhs != nullptr) *lhs = std::move(x);
  if (rhs != nullptr) *rhs = unequal_column;
  return true;
}

std::vector<size_t> DenialConstraint::SameColumnEqualities() const {
  std::vector<size_t> columns;
  for (const Predicate& p : predicates) {
    if (!p.is_join() || p.op != CompareOp::kEq ||
        p.lhs.column != p.rhs.column) {
      continue;
    }
    bool seen = false;
    for (size_t column : columns) seen = seen || column == p.lhs.column;
    if (!seen) columns.push_back(p.lhs.column);
  }
  return columns;
}

std::string DenialConstraint::ToString(const table::Schema& schema) const {
  return absl::StrCat(
      "not(",
      absl::StrJoin(predicates, "&",
                    [&schema](std::string* out, const Predicate& p) {
                      absl::StrAppend(out, PredicateToString(p, schema));
                    }),
      ")");
}

}  // namespace dpq::core::constraints
