#include "core/constraints/dc_parser.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/constraints/dc_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::constraints {
namespace {

using ::dpq::core::constraints::testing::Describe;
using ::dpq::testing::StatusIs;
using table::ColumnType;
using table::Schema;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

// Column indexes of TestSchema().
constexpr size_t kA = 0, kB = 1, kC = 2, kN = 3, kX = 4, kS = 5, kMyCol = 6;

Schema TestSchema() {
  return *Schema::Create({{"A", ColumnType::kString},
                          {"B", ColumnType::kString},
                          {"C", ColumnType::kString},
                          {"N", ColumnType::kInt64},
                          {"X", ColumnType::kDouble},
                          {"S", ColumnType::kString},
                          {"my col", ColumnType::kString}});
}

// Parses a line that must hold exactly one DC.
absl::StatusOr<DenialConstraint> ParseOne(absl::string_view line) {
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      ParseDenialConstraintLine(line, TestSchema());
  if (!dcs.ok()) return dcs.status();
  if (dcs->size() != 1) {
    return absl::InternalError(absl::StrCat(dcs->size(), " DCs"));
  }
  return (*dcs)[0];
}

absl::Status ParseError(absl::string_view line) {
  return ParseDenialConstraintLine(line, TestSchema()).status();
}

// --- Native syntax ---------------------------------------------------------

TEST(DcParserTest, ParsesNativeFd) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.A=t2.A&t1.B!=t2.B)"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#0 = t2#0", "t1#1 != t2#1"));
  EXPECT_EQ(dc.text, "not(t1.A=t2.A&t1.B!=t2.B)");
  EXPECT_EQ(dc.line, 0);
  EXPECT_TRUE(dc.predicates[0].is_join());
}

TEST(DcParserTest, NativeAcceptsEverySeparatorAndSpaces) {
  ASSERT_OK_AND_ASSIGN(
      DenialConstraint dc,
      ParseOne("  NOT ( t1.A = t2.A  and t1.B <> t2.B && t1.C == t2.C "
               "\u2227 t1.N >= t2.N AND t1.S=t2.S )  "));
  EXPECT_THAT(Describe(dc),
              ElementsAre("t1#0 = t2#0", "t1#1 != t2#1", "t1#2 = t2#2",
                          "t1#3 >= t2#3", "t1#5 = t2#5"));
}

TEST(DcParserTest, NativeMapsEveryOperator) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"=", "="},       {"==", "="},      {"!=", "!="},    {"<>", "!="},
      {"<", "<"},       {"<=", "<="},     {">", ">"},      {">=", ">="},
      {"\u2260", "!="}, {"\u2264", "<="}, {"\u2265", ">="}};
  for (const auto& [written, canonical] : cases) {
    ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                         ParseOne(absl::StrCat("not(t1.N", written, "t2.N)")));
    EXPECT_THAT(Describe(dc), ElementsAre("t1#3 " + canonical + " t2#3"))
        << written;
  }
}

TEST(DcParserTest, NativeParsesConstantsOfEveryKind) {
  ASSERT_OK_AND_ASSIGN(
      DenialConstraint dc,
      ParseOne(R"(not(t1.A=t2.A&t1.N>5&t2.X<=-2.5&t1.S='it\'s'&)"
               R"(t2.S!="say \"hi\""&t1.B='C:\x'&t1.N<'7'&t1.X=+1e3))"));
  EXPECT_THAT(Describe(dc),
              ElementsAre("t1#0 = t2#0", "t1#3 > int64:5/5",
                          "t2#4 <= double:-2.5", "t1#5 = string:it's",
                          "t2#5 != string:say \"hi\"", "t1#1 = string:C:\\x",
                          "t1#3 < int64:7/7", "t1#4 = double:1000"));
  EXPECT_EQ(dc.predicates[1].rhs.constant.text, "5");
  EXPECT_EQ(dc.predicates[3].rhs.constant.text, R"('it\'s')");
}

