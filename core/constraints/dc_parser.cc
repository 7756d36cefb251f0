#include "core/constraints/dc_parser.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/constraints/dc_scanner.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/util/status_macros.h"
#include "core/util/status_prefix.h"

namespace dpq::core::constraints {
namespace {

using internal::DcScanner;
using internal::IsNameChar;
using internal::Where;
using table::ColumnType;
using table::Schema;

// Column lists in "unknown column" messages stop after this many names:
// wide tables would otherwise bury the message.
constexpr size_t kMaxListedColumns = 25;

// An operand as written, before it is checked against the schema.
struct RawOperand {
  enum class Kind { kColumn, kNumber, kString };
  Kind kind = Kind::kColumn;
  TupleVar tuple = TupleVar::kT1;  // if kColumn
  std::string value;   // column name, number text or unescaped string
  std::string source;  // as written, for messages
  size_t offset = 0;   // byte offset in the line
};

struct RawPredicate {
  RawOperand lhs;
  CompareOp op = CompareOp::kEq;
  RawOperand rhs;
  size_t offset = 0;
};

bool IsDigit(char c) {
  return absl::ascii_isdigit(static_cast<unsigned char>(c));
}

RawOperand ColumnRef(TupleVar tuple, std::string name, size_t offset) {
  RawOperand operand;
  operand.kind = RawOperand::Kind::kColumn;
  operand.tuple = tuple;
  operand.source = absl::StrCat(TupleVarName(tuple), ".", name);
  operand.value = std::move(name);
  operand.offset = offset;
  return operand;
}

// ---------------------------------------------------------------------------
// Operands and operators, shared by the native and the benchmark syntax.

absl::Status UnquotedWordError(const DcScanner& s, size_t offset,
                               absl::string_view word) {
  return s.SyntaxError(
      offset, absl::StrCat("unquoted word '", word,
                           "': write string constants in quotes ('", word,
                           "') and columns as t1.", word, " or t2.", word));
}

// Characters that glue a number to an unquoted word such as 2020-01-01.
bool IsWordChar(char c) {
  return IsNameChar(c) || c == '.' || c == ':' || c == '-' || c == '/';
}

// A number, optionally signed, with an optional fraction and exponent.
absl::StatusOr<RawOperand> ParseNumber(DcScanner& s) {
  const absl::string_view line = s.line();
  const size_t start = s.offset();
  size_t i = start;
  if (line[i] == '+' || line[i] == '-') ++i;
  while (i < line.size() && IsDigit(line[i])) ++i;
  if (i < line.size() && line[i] == '.') ++i;
  while (i < line.size() && IsDigit(line[i])) ++i;
  if (i < line.size() && (line[i] == 'e' || line[i] == 'E')) {
    size_t j = i + 1;
    if (j < line.size() && (line[j] == '+' || line[j] == '-')) ++j;
    if (j < line.size() && IsDigit(line[j])) {
      i = j;
      while (i < line.size() && IsDigit(line[i])) ++i;
    }
  }
  // A number glued to more text (2020-01-01, 4:55, 5abc) is an unquoted
  // string: report the whole word rather than a confusing error after it.
  size_t end = i;
  while (end < line.size() && IsWordChar(line[end])) ++end;
  if (end != i) {
    return UnquotedWordError(s, start, line.substr(start, end - start));
  }
  RawOperand operand;
  operand.kind = RawOperand::Kind::kNumber;
  operand.value = std::string(line.substr(start, i - start));
  operand.source = operand.value;
  operand.offset = start;
  s.set_offset(i);
  return operand;
}

// After `t1.` or `t2.`: a plain name or a backquoted one.
absl::StatusOr<std::string> ParseColumnName(DcScanner& s,
                                            absl::string_view tuple) {
  if (s.Peek() == '`') return s.ReadQuoted();
  const size_t start = s.offset();
  absl::string_view name = s.ReadName();
  if (name.empty()) {
    return s.SyntaxError(
        start, absl::StrCat("expected a column name after '", tuple,
                            ".' (use backquotes for other names: ", tuple,
                            ".`my col`)"));
  }
  return std::string(name);
}

// A word that looks like a tuple variable: t1, T2, t3, ...
bool IsTupleWord(absl::string_view word) {
  if (word.size() < 2 || (word[0] != 't' && word[0] != 'T')) return false;
  for (char c : word.substr(1)) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

absl::StatusOr<RawOperand> ParseColumnOperand(DcScanner& s, size_t start,
                                              absl::string_view word) {
  if (word != "t1" && word != "t2" && word != "T1" && word != "T2") {
    return s.SyntaxError(start,
                         absl::StrCat("unknown tuple variable '", word,
                                      "': a DC relates two tuples, t1 and t2"));
  }
  s.Consume(".");
  ASSIGN_OR_RETURN(std::string name, ParseColumnName(s, word));
  const TupleVar tuple = word[1] == '1' ? TupleVar::kT1 : TupleVar::kT2;
  RawOperand operand = ColumnRef(tuple, std::move(name), start);
  operand.source = std::string(s.line().substr(start, s.offset() - start));
  return operand;
}

absl::StatusOr<RawOperand> ParseOperand(DcScanner& s) {
  s.SkipSpaces();
  const size_t start = s.offset();
  const char c = s.Peek();
  if (c == '\'' || c == '"') {
    RawOperand operand;
    operand.kind = RawOperand::Kind::kString;
    ASSIGN_OR_RETURN(operand.value, s.ReadQuoted());
    operand.source = std::string(s.line().substr(start, s.offset() - start));
    operand.offset = start;
    return operand;
  }
  const bool signed_number =
      (c == '-' || c == '+') && (IsDigit(s.Peek(1)) || s.Peek(1) == '.');
  if (IsDigit(c) || signed_number || (c == '.' && IsDigit(s.Peek(1)))) {
    return ParseNumber(s);
  }
  if (IsNameChar(c)) {
    const absl::string_view word = s.ReadName();
    if (s.Peek() == '.' && IsTupleWord(word)) {
      return ParseColumnOperand(s, start, word);
    }
    return UnquotedWordError(s, start, word);
  }
  return s.SyntaxError(start,
                       "expected an operand: t1.Col, t2.Col, a number or a "
                       "quoted constant");
}

absl::StatusOr<CompareOp> ParseOperator(DcScanner& s) {
  // Longest symbols first, so that "<=" is not read as "<" then "=".
  static constexpr struct {
    absl::string_view symbol;
    CompareOp op;
  } kOperators[] = {
      {"==", CompareOp::kEq},     {"!=", CompareOp::kNe},
      {"<>", CompareOp::kNe},     {"<=", CompareOp::kLe},
      {">=", CompareOp::kGe},     {"=", CompareOp::kEq},
      {"<", CompareOp::kLt},      {">", CompareOp::kGt},
      {"\u2260", CompareOp::kNe}, {"\u2264", CompareOp::kLe},
      {"\u2265", CompareOp::kGe},
  };
  s.SkipSpaces();
  for (const auto& entry : kOperators) {
    if (s.Consume(entry.symbol)) return entry.op;
  }
  return s.SyntaxError(s.offset(),
                       "expected a comparison operator (=, !=, <, <=, >, >=)");
}

// ---------------------------------------------------------------------------
// Native syntax: not(t1.A=t2.A & t1.B!=t2.B)

bool ConsumeConjunction(DcScanner& s) {
  s.SkipSpaces();
  return s.Consume("&&") || s.Consume("&") || s.Consume("\u2227") ||
         s.ConsumeWord("and");
}

absl::StatusOr<RawPredicate> ParseComparison(DcScanner& s) {
  s.SkipSpaces();
  RawPredicate predicate;
  predicate.offset = s.offset();
  ASSIGN_OR_RETURN(predicate.lhs, ParseOperand(s));
  ASSIGN_OR_RETURN(predicate.op, ParseOperator(s));
  ASSIGN_OR_RETURN(predicate.rhs, ParseOperand(s));
  return predicate;
}

// The caller has seen `not` `(`.
absl::StatusOr<std::vector<RawPredicate>> ParseNative(DcScanner& s) {
  s.SkipSpaces();
  s.ConsumeWord("not");
  s.SkipSpaces();
  s.Consume("(");
  std::vector<RawPredicate> predicates;
  s.SkipSpaces();
  bool closed = s.Consume(")");  // not(): BuildDc reports "no predicate"
  while (!closed) {
    ASSIGN_OR_RETURN(RawPredicate predicate, ParseComparison(s));
    predicates.push_back(std::move(predicate));
    if (ConsumeConjunction(s)) continue;
    closed = s.Consume(")");
    if (!closed) {
      return s.SyntaxError(s.offset(), s.AtEnd()
                                           ? "expected ')'"
                                           : "expected '&', 'and' or ')'");
    }
  }
  if (!s.AtEnd()) {
    return s.SyntaxError(s.offset(), "expected the end of the line after ')'");
  }
  return predicates;
}

// ---------------------------------------------------------------------------
// Benchmark syntax: t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)

std::optional<CompareOp> BenchmarkOp(absl::string_view name) {
  const std::string upper = absl::AsciiStrToUpper(name);
  if (upper == "EQ") return CompareOp::kEq;
  if (upper == "IQ") return CompareOp::kNe;
  if (upper == "LT") return CompareOp::kLt;
  if (upper == "LTE") return CompareOp::kLe;
  if (upper == "GT") return CompareOp::kGt;
  if (upper == "GTE") return CompareOp::kGe;
  return std::nullopt;
}

absl::Status Expect(DcScanner& s, absl::string_view token) {
  s.SkipSpaces();
  if (s.Consume(token)) return absl::OkStatus();
  return s.SyntaxError(s.offset(), absl::StrCat("expected '", token, "'"));
}

// OP(x,y) where the caller has read OP.
absl::StatusOr<RawPredicate> ParseBenchmarkCall(DcScanner& s, size_t start,
                                                CompareOp op) {
  RawPredicate predicate;
  predicate.offset = start;
  predicate.op = op;
  RETURN_IF_ERROR(Expect(s, "("));
  ASSIGN_OR_RETURN(predicate.lhs, ParseOperand(s));
  RETURN_IF_ERROR(Expect(s, ","));
  ASSIGN_OR_RETURN(predicate.rhs, ParseOperand(s));
  RETURN_IF_ERROR(Expect(s, ")"));
  return predicate;
}

struct BenchmarkDc {
  bool declares_t1 = false;
  bool declares_t2 = false;
  std::vector<RawPredicate> predicates;
};

absl::StatusOr<BenchmarkDc> ParseBenchmark(DcScanner& s) {
  BenchmarkDc dc;
  while (true) {
    s.SkipSpaces();
    const size_t start = s.offset();
    const absl::string_view word = s.ReadName();
    s.SkipSpaces();
    const bool is_call = s.Peek() == '(';
    const bool is_declaration = !is_call && s.Peek() != '.';
    if (is_declaration && (word == "t1" || word == "T1")) {
      dc.declares_t1 = true;
    } else if (is_declaration && (word == "t2" || word == "T2")) {
      dc.declares_t2 = true;
    } else if (std::optional<CompareOp> op = BenchmarkOp(word); op && is_call) {
      ASSIGN_OR_RETURN(RawPredicate predicate,
                       ParseBenchmarkCall(s, start, *op));
      dc.predicates.push_back(std::move(predicate));
    } else {
      return s.SyntaxError(start,
                           "expected t1, t2 or a predicate EQ, IQ, LT, GT, "
                           "LTE or GTE such as EQ(t1.A,t2.A)");
    }
    if (s.AtEnd()) return dc;
    if (!s.Consume("&")) return s.SyntaxError(s.offset(), "expected '&'");
  }
}

// ---------------------------------------------------------------------------
// FD shorthand: A,B -> C,D

struct RawName {
  std::string name;
  size_t offset = 0;
};

// A backquoted name, or the characters up to a separator. Names are read
// liberally here (no t1./t2. prefix to delimit them), so FD lines can name
// columns such as `zip-code` or `2nd` without quoting.
absl::StatusOr<std::string> ParseFdName(DcScanner& s) {
  if (s.Peek() == '`') return s.ReadQuoted();
  const absl::string_view line = s.line();
  const size_t start = s.offset();
  size_t end = start;
  while (end < line.size() &&
         !absl::ascii_isspace(static_cast<unsigned char>(line[end])) &&
         line[end] != ',' && line[end] != '#' &&
         !absl::StartsWith(line.substr(end), "->")) {
    ++end;
  }
  s.set_offset(end);
  return std::string(line.substr(start, end - start));
}

absl::StatusOr<std::vector<RawName>> ParseNameList(DcScanner& s,
                                                   absl::string_view side) {
  std::vector<RawName> names;
  do {
    s.SkipSpaces();
    RawName name;
    name.offset = s.offset();
    ASSIGN_OR_RETURN(name.name, ParseFdName(s));
    if (name.name.empty()) {
      return s.SyntaxError(
          name.offset, names.empty()
                           ? absl::StrCat("expected a column name: the ", side,
                                          " of an FD cannot be empty")
                           : std::string("expected a column name after ','"));
    }
    names.push_back(std::move(name));
    s.SkipSpaces();
  } while (s.Consume(","));
  return names;
}

struct Fd {
  std::vector<RawName> lhs;
  std::vector<RawName> rhs;
};

absl::StatusOr<Fd> ParseFd(DcScanner& s) {
  Fd fd;
  ASSIGN_OR_RETURN(fd.lhs, ParseNameList(s, "left-hand side"));
  if (!s.Consume("->")) {
    return s.SyntaxError(s.offset(),
                         "expected ',' or '->' (FD attributes are separated "
                         "by commas)");
  }
  ASSIGN_OR_RETURN(fd.rhs, ParseNameList(s, "right-hand side"));
  if (!s.AtEnd()) {
    return s.SyntaxError(s.offset(), "expected ',' or the end of the line");
  }
  for (const RawName& b : fd.rhs) {
    for (const RawName& a : fd.lhs) {
      if (a.name == b.name) {
        return absl::InvalidArgumentError(absl::StrCat(
            "FD right-hand attribute '", b.name, "'", Where(s.line(), b.offset),
            " also occurs on the left-hand side; X -> B needs B outside X."));
      }
    }
  }
  return fd;
}

// not(t1.A=t2.A & ... & t1.B!=t2.B) for each right-hand attribute B.
std::vector<std::vector<RawPredicate>> ExpandFd(const Fd& fd) {
  std::vector<std::vector<RawPredicate>> dcs;
  for (const RawName& b : fd.rhs) {
    bool duplicate = false;
    for (const RawName& earlier : fd.rhs) {
      if (&earlier == &b) break;
      duplicate = duplicate || earlier.name == b.name;
    }
    if (duplicate) continue;  // A -> B,B is A -> B
    std::vector<RawPredicate> predicates;
    for (const RawName& a : fd.lhs) {
      predicates.push_back(
          {ColumnRef(TupleVar::kT1, a.name, a.offset), CompareOp::kEq,
           ColumnRef(TupleVar::kT2, a.name, a.offset), a.offset});
    }
    predicates.push_back(
        {ColumnRef(TupleVar::kT1, b.name, b.offset), CompareOp::kNe,
         ColumnRef(TupleVar::kT2, b.name, b.offset), b.offset});
    dcs.push_back(std::move(predicates));
  }
  return dcs;
}

// ---------------------------------------------------------------------------
// Validation against the schema and normalisation.

absl::Status SingleTupleError(absl::string_view line, absl::string_view only) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Single-tuple DC \"", absl::StripAsciiWhitespace(line),
      "\": it mentions only ", only,
      ", but single-tuple DCs are outside the paper's model (pairs of tuples "
      "only)."));
}

