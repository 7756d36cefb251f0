#include "bench/peers/dc_sql.h"

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::bench::peers {
namespace {

using core::constraints::DenialConstraint;
using core::table::ColumnType;
using core::table::Schema;
using ::testing::HasSubstr;
using ::testing::Not;

Schema TaxLike() {
  return *Schema::Create({{"zip", ColumnType::kString},
                          {"city", ColumnType::kString},
                          {"salary", ColumnType::kInt64},
                          {"rate", ColumnType::kDouble},
                          {"my \"col\"", ColumnType::kString}});
}

std::vector<DenialConstraint> Parse(absl::string_view text) {
  auto dcs = core::constraints::ParseDenialConstraints(text, TaxLike());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  return dcs.ok() ? *dcs : std::vector<DenialConstraint>{};
}

TEST(QuoteTest, DoublesTheQuoteCharacter) {
  EXPECT_EQ(QuoteIdentifier("my \"col\""), "\"my \"\"col\"\"\"");
  EXPECT_EQ(QuoteLiteral("O'Hare"), "'O''Hare'");
}

TEST(LoadTableSqlTest, ReadsTextAndCastsNumbersWithNanAsNull) {
  const std::string sql = LoadTableSql(TaxLike(), "/tmp/it's.csv");
  EXPECT_EQ(sql,
            "CREATE TABLE t AS SELECT\n"
            "  \"zip\",\n"
            "  \"city\",\n"
            "  CAST(CASE WHEN \"salary\" IN ('NaN', 'nan', 'NAN') THEN NULL "
            "ELSE trim(\"salary\", ' ') END AS BIGINT) AS \"salary\",\n"
            "  CAST(CASE WHEN \"rate\" IN ('NaN', 'nan', 'NAN') THEN NULL "
            "ELSE trim(\"rate\", ' ') END AS DOUBLE) AS \"rate\",\n"
            "  \"my \"\"col\"\"\"\n"
            "FROM read_csv('/tmp/it''s.csv', header = true, auto_detect = "
            "false, delim = ',', quote = '\"', escape = '\"',\n"
            "  columns = {'zip': 'VARCHAR', 'city': 'VARCHAR', 'salary': "
            "'VARCHAR', 'rate': 'VARCHAR', 'my \"col\"': 'VARCHAR'});");
}

TEST(DcPairsSqlTest, FunctionalDependencyJoinsEachPairOnce) {
  const auto dcs = Parse("zip -> city");
  ASSERT_EQ(dcs.size(), 1u);
  EXPECT_TRUE(IsSymmetric(dcs[0], TaxLike()));
  EXPECT_EQ(DcPairsSql(dcs[0], TaxLike()),
            "SELECT a.rowid AS i, b.rowid AS j FROM t AS a JOIN t AS b ON "
            "a.\"zip\" = b.\"zip\" AND a.\"city\" <> b.\"city\" AND "
            "a.rowid < b.rowid");
}

TEST(DcPairsSqlTest, OrderComparisonsTryBothOrders) {
  const auto dcs =
      Parse("not(t1.zip=t2.zip&t1.salary>t2.salary&t2.rate>t1.rate)");
  ASSERT_EQ(dcs.size(), 1u);
  EXPECT_FALSE(IsSymmetric(dcs[0], TaxLike()));
  // t2.rate>t1.rate is normalised to t1.rate<t2.rate.
  EXPECT_EQ(DcPairsSql(dcs[0], TaxLike()),
            "SELECT least(a.rowid, b.rowid) AS i, greatest(a.rowid, b.rowid) "
            "AS j FROM t AS a JOIN t AS b ON a.\"zip\" = b.\"zip\" AND "
            "a.\"salary\" > b.\"salary\" AND a.\"rate\" < b.\"rate\" AND "
            "a.rowid <> b.rowid");
}

TEST(DcPairsSqlTest, ConstantsAndSameTupleComparisons) {
  const auto dcs = Parse(
      "not(t1.city='O\\'Hare'&5<t1.salary&t2.rate>=2.5&t1.zip<=t2.zip&"
      "t2.salary<t2.rate&t1.`my \"col\"`!=t2.`my \"col\"`)");
  ASSERT_EQ(dcs.size(), 1u);
  EXPECT_EQ(DcPairsSql(dcs[0], TaxLike()),
            "SELECT least(a.rowid, b.rowid) AS i, greatest(a.rowid, b.rowid) "
            "AS j FROM t AS a JOIN t AS b ON a.\"city\" = 'O''Hare' AND "
            "a.\"salary\" > 5 AND b.\"rate\" >= CAST('2.5' AS DOUBLE) AND "
            "a.\"zip\" <= b.\"zip\" AND b.\"salary\" < b.\"rate\" AND "
            "a.\"my \"\"col\"\"\" <> b.\"my \"\"col\"\"\" AND "
            "a.rowid <> b.rowid");
}

TEST(IsSymmetricTest, SwappingTheTuplesMustGiveTheSamePredicates) {
  const auto dcs = Parse(
      "not(t1.zip=t2.city)\n"
      "not(t1.zip=t2.city&t1.city=t2.zip)\n"
      "not(t1.salary<t2.salary&t1.salary>t2.salary)\n"
      "not(t1.zip=t2.zip&t1.salary>5)\n"
      "not(t1.zip=t2.zip&t1.salary>5&t2.salary>5)\n"
      "t1&t2&EQ(t1.zip,t2.zip)&IQ(t1.rate,t2.rate)");
  ASSERT_EQ(dcs.size(), 6u);
  EXPECT_FALSE(IsSymmetric(dcs[0], TaxLike()));
  EXPECT_TRUE(IsSymmetric(dcs[1], TaxLike()));
  EXPECT_TRUE(IsSymmetric(dcs[2], TaxLike()));
  EXPECT_FALSE(IsSymmetric(dcs[3], TaxLike()));
  EXPECT_TRUE(IsSymmetric(dcs[4], TaxLike()));
  EXPECT_TRUE(IsSymmetric(dcs[5], TaxLike()));
}

TEST(CountConflictsSqlTest, UnionOfOneSelfJoinPerDc) {
  const auto dcs =
      Parse("zip -> city\nnot(t1.salary<t2.salary&t1.rate>t2.rate)");
  ASSERT_EQ(dcs.size(), 2u);
  const std::string sql = CountConflictsSql(dcs, TaxLike());
  EXPECT_EQ(sql,
            "SELECT count(*) AS conflicting_pairs FROM (\n"
            "  -- " +
                dcs[0].text + "\n  " + DcPairsSql(dcs[0], TaxLike()) +
                "\n  UNION\n"
                "  -- " +
                dcs[1].text + "\n  " + DcPairsSql(dcs[1], TaxLike()) + "\n);");
}

TEST(CountConflictsSqlTest, MirrorImagesAndRepeatsAreJoinedOnce) {
  const auto dcs = Parse(
      "not(t1.zip=t2.zip&t1.salary>t2.salary&t1.rate<t2.rate)\n"
      "not(t1.zip=t2.zip&t1.salary<t2.salary&t1.rate>t2.rate)\n"
      "not(t1.rate<t2.rate&t1.salary>t2.salary&t2.zip=t1.zip)\n"
      "zip -> city");
  ASSERT_EQ(dcs.size(), 4u);
  const std::string sql = CountConflictsSql(dcs, TaxLike());
  EXPECT_THAT(sql, HasSubstr(DcPairsSql(dcs[0], TaxLike())));
  EXPECT_THAT(sql, Not(HasSubstr(DcPairsSql(dcs[1], TaxLike()))));
  EXPECT_THAT(sql, HasSubstr(DcPairsSql(dcs[3], TaxLike())));
  EXPECT_EQ(sql.find("UNION"), sql.rfind("UNION"));  // two joins
}

TEST(CountConflictsSqlTest, OneDcIsMadeDistinct) {
  const auto dcs = Parse("not(t1.salary<t2.salary&t1.rate>t2.rate)");
  ASSERT_EQ(dcs.size(), 1u);
  const std::string sql = CountConflictsSql(dcs, TaxLike());
  EXPECT_THAT(sql, HasSubstr("SELECT DISTINCT i, j FROM ("));
  EXPECT_THAT(sql, Not(HasSubstr("UNION")));
  EXPECT_THAT(sql, HasSubstr(DcPairsSql(dcs[0], TaxLike())));
}

}  // namespace
}  // namespace dpq::bench::peers