TEST(DcParserTest, FractionalConstantOnInt64ColumnStaysDouble) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.A=t2.A&t1.N<2.5&t2.N>=1e20)"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#0 = t2#0", "t1#3 < double:2.5",
                                        "t2#3 >= double:1e+20"));
  EXPECT_EQ(dc.predicates[1].rhs.constant.type, ColumnType::kDouble);
}

TEST(DcParserTest, IntegerConstantOnDoubleColumnIsDouble) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc, ParseOne("not(t1.A=t2.A&t1.X=3)"));
  EXPECT_THAT(Describe(dc)[1], "t1#4 = double:3");
}

TEST(DcParserTest, AcceptsBackquotedColumnNames) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.`my col`=t2.`my col`&t1.`A`!=t2.A)"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#6 = t2#6", "t1#0 != t2#0"));
}

TEST(DcParserTest, IgnoresTrailingCommentAndCarriageReturn) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.A=t2.A&t1.B='#x') # A -> B\r"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#0 = t2#0", "t1#1 = string:#x"));
}

TEST(DcParserTest, AllowsOrderingOfStringsAndMixedNumericColumns) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.A<t2.A&t1.N>=t2.X&t1.B<='m')"));
  EXPECT_THAT(Describe(dc),
              ElementsAre("t1#0 < t2#0", "t1#3 >= t2#4", "t1#1 <= string:m"));
}

TEST(DcParserTest, BlankAndCommentLinesYieldNothing) {
  EXPECT_THAT(ParseDenialConstraintLine("", TestSchema()),
              ::dpq::testing::IsOkAndHolds(IsEmpty()));
  EXPECT_THAT(ParseDenialConstraintLine("   # A -> B", TestSchema()),
              ::dpq::testing::IsOkAndHolds(IsEmpty()));
}

// --- Normalisation ---------------------------------------------------------

TEST(DcParserTest, MovesConstantToTheRightAndSwapsOperator) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(5<t1.N&'x'=t2.A&t1.B=t2.B&2.5>=t2.X)"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#3 > int64:5/5", "t2#0 = string:x",
                                        "t1#1 = t2#1", "t2#4 <= double:2.5"));
}

TEST(DcParserTest, PutsT1OnTheLeftOfJoins) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t2.A<t1.B&t2.C=t1.C&t2.N>=t1.X)"));
  EXPECT_THAT(Describe(dc),
              ElementsAre("t1#1 > t2#0", "t1#2 = t2#2", "t1#4 <= t2#3"));
}

TEST(DcParserTest, KeepsSameTuplePredicates) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("not(t1.A=t1.B&t2.C<t2.A&t1.N=t2.N)"));
  EXPECT_THAT(Describe(dc),
              ElementsAre("t1#0 = t1#1", "t2#2 < t2#0", "t1#3 = t2#3"));
  EXPECT_FALSE(dc.predicates[0].is_join());
}

// --- Benchmark syntax ------------------------------------------------------

TEST(DcParserTest, ParsesBenchmarkSyntax) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint dc,
                       ParseOne("t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#0 = t2#0", "t1#1 != t2#1"));
}

TEST(DcParserTest, BenchmarkMapsEveryOperatorAndAcceptsConstants) {
  ASSERT_OK_AND_ASSIGN(
      DenialConstraint dc,
      ParseOne("t1 & t2 & LT(t1.N,t2.N) & GT(t1.X,t2.X) & LTE(t2.N,t1.X) & "
               "GTE(t1.N,5) & eq(t1.A,'x') & IQ(t2.B,\"y\")"));
  EXPECT_THAT(Describe(dc), ElementsAre("t1#3 < t2#3", "t1#4 > t2#4",
                                        "t1#4 >= t2#3", "t1#3 >= int64:5/5",
                                        "t1#0 = string:x", "t2#1 != string:y"));
}

TEST(DcParserTest, BenchmarkEqualsNativeForm) {
  ASSERT_OK_AND_ASSIGN(DenialConstraint benchmark,
                       ParseOne("t1&t2&EQ(t1.A,t2.A)&GT(t2.N,t1.N)"));
  ASSERT_OK_AND_ASSIGN(DenialConstraint native,
                       ParseOne("not(t1.A=t2.A&t1.N<t2.N)"));
  EXPECT_EQ(Describe(benchmark), Describe(native));
}