absl::Status UnknownColumnError(const RawOperand& operand,
                                absl::string_view line, const Schema& schema) {
  std::string known;
  std::string suggestion;
  for (size_t i = 0; i < schema.num_columns(); ++i) {
    const std::string& name = schema.column(i).name;
    if (i < kMaxListedColumns) {
      absl::StrAppend(&known, i == 0 ? "" : ", ", name);
    }
    if (absl::EqualsIgnoreCase(name, operand.value)) suggestion = name;
  }
  if (schema.num_columns() > kMaxListedColumns) {
    absl::StrAppend(&known, ", ... (", schema.num_columns() - kMaxListedColumns,
                    " more)");
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Unknown column '", operand.value, "'", Where(line, operand.offset),
      " (known columns: ", known, ")",
      suggestion.empty() ? ""
                         : absl::StrCat("; did you mean '", suggestion, "'?"),
      "."));
}

absl::StatusOr<Operand> ResolveColumn(const RawOperand& raw,
                                      absl::string_view line,
                                      const Schema& schema) {
  const std::optional<size_t> column = schema.FindColumn(raw.value);
  if (!column.has_value()) return UnknownColumnError(raw, line, schema);
  Operand operand;
  operand.tuple = raw.tuple;
  operand.column = *column;
  return operand;
}

