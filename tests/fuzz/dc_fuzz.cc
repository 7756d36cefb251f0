#include "tests/fuzz/dc_fuzz.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "tests/fuzz/fuzz_check.h"

namespace dpq::fuzz {
namespace {

using core::constraints::DenialConstraint;
using core::constraints::Operand;
using core::constraints::Predicate;
using core::constraints::TupleVar;
using core::table::ColumnSpec;
using core::table::ColumnType;
using core::table::Schema;

// The first line's schema; nullopt if it declares none (not a DC input).
std::optional<Schema> SchemaFromLine(absl::string_view line) {
  std::vector<ColumnSpec> columns;
  for (absl::string_view item : absl::StrSplit(line, ',')) {
    ColumnSpec spec;
    const size_t colon = item.rfind(':');
    if (colon != absl::string_view::npos) {
      absl::StatusOr<ColumnType> type =
          core::table::ParseColumnType(item.substr(colon + 1));
      if (!type.ok()) return std::nullopt;
      spec.type = *type;
      item = item.substr(0, colon);
    }
    spec.name = std::string(absl::StripAsciiWhitespace(item));
    columns.push_back(std::move(spec));
  }
  absl::StatusOr<Schema> schema = Schema::Create(std::move(columns));
  if (!schema.ok()) return std::nullopt;
  return *std::move(schema);
}

void CheckOperand(const Operand& operand, const Schema& schema) {
  if (operand.is_constant) return;
  FUZZ_CHECK(operand.column < schema.num_columns());
}

void CheckDc(const DenialConstraint& dc, const Schema& schema) {
  FUZZ_CHECK(!dc.predicates.empty());
  bool t1 = false;
  bool t2 = false;
  for (const Predicate& p : dc.predicates) {
    FUZZ_CHECK(!p.lhs.is_constant);  // the normal form
    CheckOperand(p.lhs, schema);
    CheckOperand(p.rhs, schema);
    for (const Operand* operand : {&p.lhs, &p.rhs}) {
      if (operand->is_constant) continue;
      t1 = t1 || operand->tuple == TupleVar::kT1;
      t2 = t2 || operand->tuple == TupleVar::kT2;
    }
    const ColumnType left = schema.column(p.lhs.column).type;
    if (p.rhs.is_constant) {
      // A constant has its column's kind: text for text, a number else.
      FUZZ_CHECK((left == ColumnType::kString) ==
                 (p.rhs.constant.type == ColumnType::kString));
    } else {
      FUZZ_CHECK((left == ColumnType::kString) ==
                 (schema.column(p.rhs.column).type == ColumnType::kString));
    }
  }
  FUZZ_CHECK(t1 && t2);
}

// ToString must parse back to the same predicates.
void CheckRendering(const DenialConstraint& dc, const Schema& schema) {
  const std::string rendered = dc.ToString(schema);
  absl::StatusOr<std::vector<DenialConstraint>> again =
      core::constraints::ParseDenialConstraintLine(rendered, schema);
  FUZZ_CHECK_MSG(again.ok(),
                 absl::StrCat(again.status().ToString(),
                              "\nrendered: ", rendered, "\nsource: ", dc.text));
  FUZZ_CHECK_MSG(again->size() == 1, rendered);
  const DenialConstraint& back = again->front();
  FUZZ_CHECK_MSG(back.ToString(schema) == rendered, rendered);
  FUZZ_CHECK(back.predicates.size() == dc.predicates.size());
  for (size_t i = 0; i < dc.predicates.size(); ++i) {
    const Predicate& a = dc.predicates[i];
    const Predicate& b = back.predicates[i];
    FUZZ_CHECK_MSG(a.op == b.op && a.lhs.column == b.lhs.column &&
                       a.lhs.tuple == b.lhs.tuple &&
                       a.rhs.is_constant == b.rhs.is_constant,
                   rendered);
    if (a.rhs.is_constant) {
      FUZZ_CHECK_MSG(
          a.rhs.constant.type == b.rhs.constant.type &&
              a.rhs.constant.string_value == b.rhs.constant.string_value &&
              a.rhs.constant.int64_value == b.rhs.constant.int64_value &&
              a.rhs.constant.double_value == b.rhs.constant.double_value,
          rendered);
    } else {
      FUZZ_CHECK_MSG(a.rhs.column == b.rhs.column && a.rhs.tuple == b.rhs.tuple,
                     rendered);
    }
  }
}

}  // namespace

int FuzzDcLines(const uint8_t* data, size_t size,
                absl::FunctionRef<std::string(absl::string_view line,
                                              absl::string_view first_column)>
                    wrap) {
  const absl::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  if (newline == absl::string_view::npos) return 0;
  const std::optional<Schema> schema = SchemaFromLine(input.substr(0, newline));
  if (!schema.has_value() || schema->num_columns() == 0) return 0;
  std::vector<std::string> lines;
  size_t parsed = 0;
  bool all_ok = true;
  for (absl::string_view raw :
       absl::StrSplit(input.substr(newline + 1), '\n')) {
    std::string line = wrap(raw, schema->column(0).name);
    absl::StatusOr<std::vector<DenialConstraint>> dcs =
        core::constraints::ParseDenialConstraintLine(line, *schema);
    if (!dcs.ok()) {
      CheckError(dcs.status());
      FUZZ_CHECK_MSG(dcs.status().code() == absl::StatusCode::kInvalidArgument,
                     dcs.status().ToString());
      all_ok = false;
    } else {
      for (const DenialConstraint& dc : *dcs) {
        CheckDc(dc, *schema);
        CheckRendering(dc, *schema);
      }
      parsed += dcs->size();
    }
    lines.push_back(std::move(line));
  }
  // The file parser agrees with the line parser (after a blank first line,
  // so that it skips no byte-order mark the line parser kept).
  absl::StatusOr<std::vector<DenialConstraint>> file =
      core::constraints::ParseDenialConstraints(
          absl::StrCat("\n", absl::StrJoin(lines, "\n")), *schema);
  FUZZ_CHECK_MSG(file.ok() == (all_ok && parsed > 0), file.status().ToString());
  if (file.ok()) FUZZ_CHECK(file->size() == parsed);
  if (!file.ok()) CheckError(file.status());
  return 0;
}

}  // namespace dpq::fuzz
