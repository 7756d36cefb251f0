// Evaluating denial constraints on pairs of table rows (docs/core.md, "Data
// model"): the reference semantics that the conflict-graph builder and the
// tests share. A comparison with a NULL cell is false (SQL semantics).
#ifndef DPQ_CORE_CONSTRAINTS_DC_EVALUATION_H_
#define DPQ_CORE_CONSTRAINTS_DC_EVALUATION_H_

#include <cstddef>

#include "core/constraints/denial_constraint.h"
#include "core/table/table.h"

namespace dpq::core::constraints {

// Whether `predicate` holds with t1 = row `row_t1` and t2 = row `row_t2` of
// `table`.
// - A NULL operand makes the predicate false (also for `!=`).
// - String cells compare by dictionary id (ids are in lexicographic byte
//   order, table.h); a string constant compares its text with the cell's
//   dictionary string, byte-wise.
// - Numbers compare as int64 when both sides are int64, else as double.
// - A string compared with a number (impossible after validation) is false.
// Precondition: the DC was validated against `table.schema()` and the rows
// are < table.num_rows(). O(1) apart from a string-constant comparison.
bool EvaluatePredicate(const Predicate& predicate, const table::Table& table,
                       size_t row_t1, size_t row_t2);

// True iff every predicate of `dc` holds for (t1 = row_t1, t2 = row_t2),
// i.e. this ordered pair violates the DC. A DC without predicates (never
// produced by the parser) is violated by nothing. Passing row_t1 == row_t2
// asks whether a tuple violates the DC on its own.
bool Violates(const DenialConstraint& dc, const table::Table& table,
              size_t row_t1, size_t row_t2);

// True iff rows `a` and `b` jointly violate `dc` in either orientation:
// the conflict-graph edge condition (docs/core.md "Conflict graph").
bool Conflicts(const DenialConstraint& dc, const table::Table& table, size_t a,
               size_t b);

}  // namespace dpq::core::constraints

#endif  // DPQ_CORE_CONSTRAINTS_DC_EVALUATION_H_