absl::Status TypeMismatch(const RawPredicate& p, absl::string_view line,
                          absl::string_view detail) {
  return absl::InvalidArgumentError(
      absl::StrCat("Type mismatch", Where(line, p.offset), ": ", detail, "."));
}

// Converts the constant `raw` to the type of `column` (`column_source` names
// it in messages).
absl::StatusOr<Constant> ConvertConstant(const RawPredicate& p,
                                         const RawOperand& raw,
                                         const table::ColumnSpec& column,
                                         absl::string_view column_source,
                                         absl::string_view line) {
  Constant constant;
  constant.text = raw.source;
  if (column.type == ColumnType::kString) {
    if (raw.kind == RawOperand::Kind::kNumber) {
      return TypeMismatch(
          p, line,
          absl::StrCat(column_source, " is string but ", raw.source,
                       " is a number; quote it to compare text: '", raw.source,
                       "'"));
    }
    constant.type = ColumnType::kString;
    constant.string_value = raw.value;
    return constant;
  }
  const absl::string_view text = absl::StripAsciiWhitespace(raw.value);
  int64_t int_value = 0;
  double double_value = 0;
  if (column.type == ColumnType::kInt64 && absl::SimpleAtoi(text, &int_value)) {
    constant.type = ColumnType::kInt64;
    constant.int64_value = int_value;
    constant.double_value = static_cast<double>(int_value);
    return constant;
  }
  // SimpleAtod also reads "inf" and "nan", which are no use as constants.
  if (absl::SimpleAtod(text, &double_value) && std::isfinite(double_value)) {
    constant.type = ColumnType::kDouble;
    constant.double_value = double_value;
    return constant;
  }
  return TypeMismatch(
      p, line,
      absl::StrCat(column_source, " is ", table::ColumnTypeName(column.type),
                   " but ", raw.source,
                   raw.kind == RawOperand::Kind::kString
                       ? " is a string that is not a number"
                       : " is not a finite number"));
}

