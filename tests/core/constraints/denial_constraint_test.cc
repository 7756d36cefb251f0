#include "core/constraints/denial_constraint.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/constraints/dc_parser.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::constraints {
namespace {

using table::ColumnType;
using table::Schema;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

Schema TestSchema() {
  return *Schema::Create({{"A", ColumnType::kString},
                          {"B", ColumnType::kString},
                          {"C", ColumnType::kString},
                          {"N", ColumnType::kInt64}});
}

DenialConstraint Parse(const std::string& line) {
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      ParseDenialConstraintLine(line, TestSchema());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  EXPECT_EQ(dcs.ok() ? dcs->size() : 0, 1u);
  return dcs.ok() && dcs->size() == 1 ? (*dcs)[0] : DenialConstraint{};
}

TEST(CompareOpTest, SymbolsAreTheNativeOnes) {
  EXPECT_EQ(CompareOpSymbol(CompareOp::kEq), "=");
  EXPECT_EQ(CompareOpSymbol(CompareOp::kNe), "!=");
  EXPECT_EQ(CompareOpSymbol(CompareOp::kLt), "<");
  EXPECT_EQ(CompareOpSymbol(CompareOp::kLe), "<=");
  EXPECT_EQ(CompareOpSymbol(CompareOp::kGt), ">");
  EXPECT_EQ(CompareOpSymbol(CompareOp::kGe), ">=");
}

TEST(CompareOpTest, SwapOperandsMirrorsOrderingAndKeepsEquality) {
  EXPECT_EQ(SwapOperands(CompareOp::kEq), CompareOp::kEq);
  EXPECT_EQ(SwapOperands(CompareOp::kNe), CompareOp::kNe);
  EXPECT_EQ(SwapOperands(CompareOp::kLt), CompareOp::kGt);
  EXPECT_EQ(SwapOperands(CompareOp::kLe), CompareOp::kGe);
  EXPECT_EQ(SwapOperands(CompareOp::kGt), CompareOp::kLt);
  EXPECT_EQ(SwapOperands(CompareOp::kGe), CompareOp::kLe);
  for (CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt,
                       CompareOp::kLe, CompareOp::kGt, CompareOp::kGe}) {
    EXPECT_EQ(SwapOperands(SwapOperands(op)), op);
  }
}

Operand Column(TupleVar tuple, size_t column) {
  Operand operand;
  operand.tuple = tuple;
  operand.column = column;
  return operand;
}

Operand IntConstant(int64_t value) {
  Operand operand;
  operand.is_constant = true;
  operand.constant.type = ColumnType::kInt64;
  operand.constant.int64_value = value;
  operand.constant.double_value = static_cast<double>(value);
  return operand;
}

TEST(NormalizePredicateTest, PutsTheColumnFirstAndT1First) {
  // 5 < t1.N  ->  t1.N > 5
  const Predicate constant_first = NormalizePredicate(
      Predicate{IntConstant(5), CompareOp::kLt, Column(TupleVar::kT1, 3)});
  EXPECT_FALSE(constant_first.lhs.is_constant);
  EXPECT_EQ(constant_first.lhs.column, 3u);
  EXPECT_EQ(constant_first.op, CompareOp::kGt);
  EXPECT_TRUE(constant_first.rhs.is_constant);
  EXPECT_EQ(constant_first.rhs.constant.int64_value, 5);

  // t2.A <= t1.B  ->  t1.B >= t2.A
  const Predicate t2_first = NormalizePredicate(Predicate{
      Column(TupleVar::kT2, 0), CompareOp::kLe, Column(TupleVar::kT1, 1)});
  EXPECT_EQ(t2_first.lhs.tuple, TupleVar::kT1);
  EXPECT_EQ(t2_first.lhs.column, 1u);
  EXPECT_EQ(t2_first.op, CompareOp::kGe);
  EXPECT_EQ(t2_first.rhs.tuple, TupleVar::kT2);
  EXPECT_EQ(t2_first.rhs.column, 0u);
}

TEST(NormalizePredicateTest, KeepsNormalAndSameTuplePredicates) {
  for (const Predicate& p :
       {Predicate{Column(TupleVar::kT1, 0), CompareOp::kLt,
                  Column(TupleVar::kT2, 1)},
        Predicate{Column(TupleVar::kT2, 0), CompareOp::kLt,
                  Column(TupleVar::kT2, 1)},
        Predicate{Column(TupleVar::kT2, 3), CompareOp::kNe, IntConstant(1)}}) {
    const Predicate n = NormalizePredicate(p);
    EXPECT_EQ(n.lhs.tuple, p.lhs.tuple);
    EXPECT_EQ(n.lhs.column, p.lhs.column);
    EXPECT_EQ(n.op, p.op);
    EXPECT_EQ(n.rhs.is_constant, p.rhs.is_constant);
  }
}

