#include "bench/peers/dc_sql.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/util/shortest_double.h"

namespace dpq::bench::peers {
namespace {

using core::constraints::CompareOp;
using core::constraints::Constant;
using core::constraints::DenialConstraint;
using core::constraints::Operand;
using core::constraints::Predicate;
using core::constraints::TupleVar;
using core::table::ColumnType;
using core::table::Schema;

// A numeric column's cast: NaN spellings (compared verbatim, as the CSV
// reader does) become NULL, ASCII spaces around a number are ignored.
std::string NumericCast(absl::string_view column, absl::string_view sql_type) {
  const std::string c = QuoteIdentifier(column);
  return absl::StrCat("CAST(CASE WHEN ", c,
                      " IN ('NaN', 'nan', 'NAN') THEN NULL ELSE trim(", c,
                      ", ' ') END AS ", sql_type, ") AS ", c);
}

std::string ColumnSelect(const core::table::ColumnSpec& spec) {
  switch (spec.type) {
    case ColumnType::kInt64:
      return NumericCast(spec.name, "BIGINT");
    case ColumnType::kDouble:
      return NumericCast(spec.name, "DOUBLE");
    case ColumnType::kString:
      break;
  }
  return QuoteIdentifier(spec.name);
}

std::string SqlOperator(CompareOp op) {
  return op == CompareOp::kNe
             ? "<>"
             : std::string(core::constraints::CompareOpSymbol(op));
}

std::string ConstantSql(const Constant& c) {
  switch (c.type) {
    case ColumnType::kInt64:
      return absl::StrCat(c.int64_value);
    case ColumnType::kDouble:
      return absl::StrCat("CAST('", core::util::ShortestDouble(c.double_value),
                          "' AS DOUBLE)");
    case ColumnType::kString:
      break;
  }
  return QuoteLiteral(c.string_value);
}

std::string OperandSql(const Operand& o, const Schema& schema) {
  if (o.is_constant) return ConstantSql(o.constant);
  return absl::StrCat(o.tuple == TupleVar::kT1 ? "a." : "b.",
                      QuoteIdentifier(schema.column(o.column).name));
}

std::string PredicateSql(const Predicate& p, const Schema& schema) {
  return absl::StrCat(OperandSql(p.lhs, schema), " ", SqlOperator(p.op), " ",
                      OperandSql(p.rhs, schema));
}

Operand SwapTuple(Operand o) {
  if (!o.is_constant) {
    o.tuple = o.tuple == TupleVar::kT1 ? TupleVar::kT2 : TupleVar::kT1;
  }
  return o;
}

// The DC's predicates in dpq's rendering, sorted and without repeats.
std::vector<std::string> PredicateSet(const std::vector<Predicate>& ps,
                                      const Schema& schema) {
  std::vector<std::string> out;
  for (const Predicate& p : ps) {
    out.push_back(core::constraints::PredicateToString(p, schema));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The DC with t1 and t2 exchanged, normalised: it has the same violating
// pairs as `dc`, each in the other order.
std::vector<Predicate> SwappedPredicates(const DenialConstraint& dc) {
  std::vector<Predicate> swapped;
  for (Predicate p : dc.predicates) {
    p.lhs = SwapTuple(p.lhs);
    p.rhs = SwapTuple(p.rhs);
    swapped.push_back(core::constraints::NormalizePredicate(p));
  }
  return swapped;
}

}  // namespace

std::string QuoteIdentifier(absl::string_view name) {
  return absl::StrCat("\"", absl::StrReplaceAll(name, {{"\"", "\"\""}}), "\"");
}

std::string QuoteLiteral(absl::string_view text) {
  return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "''"}}), "'");
}

std::string LoadTableSql(const Schema& schema, absl::string_view csv_path) {
  std::vector<std::string> selects;
  std::vector<std::string> columns;
  for (const core::table::ColumnSpec& spec : schema.columns()) {
    selects.push_back(ColumnSelect(spec));
    columns.push_back(absl::StrCat(QuoteLiteral(spec.name), ": 'VARCHAR'"));
  }
  return absl::StrCat(
      "CREATE TABLE t AS SELECT\n  ", absl::StrJoin(selects, ",\n  "),
      "\nFROM read_csv(", QuoteLiteral(csv_path),
      ", header = true, auto_detect = false, delim = ',', quote = '\"', "
      "escape = '\"',\n  columns = {",
      absl::StrJoin(columns, ", "), "});");
}

bool IsSymmetric(const DenialConstraint& dc, const Schema& schema) {
  return PredicateSet(dc.predicates, schema) ==
         PredicateSet(SwappedPredicates(dc), schema);
}

std::string DcPairsSql(const DenialConstraint& dc, const Schema& schema) {
  const bool symmetric = IsSymmetric(dc, schema);
  std::vector<std::string> conditions;
  for (const Predicate& p : dc.predicates) {
    conditions.push_back(PredicateSql(p, schema));
  }
  conditions.push_back(symmetric ? "a.rowid < b.rowid" : "a.rowid <> b.rowid");
  const char* pair = symmetric ? "a.rowid AS i, b.rowid AS j"
                               : "least(a.rowid, b.rowid) AS i, "
                                 "greatest(a.rowid, b.rowid) AS j";
  return absl::StrCat("SELECT ", pair, " FROM t AS a JOIN t AS b ON ",
                      absl::StrJoin(conditions, " AND "));
}

std::string CountConflictsSql(const std::vector<DenialConstraint>& dcs,
                              const Schema& schema) {
  // A DC that repeats an earlier one or is its mirror image (t1 and t2
  // exchanged, like the paper's two salary/rate DCs) has the same unordered
  // pairs: joining it again would only give DuckDB more work.
  std::vector<std::vector<std::string>> joined;
  std::vector<std::string> parts;
  for (const DenialConstraint& dc : dcs) {
    const auto same = [&](const std::vector<Predicate>& ps) {
      return std::find(joined.begin(), joined.end(),
                       PredicateSet(ps, schema)) != joined.end();
    };
    if (same(dc.predicates) || same(SwappedPredicates(dc))) continue;
    joined.push_back(PredicateSet(dc.predicates, schema));
    parts.push_back(
        absl::StrCat("  -- ", dc.text, "\n  ", DcPairsSql(dc, schema)));
  }
  // UNION is distinct; a single DC needs DISTINCT (an asymmetric one may
  // list a pair in both orders).
  if (parts.size() == 1) {
    return absl::StrCat(
        "SELECT count(*) AS conflicting_pairs FROM (SELECT DISTINCT i, j FROM "
        "(\n",
        parts[0], "\n));");
  }
  return absl::StrCat("SELECT count(*) AS conflicting_pairs FROM (\n",
                      absl::StrJoin(parts, "\n  UNION\n"), "\n);");
}

}  // namespace dpq::bench::peers