TEST(DcParserTest, RejectsBenchmarkSingleTupleDc) {
  EXPECT_THAT(ParseError("t1&EQ(t1.A,'x')"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Single-tuple DC"),
                             HasSubstr("mentions only t1"),
                             HasSubstr("single-tuple DCs are outside the "
                                       "paper's model (pairs of tuples "
                                       "only)"))));
}

TEST(DcParserTest, RejectsUnknownBenchmarkPredicate) {
  EXPECT_THAT(ParseError("t1&t2&XX(t1.A,t2.A)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 7: expected t1, "
                                 "t2 or a predicate EQ, IQ")));
}

TEST(DcParserTest, ReportsMissingParenthesisInBenchmarkSyntax) {
  EXPECT_THAT(ParseError("t1&t2&EQ(t1.A,t2.A"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 19: expected ')'")));
}

// --- FD shorthand ----------------------------------------------------------

TEST(DcParserTest, ExpandsFdIntoOneDcPerRightHandAttribute) {
  ASSERT_OK_AND_ASSIGN(std::vector<DenialConstraint> dcs,
                       ParseDenialConstraintLine(" A , B->C,S ", TestSchema()));
  ASSERT_THAT(dcs, SizeIs(2));
  EXPECT_THAT(Describe(dcs[0]),
              ElementsAre("t1#0 = t2#0", "t1#1 = t2#1", "t1#2 != t2#2"));
  EXPECT_THAT(Describe(dcs[1]),
              ElementsAre("t1#0 = t2#0", "t1#1 = t2#1", "t1#5 != t2#5"));
  EXPECT_EQ(dcs[1].text, "A , B->C,S");
}

TEST(DcParserTest, FdAcceptsBackquotedNames) {
  ASSERT_OK_AND_ASSIGN(
      std::vector<DenialConstraint> dcs,
      ParseDenialConstraintLine("`my col` -> A", TestSchema()));
  ASSERT_THAT(dcs, SizeIs(1));
  EXPECT_THAT(Describe(dcs[0]), ElementsAre("t1#6 = t2#6", "t1#0 != t2#0"));
}

TEST(DcParserTest, RejectsFdWithEmptyLeftHandSide) {
  EXPECT_THAT(ParseError("-> C"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 1: expected a "
                                 "column name: the left-hand side of an FD "
                                 "cannot be empty")));
}

TEST(DcParserTest, RejectsFdWithEmptyRightHandSide) {
  EXPECT_THAT(ParseError("A,B -> "),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 8: expected a "
                                 "column name: the right-hand side of an FD "
                                 "cannot be empty")));
  EXPECT_THAT(ParseError("A, -> C"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 4: expected a column name after "
                                 "','")));
}

TEST(DcParserTest, RejectsFdWithoutCommas) {
  EXPECT_THAT(ParseError("A B -> C"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 3: expected ',' "
                                 "or '->' (FD attributes are separated by "
                                 "commas)")));
}

TEST(DcParserTest, RejectsFdWithRightHandAttributeOnTheLeft) {
  EXPECT_THAT(ParseError("A,C -> B,C"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("FD right-hand attribute 'C' at "
                                       "position 10"),
                             HasSubstr("also occurs on the left-hand side"))));
}

