// Helpers shared by the core/constraints tests.
#ifndef DPQ_TESTS_CORE_CONSTRAINTS_DC_TEST_UTIL_H_
#define DPQ_TESTS_CORE_CONSTRAINTS_DC_TEST_UTIL_H_

#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"

namespace dpq::core::constraints::testing {

// All 17 significant digits, so that Describe() tells doubles apart.
inline std::string Exact(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

// Everything the parser decides about a predicate (not the source text):
// "t1#0 = t2#0", "t1#3 > int64:5", "t2#0 = string:x".
inline std::string Describe(const Predicate& p) {
  auto operand = [](const Operand& o) -> std::string {
    if (!o.is_constant) {
      return absl::StrCat(TupleVarName(o.tuple), "#", o.column);
    }
    const Constant& c = o.constant;
    switch (c.type) {
      case table::ColumnType::kInt64:
        return absl::StrCat("int64:", c.int64_value, "/",
                            Exact(c.double_value));
      case table::ColumnType::kDouble:
        return absl::StrCat("double:", Exact(c.double_value));
      case table::ColumnType::kString:
        return absl::StrCat("string:", c.string_value);
    }
    return "?";
  };
  return absl::StrCat(operand(p.lhs), " ", CompareOpSymbol(p.op), " ",
                      operand(p.rhs));
}

inline std::vector<std::string> Describe(const DenialConstraint& dc) {
  std::vector<std::string> out;
  for (const Predicate& p : dc.predicates) out.push_back(Describe(p));
  return out;
}

}  // namespace dpq::core::constraints::testing

#endif  // DPQ_TESTS_CORE_CONSTRAINTS_DC_TEST_UTIL_H_