bool IsColumn(const RawOperand& operand) {
  return operand.kind == RawOperand::Kind::kColumn;
}

absl::StatusOr<Predicate> ResolvePredicate(const RawPredicate& raw,
                                           absl::string_view line,
                                           const Schema& schema) {
  if (raw.lhs.kind != RawOperand::Kind::kColumn &&
      raw.rhs.kind != RawOperand::Kind::kColumn) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Predicate", Where(line, raw.offset), " compares two constants (",
        raw.lhs.source, " and ", raw.rhs.source,
        "); each predicate needs a column of t1 or t2."));
  }
  // Column first, t1 first: the constant then converts to its column's type.
  const RawPredicate p = NormalizePredicate(raw, IsColumn);
  Predicate predicate;
  predicate.op = p.op;
  ASSIGN_OR_RETURN(predicate.lhs, ResolveColumn(p.lhs, line, schema));
  const table::ColumnSpec& left = schema.column(predicate.lhs.column);
  if (p.rhs.kind != RawOperand::Kind::kColumn) {
    predicate.rhs.is_constant = true;
    ASSIGN_OR_RETURN(predicate.rhs.constant,
                     ConvertConstant(p, p.rhs, left, p.lhs.source, line));
    return predicate;
  }
  ASSIGN_OR_RETURN(predicate.rhs, ResolveColumn(p.rhs, line, schema));
  const table::ColumnSpec& right = schema.column(predicate.rhs.column);
  // int64 against double is fine: both compare as numbers.
  if ((left.type == ColumnType::kString) !=
      (right.type == ColumnType::kString)) {
    return TypeMismatch(
        p, line,
        absl::StrCat(p.lhs.source, " is ", table::ColumnTypeName(left.type),
                     " but ", p.rhs.source, " is ",
                     table::ColumnTypeName(right.type)));
  }
  return predicate;
}

