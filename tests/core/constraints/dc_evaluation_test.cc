#include "core/constraints/dc_evaluation.h"

#include <optional>
#include <string>
#include <vector>

#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::constraints {
namespace {

using table::ColumnType;
using table::Schema;
using table::Table;

// Rows:            name   city     zip    salary rate
//   0              alice  boston   2134   100    5.0
//   1              bob    boston   2134   200    6.0
//   2              carol  NULL     2134   NULL   4.0
//   3              dave   york     10001  200    4.5
//   4              erin   boston   2134   150    NULL
class DcEvaluationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    schema_ = new Schema(*Schema::Create({{"name", ColumnType::kString},
                                          {"city", ColumnType::kString},
                                          {"zip", ColumnType::kInt64},
                                          {"salary", ColumnType::kInt64},
                                          {"rate", ColumnType::kDouble}}));
    const std::optional<std::string> null;
    absl::StatusOr<Table> table =
        Table::FromCells(*schema_, {{"alice", "boston", "2134", "100", "5.0"},
                                    {"bob", "boston", "2134", "200", "6.0"},
                                    {"carol", null, "2134", null, "4.0"},
                                    {"dave", "york", "10001", "200", "4.5"},
                                    {"erin", "boston", "2134", "150", ""}});
    ASSERT_TRUE(table.ok()) << table.status();
    table_ = new Table(*std::move(table));
  }
  static void TearDownTestSuite() {
    delete table_;
    delete schema_;
  }

  static DenialConstraint Dc(const std::string& line) {
    absl::StatusOr<std::vector<DenialConstraint>> dcs =
        ParseDenialConstraintLine(line, *schema_);
    EXPECT_TRUE(dcs.ok()) << dcs.status();
    return dcs.ok() ? dcs->front() : DenialConstraint{};
  }

  static Schema* schema_;
  static Table* table_;
};

Schema* DcEvaluationTest::schema_ = nullptr;
Table* DcEvaluationTest::table_ = nullptr;

TEST_F(DcEvaluationTest, FdViolatedByPairsAgreeingOnLhsOnly) {
  const DenialConstraint dc = Dc("zip -> city");
  EXPECT_FALSE(Violates(dc, *table_, 0, 1));  // same zip, same city
  EXPECT_FALSE(Violates(dc, *table_, 0, 3));  // different zip
  // NULL city: t1.city != t2.city is false, so no violation.
  EXPECT_FALSE(Violates(dc, *table_, 0, 2));
  EXPECT_FALSE(Violates(dc, *table_, 2, 0));
}

TEST_F(DcEvaluationTest, InequalityDcIsOrderSensitive) {
  const DenialConstraint dc = Dc("not(t1.salary<t2.salary&t1.rate<t2.rate)");
  EXPECT_TRUE(Violates(dc, *table_, 0, 1));  // 100<200, 5.0<6.0
  EXPECT_FALSE(Violates(dc, *table_, 1, 0));
  EXPECT_TRUE(Conflicts(dc, *table_, 1, 0));  // either orientation
  EXPECT_FALSE(Violates(dc, *table_, 1, 3));  // 200<200 is false
  EXPECT_FALSE(Violates(dc, *table_, 2, 1));  // NULL salary
  EXPECT_FALSE(Violates(dc, *table_, 4, 1));  // NULL rate
  EXPECT_FALSE(Conflicts(dc, *table_, 0, 0));
}

TEST_F(DcEvaluationTest, NullMakesEveryOperatorFalse) {
  for (const char* op : {"=", "!=", "<", "<=", ">", ">="}) {
    const DenialConstraint dc =
        Dc(std::string("not(t1.salary") + op + "t2.salary)");
    for (size_t other = 0; other < table_->num_rows(); ++other) {
      EXPECT_FALSE(Violates(dc, *table_, 2, other)) << op << " " << other;
      EXPECT_FALSE(Violates(dc, *table_, other, 2)) << op << " " << other;
    }
  }
}

TEST_F(DcEvaluationTest, StringsCompareLexicographically) {
  const DenialConstraint dc = Dc("not(t1.name<t2.name&t1.city=t2.city)");
  EXPECT_TRUE(Violates(dc, *table_, 0, 1));  // alice < bob
  EXPECT_FALSE(Violates(dc, *table_, 1, 0));
  EXPECT_TRUE(Violates(dc, *table_, 1, 4));   // bob < erin
  EXPECT_FALSE(Violates(dc, *table_, 0, 3));  // boston != york
}

