#include "core/constraints/dc_pair_key.h"

#include <string>
#include <vector>

#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "gtest/gtest.h"

namespace dpq::core::constraints {
namespace {

using table::ColumnType;
using table::Schema;

Schema TestSchema() {
  return *Schema::Create({{"A", ColumnType::kString},
                          {"B", ColumnType::kString},
                          {"N", ColumnType::kInt64},
                          {"X", ColumnType::kDouble}});
}

DenialConstraint Parse(const std::string& line) {
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      ParseDenialConstraintLine(line, TestSchema());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  return dcs.ok() && dcs->size() == 1 ? (*dcs)[0] : DenialConstraint{};
}

// Same unordered pairs: equal keys, directly or after mirroring one.
bool SamePairs(const std::string& x, const std::string& y) {
  const DenialConstraint a = Parse(x), b = Parse(y);
  return DcPredicateKey(a, false) == DcPredicateKey(b, false) ||
         DcPredicateKey(a, false) == DcPredicateKey(b, true);
}

TEST(DcPairKeyTest, OrderAndSpellingOfPredicatesDoNotMatter) {
  EXPECT_TRUE(
      SamePairs("not(t1.A=t2.A&t1.B!=t2.B)", "not(t2.B!=t1.B&t2.A=t1.A)"));
  EXPECT_TRUE(SamePairs("A -> B", "not(t1.A=t2.A&t1.B!=t2.B)"));
  // A repeated predicate changes nothing in a conjunction.
  EXPECT_TRUE(SamePairs("not(t1.A=t2.A&t1.A=t2.A&t1.B!=t2.B)", "A -> B"));
  EXPECT_TRUE(SamePairs("not(t1.N>3&t1.A=t2.A)", "not(t2.A=t1.A&3<t1.N)"));
}

TEST(DcPairKeyTest, MirrorImagesHaveTheSamePairs) {
  // The paper's two tax DCs on salary and rate.
  EXPECT_TRUE(SamePairs("not(t1.A=t2.A&t1.N>t2.N&t1.X<t2.X)",
                        "not(t1.A=t2.A&t1.N<t2.N&t1.X>t2.X)"));
  // Single-tuple predicates move with their tuple.
  EXPECT_TRUE(SamePairs("not(t1.N>3&t1.A=t2.A&t2.B='b')",
                        "not(t2.N>3&t1.A=t2.A&t1.B='b')"));
  const DenialConstraint d = Parse("not(t1.N>t2.N&t1.A=t2.A)");
  EXPECT_NE(DcPredicateKey(d, false), DcPredicateKey(d, true));
}

TEST(DcPairKeyTest, DifferentConstraintsDiffer) {
  EXPECT_FALSE(SamePairs("A -> B", "B -> A"));
  EXPECT_FALSE(SamePairs("not(t1.N>3&t1.A=t2.A)", "not(t1.N>4&t1.A=t2.A)"));
  EXPECT_FALSE(SamePairs("not(t1.N>3&t1.A=t2.A)", "not(t1.N>=3&t1.A=t2.A)"));
  // Only t1 is restricted: not the mirror of a DC restricting both.
  EXPECT_FALSE(
      SamePairs("not(t1.N>t2.N&t1.X>t2.X)", "not(t1.N>t2.N&t1.X<t2.X)"));
  EXPECT_FALSE(
      SamePairs("not(t1.X<0.5&t1.A=t2.A)", "not(t1.X<0.25&t1.A=t2.A)"));
  EXPECT_FALSE(SamePairs("not(t1.A='a'&t1.B=t2.B)", "not(t1.A='b'&t1.B=t2.B)"));
}

TEST(DcPairKeyTest, NegativeZeroIsZero) {
  EXPECT_TRUE(SamePairs("not(t1.X<0.0&t1.A=t2.A)", "not(t1.X<-0.0&t1.A=t2.A)"));
}

}  // namespace
}  // namespace dpq::core::constraints
