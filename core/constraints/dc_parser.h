// Parsing and validating denial constraints in the three syntaxes dpq
// accepts (docs/core.md "Data model"), one DC per line, `#` comments:
//   native:     not(t1.A=t2.A&t1.B!=t2.B)   also `and`, spaces, 'quoted' or
//               "quoted" constants, t1.A='x', 5<t2.B
//   FD:         A,B -> C[,D]                one DC per right-hand attribute
//   benchmark:  t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)   EQ IQ LT GT LTE GTE
#ifndef DPQ_CORE_CONSTRAINTS_DC_PARSER_H_
#define DPQ_CORE_CONSTRAINTS_DC_PARSER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"

namespace dpq::core::constraints {

// Parses one DC line and validates it against `schema`. Errors
// (kInvalidArgument) say what is wrong and where: a syntax error with its
// 1-based character position, an unknown column (naming it), a type
// mismatch (string column compared with a number, or `<` between a string
// and a numeric column), a constant that does not parse as the column's type,
// or a DC that mentions only one tuple (single-tuple DCs are outside the
// paper's model). An FD line yields one DC per right-hand attribute; a
// blank or comment-only line yields none. The DCs are normalised as
// Predicate (denial_constraint.h) describes; `line` is left 0.
absl::StatusOr<std::vector<DenialConstraint>> ParseDenialConstraintLine(
    absl::string_view line, const table::Schema& schema);

// Parses a whole file's text. Errors are prefixed with "line N: ".
// Blank lines and `#` comments are skipped; a missing final newline is fine.
// kInvalidArgument if the text holds no DC at all.
absl::StatusOr<std::vector<DenialConstraint>> ParseDenialConstraints(
    absl::string_view text, const table::Schema& schema);

// Reads `path` and parses it. kNotFound if it cannot be opened.
absl::StatusOr<std::vector<DenialConstraint>> ReadDenialConstraintsFile(
    const std::string& path, const table::Schema& schema);

}  // namespace dpq::core::constraints

#endif  // DPQ_CORE_CONSTRAINTS_DC_PARSER_H_