TEST(DenialConstraintTest, RecognisesFunctionalDependency) {
  std::vector<size_t> lhs;
  size_t rhs = 99;
  EXPECT_TRUE(Parse("not(t1.A=t2.A&t1.B=t2.B&t1.C!=t2.C)")
                  .IsFunctionalDependency(&lhs, &rhs));
  EXPECT_THAT(lhs, ElementsAre(0, 1));
  EXPECT_EQ(rhs, 2u);
  // Order of predicates and t2-first writing do not matter.
  EXPECT_TRUE(
      Parse("not(t2.C!=t1.C&t2.A=t1.A)").IsFunctionalDependency(&lhs, &rhs));
  EXPECT_THAT(lhs, ElementsAre(0));
  EXPECT_EQ(rhs, 2u);
  EXPECT_TRUE(
      Parse("t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)").IsFunctionalDependency());
}

TEST(DenialConstraintTest, RejectsNonFdShapes) {
  const std::vector<std::string> not_fds = {
      "not(t1.A=t2.A&t1.N<t2.N)",              // ordering
      "not(t1.A=t2.B&t1.C!=t2.C)",             // different columns
      "not(t1.A=t2.A&t1.B=t2.B)",              // no !=
      "not(t1.A=t2.A&t1.B!=t2.B&t1.C!=t2.C)",  // two !=
      "not(t1.B!=t2.B)",                       // empty X
      "not(t1.A=t2.A&t1.B!=t2.B&t1.C='x')",    // constant
      "not(t1.A=t2.A&t1.B!=t2.B&t1.A=t1.C)",   // same-tuple predicate
      "not(t1.A=t2.A&t1.A!=t2.A)",             // B in X: never violated
  };
  for (const std::string& line : not_fds) {
    EXPECT_FALSE(Parse(line).IsFunctionalDependency()) << line;
  }
}

TEST(DenialConstraintTest, SameColumnEqualitiesAreDeduplicatedInOrder) {
  EXPECT_THAT(Parse("not(t1.C=t2.C&t1.A=t2.B&t1.N<t2.N&t2.A=t1.A&t1.C=t2.C&"
                    "t1.B='x'&t1.B=t1.B&t1.N!=t2.N)")
                  .SameColumnEqualities(),
              ElementsAre(2, 0));
  EXPECT_THAT(Parse("not(t1.N<t2.N&t1.A!=t2.A)").SameColumnEqualities(),
              IsEmpty());
}

TEST(DenialConstraintTest, ToStringQuotesConstantsAndOddColumnNames) {
  absl::StatusOr<Schema> schema = Schema::Create(
      {{"zip code", ColumnType::kString}, {"a`b", ColumnType::kInt64}});
  ASSERT_TRUE(schema.ok());
  absl::StatusOr<std::vector<DenialConstraint>> dcs = ParseDenialConstraintLine(
      R"(not(t1.`zip code`=t2.`zip code`&t1.`a\`b`>t2.`a\`b`&)"
      R"(t1.`zip code`!='O\'Neil\\'))",
      *schema);
  ASSERT_TRUE(dcs.ok()) << dcs.status();
  EXPECT_EQ((*dcs)[0].ToString(*schema),
            R"(not(t1.`zip code`=t2.`zip code`&t1.`a\`b`>t2.`a\`b`&)"
            R"(t1.`zip code`!='O\'Neil\\'))");
  EXPECT_EQ(PredicateToString((*dcs)[0].predicates[1], *schema),
            R"(t1.`a\`b`>t2.`a\`b`)");
}

TEST(DenialConstraintTest, ToStringWritesNumbersThatParseBackToTheirType) {
  DenialConstraint dc = Parse("not(t1.A=t2.A&t1.N<3.0&t1.N>=-12&t2.N!=0.25)");
  EXPECT_EQ(dc.ToString(TestSchema()),
            "not(t1.A=t2.A&t1.N<3.0&t1.N>=-12&t2.N!=0.25)");
  // The shortest round-trip text (util::ShortestDouble), with ".0" where
  // it would otherwise read as an integer.
  EXPECT_EQ(Parse("not(t1.A=t2.A&t1.N<100.0&t2.N>1e20)").ToString(TestSchema()),
            "not(t1.A=t2.A&t1.N<100.0&t2.N>1e+20)");
}

TEST(DenialConstraintTest, TupleVarNames) {
  EXPECT_EQ(TupleVarName(TupleVar::kT1), "t1");
  EXPECT_EQ(TupleVarName(TupleVar::kT2), "t2");
}

}  // namespace
}  // namespace dpq::core::constraints