absl::StatusOr<DenialConstraint> BuildDc(
    const std::vector<RawPredicate>& raw_predicates, absl::string_view line,
    const Schema& schema) {
  const absl::string_view text = absl::StripAsciiWhitespace(line);
  if (raw_predicates.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Denial constraint \"", text, "\" has no predicate."));
  }
  DenialConstraint dc;
  dc.text = std::string(text);
  bool mentions_t1 = false;
  bool mentions_t2 = false;
  for (const RawPredicate& raw : raw_predicates) {
    ASSIGN_OR_RETURN(Predicate predicate, ResolvePredicate(raw, line, schema));
    for (const Operand* operand : {&predicate.lhs, &predicate.rhs}) {
      if (operand->is_constant) continue;
      mentions_t1 = mentions_t1 || operand->tuple == TupleVar::kT1;
      mentions_t2 = mentions_t2 || operand->tuple == TupleVar::kT2;
    }
    dc.predicates.push_back(std::move(predicate));
  }
  if (!mentions_t1 || !mentions_t2) {
    return SingleTupleError(line, mentions_t1 ? "t1" : "t2");
  }
  return dc;
}

// ---------------------------------------------------------------------------
// Dispatch on the syntax.

enum class Syntax { kNative, kBenchmark, kFd };

// Decides the syntax from the start of the line; `s` is at its first
// non-space character and is left there.
absl::StatusOr<Syntax> DetectSyntax(DcScanner& s) {
  const size_t start = s.offset();
  if (s.ConsumeWord("not")) {
    s.SkipSpaces();
    const bool native = s.Peek() == '(';
    s.set_offset(start);
    if (native) return Syntax::kNative;
  }
  const absl::string_view word = s.ReadName();
  const bool after_dot = s.Peek() == '.';
  const bool benchmark = IsTupleWord(word) && (s.AtEnd() || s.Peek() == '&');
  s.set_offset(start);
  if (benchmark) return Syntax::kBenchmark;
  if (absl::StrContains(s.line(), "->")) return Syntax::kFd;
  if (s.Peek() == '(' || (IsTupleWord(word) && after_dot)) {
    return s.SyntaxError(start, "expected 'not(' before the predicates");
  }
  return s.SyntaxError(start,
                       "expected a denial constraint: not(t1.A=t2.A&...), an "
                       "FD A,B -> C, or t1&t2&EQ(t1.A,t2.A)&...");
}