TEST_F(DcEvaluationTest, StringConstantsNeedNotOccurInTheTable) {
  // 'c' is no cell of the table, so it has no dictionary id.
  const DenialConstraint dc =
      Dc("not(t1.city<'c'&t2.city>='c'&t1.zip!=t2.zip)");
  EXPECT_FALSE(Violates(dc, *table_, 0, 1));  // same zip
  EXPECT_TRUE(Violates(dc, *table_, 0, 3));   // boston < c <= york
  EXPECT_FALSE(Violates(dc, *table_, 3, 0));
  EXPECT_FALSE(Violates(dc, *table_, 2, 3));  // NULL city
  const DenialConstraint eq = Dc("not(t1.city='york'&t2.city='boston')");
  EXPECT_TRUE(Violates(eq, *table_, 3, 0));
  EXPECT_FALSE(Violates(eq, *table_, 0, 3));
}

TEST_F(DcEvaluationTest, NumericConstantsCompareByValue) {
  // 2134 < 2134.5 needs the double comparison.
  const DenialConstraint fractional = Dc("not(t1.zip<2134.5&t2.zip>2134)");
  EXPECT_TRUE(Violates(fractional, *table_, 0, 3));
  EXPECT_FALSE(Violates(fractional, *table_, 3, 0));
  const DenialConstraint integral = Dc("not(t1.zip=2134&t2.rate>=4.5)");
  EXPECT_TRUE(Violates(integral, *table_, 0, 3));
  EXPECT_FALSE(Violates(integral, *table_, 3, 0));
  EXPECT_FALSE(Violates(integral, *table_, 0, 2));  // 4.0 < 4.5
  EXPECT_FALSE(Violates(integral, *table_, 0, 4));  // NULL rate
}

TEST_F(DcEvaluationTest, Int64ComparesWithDoubleColumn) {
  const DenialConstraint dc = Dc("not(t1.rate<t2.salary&t1.name!=t2.name)");
  EXPECT_TRUE(Violates(dc, *table_, 0, 1));  // 5.0 < 200
  const DenialConstraint eq = Dc("not(t1.rate=t2.rate&t1.zip!=t2.zip)");
  EXPECT_FALSE(Violates(eq, *table_, 0, 3));
}

TEST_F(DcEvaluationTest, EvaluatesSameTuplePredicatesOnTheirTuple) {
  // t2.zip > t2.salary holds for every row with a salary; it reads t2 only.
  const DenialConstraint dc = Dc("not(t2.zip>t2.salary&t1.city=t2.city)");
  EXPECT_TRUE(Violates(dc, *table_, 0, 1));
  EXPECT_FALSE(Violates(dc, *table_, 0, 3));
  EXPECT_FALSE(Violates(dc, *table_, 0, 2));  // NULL salary in t2
}

TEST_F(DcEvaluationTest, SingleRowCanViolateWithItself) {
  const DenialConstraint dc = Dc("not(t1.salary<=t2.salary&t1.city=t2.city)");
  EXPECT_TRUE(Violates(dc, *table_, 0, 0));
  EXPECT_FALSE(Violates(dc, *table_, 2, 2));  // NULLs
}

TEST_F(DcEvaluationTest, HandBuiltConstantOnTheLeftIsMirrored) {
  Predicate p;
  p.lhs.is_constant = true;
  p.lhs.constant.type = ColumnType::kInt64;
  p.lhs.constant.int64_value = 150;
  p.lhs.constant.double_value = 150;
  p.op = CompareOp::kLt;  // 150 < t1.salary
  p.rhs.tuple = TupleVar::kT1;
  p.rhs.column = 3;
  EXPECT_TRUE(EvaluatePredicate(p, *table_, 1, 0));   // 200
  EXPECT_FALSE(EvaluatePredicate(p, *table_, 0, 1));  // 100
  EXPECT_FALSE(EvaluatePredicate(p, *table_, 4, 1));  // 150
}

TEST_F(DcEvaluationTest, EmptyDcIsViolatedByNothing) {
  EXPECT_FALSE(Violates(DenialConstraint{}, *table_, 0, 1));
}

}  // namespace
}  // namespace dpq::core::constraints