TEST(DcParserTest, RejectsFdWithUnknownColumn) {
  EXPECT_THAT(ParseError("A -> Foo"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Unknown column 'Foo' at position 6")));
}

// --- Errors ----------------------------------------------------------------

TEST(DcParserTest, RejectsUnknownColumnListingKnownOnes) {
  EXPECT_THAT(
      ParseError("not(t1.A=t2.A&t1.Foo=t2.B)"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(HasSubstr("Unknown column 'Foo' at position 15 in "
                               "\"not(t1.A=t2.A&t1.Foo=t2.B)\""),
                     HasSubstr("(known columns: A, B, C, N, X, S, my col)"))));
}

TEST(DcParserTest, UnknownColumnSuggestsCaseInsensitiveMatch) {
  EXPECT_THAT(ParseError("not(t1.a=t2.A)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("did you mean 'A'?")));
}

TEST(DcParserTest, UnknownColumnTruncatesLongColumnList) {
  std::vector<table::ColumnSpec> columns;
  for (int i = 0; i < 30; ++i) columns.push_back({absl::StrCat("c", i)});
  ASSERT_OK_AND_ASSIGN(Schema wide, Schema::Create(columns));
  EXPECT_THAT(ParseDenialConstraintLine("not(t1.c0=t2.zz)", wide),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("c23, c24, ... (5 more))"),
                             ::testing::Not(HasSubstr("c25")))));
}

TEST(DcParserTest, RejectsStringColumnAgainstNumericColumn) {
  EXPECT_THAT(ParseError("not(t1.A=t2.N)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Type mismatch at position 5"),
                             HasSubstr("t1.A is string but t2.N is int64"))));
  EXPECT_THAT(ParseError("not(t2.X<t1.B)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("t1.B is string but t2.X is double")));
}

TEST(DcParserTest, RejectsNumberConstantForStringColumn) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.B=5)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("Type mismatch at position 15"),
                             HasSubstr("t1.B is string but 5 is a number; "
                                       "quote it to compare text: '5'"))));
}

TEST(DcParserTest, RejectsNonNumericConstantForInt64Column) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.N='abc')"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("t1.N is int64 but 'abc' is a string that "
                                 "is not a number")));
  EXPECT_THAT(ParseError("t1&t2&EQ(t1.A,t2.A)&EQ(t1.X,'nan')"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("t1.X is double but 'nan' is a string")));
}

TEST(DcParserTest, RejectsSingleTupleNativeDc) {
  EXPECT_THAT(ParseError("not(t1.A=t1.B&t1.N>3)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("mentions only t1"),
                             HasSubstr("pairs of tuples only"))));
  EXPECT_THAT(ParseError("not(t2.A='x')"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("mentions only t2")));
  // The header declares both tuples, the predicates use one.
  EXPECT_THAT(ParseError("t1&t2&EQ(t1.A,t1.B)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Single-tuple DC")));
}

TEST(DcParserTest, ReportsSyntaxErrorPosition) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.B=t2.B"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 24: expected ')' "
                                 "in \"not(t1.A=t2.A&t1.B=t2.B\"")));
  EXPECT_THAT(ParseError("not(t1.A=t2.A t1.B=t2.B)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 15: expected '&', "
                                 "'and' or ')'")));
  EXPECT_THAT(ParseError("not(t1.A t2.A)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 10: expected a comparison "
                                 "operator")));
  EXPECT_THAT(ParseError("not(t1.A=t2.A) x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 16: expected the end of the line")));
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.=t2.B)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 18: expected a column name after "
                                 "'t1.'")));
}

TEST(DcParserTest, SyntaxErrorPositionCountsCharactersNotBytes) {
  // "∧" is three bytes in UTF-8 but one character.
  EXPECT_THAT(ParseError("not(t1.A=t2.A \u2227 t1.B=t2.B ?)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 27")));
}

TEST(DcParserTest, RejectsDcWithoutPredicate) {
  EXPECT_THAT(ParseError("not( )"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Denial constraint \"not( )\" has no "
                                 "predicate")));
  EXPECT_THAT(ParseError("t1&t2"), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr("has no predicate")));
}

TEST(DcParserTest, RejectsPredicateComparingTwoConstants) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&5=6)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Predicate at position 15 in "
                                 "\"not(t1.A=t2.A&5=6)\" compares two "
                                 "constants (5 and 6)")));
}

TEST(DcParserTest, RejectsBareWordsSuggestingQuotes) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.B=foo)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 20: unquoted word "
                                 "'foo': write string constants in quotes "
                                 "('foo')")));
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.B=2020-01-01)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unquoted word '2020-01-01'")));
}

TEST(DcParserTest, RejectsUnterminatedString) {
  EXPECT_THAT(ParseError("not(t1.A=t2.A&t1.B='abc)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 20: unterminated "
                                 "string constant")));
}

TEST(DcParserTest, RejectsOtherTupleVariables) {
  EXPECT_THAT(ParseError("not(t1.A=t3.A)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 10: unknown tuple variable 't3'")));
}