absl::StatusOr<std::vector<DenialConstraint>> ParseBenchmarkLine(
    DcScanner& s, const Schema& schema) {
  ASSIGN_OR_RETURN(BenchmarkDc raw, ParseBenchmark(s));
  // The header is checked first: t1&EQ(t1.A,'x') is single-tuple by design,
  // whatever its predicates say.
  if (!raw.declares_t1 || !raw.declares_t2) {
    return SingleTupleError(s.line(), raw.declares_t1 ? "t1" : "t2");
  }
  ASSIGN_OR_RETURN(DenialConstraint dc,
                   BuildDc(raw.predicates, s.line(), schema));
  return std::vector<DenialConstraint>{std::move(dc)};
}

absl::StatusOr<std::vector<DenialConstraint>> ParseFdLine(
    DcScanner& s, const Schema& schema) {
  ASSIGN_OR_RETURN(const Fd fd, ParseFd(s));
  std::vector<DenialConstraint> dcs;
  for (const std::vector<RawPredicate>& raw : ExpandFd(fd)) {
    ASSIGN_OR_RETURN(DenialConstraint dc, BuildDc(raw, s.line(), schema));
    dcs.push_back(std::move(dc));
  }
  return dcs;
}

}  // namespace

absl::StatusOr<std::vector<DenialConstraint>> ParseDenialConstraintLine(
    absl::string_view line, const table::Schema& schema) {
  DcScanner s(line);
  if (s.AtEnd()) return std::vector<DenialConstraint>{};
  ASSIGN_OR_RETURN(const Syntax syntax, DetectSyntax(s));
  switch (syntax) {
    case Syntax::kNative: {
      ASSIGN_OR_RETURN(const std::vector<RawPredicate> raw, ParseNative(s));
      ASSIGN_OR_RETURN(DenialConstraint dc, BuildDc(raw, line, schema));
      return std::vector<DenialConstraint>{std::move(dc)};
    }
    case Syntax::kBenchmark:
      return ParseBenchmarkLine(s, schema);
    case Syntax::kFd:
      return ParseFdLine(s, schema);
  }
  return absl::InternalError("Unhandled denial-constraint syntax.");
}

absl::StatusOr<std::vector<DenialConstraint>> ParseDenialConstraints(
    absl::string_view text, const table::Schema& schema) {
  // A UTF-8 byte-order mark is invisible in editors; do not report it.
  absl::ConsumePrefix(&text, "\xEF\xBB\xBF");
  std::vector<DenialConstraint> all;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    absl::StatusOr<std::vector<DenialConstraint>> dcs =
        ParseDenialConstraintLine(line, schema);
    if (!dcs.ok()) {
      return util::WithPrefix(absl::StrCat("line ", line_number, ": "),
                              dcs.status());
    }
    for (DenialConstraint& dc : *dcs) {
      dc.line = line_number;
      all.push_back(std::move(dc));
    }
  }
  if (all.empty()) {
    return absl::InvalidArgumentError(
        "No denial constraint found: the text holds only blank lines and "
        "comments.");
  }
  return all;
}

absl::StatusOr<std::vector<DenialConstraint>> ReadDenialConstraintsFile(
    const std::string& path, const table::Schema& schema) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("Cannot open denial-constraint file '", path, "'."));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      ParseDenialConstraints(contents.str(), schema);
  if (!dcs.ok()) {
    return util::WithPrefix(absl::StrCat(path, ": "), dcs.status());
  }
  return dcs;
}

}  // namespace dpq::core::constraints
