// DuckDB SQL that counts the conflicting pairs of a table under dpq's DCs,
// with dpq's semantics (docs/performance.md "Conflict detection against
// DuckDB"): the number of distinct unordered pairs of distinct rows that
// violate at least one DC, i.e. the edges of the conflict graph, which is
// what `dpq-measure --measure mi --exact` prints as `value`.
//
// Cell meaning follows core/table/csv_reader.h: an empty cell (also a
// quoted "") is NULL in every type, which DuckDB's CSV reader does by
// default; in int64 and double columns "NaN", "nan" and "NAN" are NULL too
// (DuckDB would read NaN as a number ordered above every other and equal to
// itself), and numbers may carry spaces around them. String columns stay
// VARCHAR and compare byte-wise on both sides. NULL compares false with
// everything on both sides, so a pair with NULL in a compared column never
// violates a DC through it.
#ifndef DPQ_TESTS_BENCH_PEERS_DC_SQL_H_
#define DPQ_TESTS_BENCH_PEERS_DC_SQL_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"

namespace dpq::bench::peers {

// "name" with inner double quotes doubled.
std::string QuoteIdentifier(absl::string_view name);
// 'text' with inner single quotes doubled.
std::string QuoteLiteral(absl::string_view text);

// CREATE TABLE t AS ... from read_csv of `csv_path`, every column read as
// VARCHAR (no type sniffing) and numeric columns then cast as described
// above. The statement ends with ";".
std::string LoadTableSql(const core::table::Schema& schema,
                         absl::string_view csv_path);

// True if swapping t1 and t2 gives the same set of predicates, so the DC
// holds for (x, y) exactly when it holds for (y, x) (every FD is). The
// self-join then needs only the pairs with a.rowid < b.rowid.
bool IsSymmetric(const core::constraints::DenialConstraint& dc,
                 const core::table::Schema& schema);

// SELECT i, j (i < j, the rowids) of the pairs of table t violating `dc`,
// t1 as `a` and t2 as `b`; an asymmetric DC tries both orders (rowids
// differ) and may list a pair twice.
std::string DcPairsSql(const core::constraints::DenialConstraint& dc,
                       const core::table::Schema& schema);

// SELECT count(*) AS conflicting_pairs over the UNION (distinct) of the
// DCs' pairs. A DC equal to an earlier one, or to its mirror image (t1 and
// t2 exchanged), is left out: its unordered pairs are the same. Ends with
// ";". `dcs` must not be empty.
std::string CountConflictsSql(
    const std::vector<core::constraints::DenialConstraint>& dcs,
    const core::table::Schema& schema);

}  // namespace dpq::bench::peers

#endif  // DPQ_TESTS_BENCH_PEERS_DC_SQL_H_