TEST(DcParserTest, RejectsLinesInNoSyntax) {
  EXPECT_THAT(ParseError("(t1.A=t2.A)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("position 1: expected 'not(' before")));
  EXPECT_THAT(ParseError("  hello"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("syntax error at position 3: expected a "
                                 "denial constraint")));
}

// --- Whole files -----------------------------------------------------------

TEST(DcParserTest, ParsesTextWithCommentsAndNumbersLines) {
  ASSERT_OK_AND_ASSIGN(
      std::vector<DenialConstraint> dcs,
      ParseDenialConstraints("# header\r\n\r\nA -> B,C\r\n"
                             "t1&t2&EQ(t1.A,t2.A)&IQ(t1.S,t2.S)\r\n"
                             "not(t1.N<t2.N&t1.X>t2.X)",
                             TestSchema()));
  ASSERT_THAT(dcs, SizeIs(4));
  EXPECT_EQ(dcs[0].line, 3);
  EXPECT_EQ(dcs[1].line, 3);
  EXPECT_EQ(dcs[2].line, 4);
  EXPECT_EQ(dcs[3].line, 5);
  EXPECT_THAT(Describe(dcs[3]), ElementsAre("t1#3 < t2#3", "t1#4 > t2#4"));
}

TEST(DcParserTest, PrefixesErrorsWithLineNumber) {
  EXPECT_THAT(ParseDenialConstraints(
                  "A -> B\n# comment\n\nnot(t1.A=t2.A&t1.B=t2.B", TestSchema()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 4: syntax error at position 24: "
                                 "expected ')'")));
}

TEST(DcParserTest, RejectsTextWithoutDc) {
  EXPECT_THAT(ParseDenialConstraints("# nothing\n\n", TestSchema()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("No denial constraint found")));
}

TEST(DcParserTest, ReadFileReportsMissingFile) {
  EXPECT_THAT(
      ReadDenialConstraintsFile("/nonexistent/x.dc", TestSchema()),
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("'/nonexistent/x.dc'")));
}

// --- ToString round trip ---------------------------------------------------

TEST(DcParserTest, ToStringRoundTrips) {
  const std::vector<std::string> lines = {
      "not(t1.A=t2.A&t1.B!=t2.B)",
      "t1&t2&EQ(t1.A,t2.A)&LTE(t1.N,t2.X)&GT(t2.N,5)",
      "not(5<=t1.N & t2.A<t1.B & t1.A=t1.C)",
      R"(not(t1.S='it\'s \\ "q"'&t2.S!="x'y"&t1.A=t2.A))",
      "not(t1.`my col`=t2.`my col`&t1.N<2.5&t1.X>=-0.1&t2.N=-7&t1.N<5.0)",
      "not(t1.X<1e-300&t2.X>123456789.123&t1.A='')",
  };
  const Schema schema = TestSchema();
  for (const std::string& line : lines) {
    ASSERT_OK_AND_ASSIGN(DenialConstraint dc, ParseOne(line));
    const std::string text = dc.ToString(schema);
    ASSERT_OK_AND_ASSIGN(DenialConstraint again, ParseOne(text));
    EXPECT_EQ(Describe(again), Describe(dc)) << line << " -> " << text;
    EXPECT_EQ(again.ToString(schema), text);
  }
}

TEST(DcParserTest, ToStringUsesNormalisedNativeSyntax) {
  const Schema schema = TestSchema();
  ASSERT_OK_AND_ASSIGN(
      DenialConstraint dc,
      ParseOne(R"(t1&t2&EQ(t1.`my col`,t2.`my col`)&GT(5,t1.N)&)"
               R"(IQ(t2.S,'it\'s')&LT(t2.A,t1.A)&EQ(t1.N,5.0))"));
  EXPECT_EQ(dc.ToString(schema),
            R"(not(t1.`my col`=t2.`my col`&t1.N<5&t2.S!='it\'s'&)"
            R"(t1.A>t2.A&t1.N=5.0))");
}

}  // namespace
}  // namespace dpq::core::constraints
