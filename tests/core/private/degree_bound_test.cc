#include "core/private/degree_bound.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/denial_constraint.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::private_measures {
namespace {

using constraints::CompareOp;
using constraints::DenialConstraint;
using constraints::Predicate;
using constraints::TupleVar;
using ::dpq::testing::IsOkAndHolds;
using ::dpq::testing::SeededUrbg;
using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

Predicate Join(size_t a, CompareOp op, size_t b) {
  Predicate p;
  p.lhs.tuple = TupleVar::kT1;
  p.lhs.column = a;
  p.op = op;
  p.rhs.tuple = TupleVar::kT2;
  p.rhs.column = b;
  return p;
}

// FD X -> y as a DC.
DenialConstraint Fd(std::vector<size_t> x, size_t y) {
  DenialConstraint dc;
  for (size_t c : x) dc.predicates.push_back(Join(c, CompareOp::kEq, c));
  dc.predicates.push_back(Join(y, CompareOp::kNe, y));
  return dc;
}

// Paper Figure 1 / Example 3: Capital -> Country, "Ottawa" 4 times.
table::Table CapitalsTable() {
  const table::Schema schema =
      *table::Schema::Create({{"ID", table::ColumnType::kInt64},
                              {"Capital", table::ColumnType::kString},
                              {"Country", table::ColumnType::kString}});
  return *table::Table::FromCells(schema, {{"1", "Ottawa", "Canada"},
                                           {"2", "Ottawa", "Canada"},
                                           {"3", "Ottawa", "Canada"},
                                           {"4", "Ottawa", "Kanada"},
                                           {"5", "Paris", "France"}});
}

TEST(DegreeBoundTest, Example3MaxFrequencyMinusOne) {
  const table::Table t = CapitalsTable();
  const std::vector<size_t> x = {1};
  EXPECT_THAT(DegreeBoundForColumns(t, x), IsOkAndHolds(3u));
  const std::vector<size_t> xy = {1, 2};
  EXPECT_THAT(DegreeBoundForColumns(t, xy), IsOkAndHolds(2u));
  const std::vector<size_t> id = {0};
  EXPECT_THAT(DegreeBoundForColumns(t, id), IsOkAndHolds(0u));
}

TEST(DegreeBoundTest, SkipsRowsWithNullInX) {
  const table::Schema schema = *table::Schema::Create(
      {{"a", table::ColumnType::kDouble}, {"b", table::ColumnType::kInt64}});
  const table::Table t =
      *table::Table::FromCells(schema, {{std::nullopt, "1"},
                                        {"", "1"},
                                        {"0", "1"},
                                        {"-0", "2"},
                                        {"1.5", std::nullopt}});
  const std::vector<size_t> a = {0};
  // Two NULLs do not agree; 0 and -0 do.
  EXPECT_THAT(DegreeBoundForColumns(t, a), IsOkAndHolds(1u));
  const std::vector<size_t> b = {1};
  EXPECT_THAT(DegreeBoundForColumns(t, b), IsOkAndHolds(2u));
  const std::vector<size_t> ab = {0, 1};
  EXPECT_THAT(DegreeBoundForColumns(t, ab), IsOkAndHolds(0u));
}

// The grouping (one column at a time, string columns first, NULL rows out)
// against a brute-force count over all row pairs, on random tables with
// mixed types, NULLs and one to three key columns in any order.
TEST(DegreeBoundTest, MatchesBruteForceOnRandomTables) {
  const table::Schema schema =
      *table::Schema::Create({{"i", table::ColumnType::kInt64},
                              {"s", table::ColumnType::kString},
                              {"d", table::ColumnType::kDouble},
                              {"t", table::ColumnType::kString}});
  std::mt19937 rng(5);
  auto cell = [&](int values) -> std::optional<std::string> {
    const int v = static_cast<int>(rng() % (values + 1));
    if (v == values) return std::nullopt;  // NULL
    return std::to_string(v);
  };
  const std::vector<std::vector<size_t>> keys = {
      {0}, {1}, {2}, {0, 1}, {2, 3}, {3, 0, 2}, {1, 3}};
  for (int round = 0; round < 20; ++round) {
    std::vector<std::vector<std::optional<std::string>>> rows(5 + rng() % 40);
    for (auto& row : rows) row = {cell(3), cell(2), cell(3), cell(2)};
    const table::Table t = *table::Table::FromCells(schema, rows);
    for (const auto& x : keys) {
      uint64_t want = 0;
      for (size_t a = 0; a < rows.size(); ++a) {
        uint64_t equal = 0;
        for (size_t b = 0; b < rows.size(); ++b) {
          bool same = a != b;
          for (size_t c : x) {
            same = same && rows[a][c].has_value() && rows[a][c] == rows[b][c];
          }
          equal += same ? 1 : 0;
        }
        want = std::max(want, equal);  // freq - 1 of a's group
      }
      EXPECT_THAT(DegreeBoundForColumns(t, x), IsOkAndHolds(want))
          << "round " << round << ", " << x.size() << " columns";
    }
  }
}

// The largest d_bound moves by at most 1 when any one row is removed (the
// sensitivity group_bound's B~ relies on), on random tables and keys.
TEST(DegreeBoundTest, LargestBoundHasSensitivityOne) {
  const table::Schema schema =
      *table::Schema::Create({{"a", table::ColumnType::kString},
                              {"b", table::ColumnType::kString},
                              {"c", table::ColumnType::kString}});
  std::mt19937 rng(11);
  const std::vector<DenialConstraint> dcs = {Fd({0}, 2), Fd({1}, 2),
                                             Fd({0, 1}, 2)};
  for (int round = 0; round < 30; ++round) {
    std::vector<std::vector<std::optional<std::string>>> rows(2 + rng() % 30);
    for (auto& row : rows) {
      row = {std::to_string(rng() % 3), std::to_string(rng() % 5),
             std::to_string(rng() % 2)};
    }
    const table::Table t = *table::Table::FromCells(schema, rows);
    const uint64_t with = LargestDegreeBound(*ComputeDegreeBounds(t, dcs));
    for (size_t r = 0; r < rows.size(); ++r) {
      auto fewer = rows;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(r));
      const table::Table u = *table::Table::FromCells(schema, fewer);
      const uint64_t without = LargestDegreeBound(*ComputeDegreeBounds(u, dcs));
      ASSERT_LE(without, with);
      ASSERT_LE(with - without, 1u) << "round " << round << " row " << r;
    }
  }
}

TEST(DegreeBoundTest, LargestBoundIgnoresUnkeyedDcs) {
  EXPECT_EQ(LargestDegreeBound({}), 0u);
  EXPECT_EQ(LargestDegreeBound({{true, 3}, {false, 0}, {true, 7}}), 7u);
  EXPECT_EQ(LargestDegreeBound({{false, 0}}), 0u);
}

// A key with a proper subset among the keys is not minimal; duplicates
// count once; unkeyed DCs none.
TEST(DegreeBoundTest, CountMinimalKeys) {
  DenialConstraint general;  // not(t1.a < t2.a & t1.b != t2.b)
  general.predicates = {Join(0, CompareOp::kLt, 0), Join(1, CompareOp::kNe, 1)};
  EXPECT_EQ(CountMinimalKeys({}), 0u);
  EXPECT_EQ(CountMinimalKeys({general}), 0u);
  EXPECT_EQ(CountMinimalKeys({Fd({0}, 2), Fd({0}, 3)}), 1u);
  EXPECT_EQ(CountMinimalKeys({Fd({0}, 2), Fd({0, 1}, 3), Fd({1}, 2)}), 2u);
  EXPECT_EQ(CountMinimalKeys({Fd({0, 1}, 2), Fd({1, 0}, 3), general}), 1u);
  EXPECT_EQ(CountMinimalKeys({Fd({0, 1}, 3), Fd({1, 2}, 3), Fd({2}, 0)}), 2u);
}

TEST(DegreeBoundTest, CountDegreeKeysAddsTwoPerCrossPair) {
  DenialConstraint general;  // not(t1.a < t2.a & t1.b != t2.b)
  general.predicates = {Join(0, CompareOp::kLt, 0), Join(1, CompareOp::kNe, 1)};
  DenialConstraint cross_ab;  // not(t1.a = t2.b & t1.c != t2.c)
  cross_ab.predicates = {Join(0, CompareOp::kEq, 1),
                         Join(2, CompareOp::kNe, 2)};
  DenialConstraint cross_ba;  // the same pair, the other way round
  cross_ba.predicates = {Join(2, CompareOp::kLt, 2),
                         Join(1, CompareOp::kEq, 0)};
  DenialConstraint keyed_and_cross;  // keyed: its key bounds it
  keyed_and_cross.predicates = {Join(0, CompareOp::kEq, 1),
                                Join(2, CompareOp::kEq, 2)};
  EXPECT_EQ(CountDegreeKeys({}), 0u);
  EXPECT_EQ(CountDegreeKeys({general}), 0u);
  EXPECT_EQ(CountDegreeKeys({cross_ab}), 2u);
  EXPECT_EQ(CountDegreeKeys({cross_ab, cross_ba}), 2u);
  EXPECT_EQ(CountDegreeKeys({Fd({0}, 2), cross_ab, general}), 3u);
  EXPECT_EQ(CountDegreeKeys({keyed_and_cross}), 1u);
}

TEST(DegreeBoundTest, EveryDcBoundedNeedsAKeyOrACrossEquality) {
  const DcDegreeBound keyed{true, 3}, general{false, 0},
      cross{false, 0, true, 5};
  EXPECT_FALSE(EveryDcBounded({}));
  EXPECT_TRUE(EveryDcBounded({keyed}));
  EXPECT_TRUE(EveryDcBounded({keyed, cross}));
  EXPECT_FALSE(EveryDcBounded({keyed, cross, general}));
  EXPECT_EQ(LargestDegreeBound({keyed, cross, general}), 5u);
  // The paper's methods see a cross-keyed DC as unkeyed, as before.
  EXPECT_TRUE(HasUnkeyedDc({keyed, cross}));
}

// Random tables whose cross-column equalities compare int64 with double
// (-0, 2^53 + 1 rounding onto 2^53), int64 with int64 and string with
// string, with NULLs: against the conflicts of Conflicts(),
//  - every degree through a cross-keyed DC is at most 2 c,
//  - every degree through all DCs is at most CountDegreeKeys * B,
//  - B = LargestDegreeBound moves by at most 1 when any row is removed
//    (the sensitivity group_bound's B~ relies on).
TEST(DegreeBoundTest, CrossBoundsBoundDegreesAndHaveSensitivityOne) {
  const table::Schema schema =
      *table::Schema::Create({{"i", table::ColumnType::kInt64},
                              {"d", table::ColumnType::kDouble},
                              {"j", table::ColumnType::kInt64},
                              {"s", table::ColumnType::kString},
                              {"t", table::ColumnType::kString}});
  DenialConstraint int_double;  // not(t1.i = t2.d & t1.s != t2.s)
  int_double.predicates = {Join(0, CompareOp::kEq, 1),
                           Join(3, CompareOp::kNe, 3)};
  DenialConstraint int_int;  // not(t1.j = t2.i & t1.d < t2.d)
  int_int.predicates = {Join(2, CompareOp::kEq, 0), Join(1, CompareOp::kLt, 1)};
  DenialConstraint strings;  // not(t1.s = t2.t & t1.i != t2.i)
  strings.predicates = {Join(3, CompareOp::kEq, 4), Join(0, CompareOp::kNe, 0)};
  const std::vector<DenialConstraint> dcs = {int_double, int_int, strings,
                                             Fd({4}, 2)};
  const uint32_t keys = CountDegreeKeys(dcs);
  ASSERT_EQ(keys, 7u);
  const std::vector<std::string> ints = {"0", "1", "2", "9007199254740993"};
  const std::vector<std::string> doubles = {"0", "-0", "1", "9007199254740992"};
  std::mt19937 rng(17);
  auto pick =
      [&](const std::vector<std::string>& from) -> std::optional<std::string> {
    if (rng() % 8 == 0) return std::nullopt;
    return from[rng() % from.size()];
  };
  for (int round = 0; round < 60; ++round) {
    std::vector<std::vector<std::optional<std::string>>> rows(2 + rng() % 25);
    for (auto& row : rows) {
      row = {pick(ints), pick(doubles), pick(ints), pick({"x", "y", "z"}),
             pick({"x", "y", "w"})};
    }
    const table::Table t = *table::Table::FromCells(schema, rows);
    ASSERT_OK_AND_ASSIGN(const std::vector<DcDegreeBound> b,
                         ComputeDegreeBounds(t, dcs));
    ASSERT_TRUE(EveryDcBounded(b));
    const std::vector<DcDegreeBound> shape = DcBoundShape(dcs);
    for (size_t k = 0; k < dcs.size(); ++k) {
      ASSERT_EQ(shape[k].keyed, b[k].keyed);
      ASSERT_EQ(shape[k].cross_keyed, b[k].cross_keyed);
    }
    const uint64_t largest = LargestDegreeBound(b);
    for (size_t r = 0; r < rows.size(); ++r) {
      uint64_t degree = 0;
      std::vector<uint64_t> per_dc(dcs.size(), 0);
      for (size_t o = 0; o < rows.size(); ++o) {
        if (o == r) continue;
        bool any = false;
        for (size_t k = 0; k < dcs.size(); ++k) {
          const bool c = constraints::Conflicts(dcs[k], t, r, o);
          per_dc[k] += c ? 1 : 0;
          any = any || c;
        }
        degree += any ? 1 : 0;
      }
      for (size_t k = 0; k < 3; ++k) {
        ASSERT_TRUE(b[k].cross_keyed);
        ASSERT_LE(per_dc[k], 2 * b[k].cross_bound)
            << "round " << round << " row " << r << " DC " << k;
      }
      ASSERT_LE(degree, keys * largest) << "round " << round << " row " << r;

      auto fewer = rows;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(r));
      const table::Table u = *table::Table::FromCells(schema, fewer);
      const uint64_t without = LargestDegreeBound(*ComputeDegreeBounds(u, dcs));
      ASSERT_LE(without, largest);
      ASSERT_LE(largest - without, 1u) << "round " << round << " row " << r;
    }
  }
}

TEST(DegreeBoundTest, LargestValueCountReadsIntsAsDoublesWhenAsked) {
  const table::Schema schema =
      *table::Schema::Create({{"i", table::ColumnType::kInt64}});
  // 2^53 and 2^53 + 1 are one double.
  const table::Table t = *table::Table::FromCells(
      schema, {{"9007199254740992"}, {"9007199254740993"}, {"1"}, {""}});
  EXPECT_THAT(LargestValueCount(t, 0, /*as_double=*/false), IsOkAndHolds(1u));
  EXPECT_THAT(LargestValueCount(t, 0, /*as_double=*/true), IsOkAndHolds(2u));
  EXPECT_THAT(
      LargestValueCount(t, 1, false),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range")));
}

TEST(DegreeBoundTest, EmptyTableHasBoundZero) {
  const table::Schema schema =
      *table::Schema::Create({{"a", table::ColumnType::kString}});
  const table::Table t = *table::Table::FromCells(schema, {});
  const std::vector<size_t> a = {0};
  EXPECT_THAT(DegreeBoundForColumns(t, a), IsOkAndHolds(0u));
}

TEST(DegreeBoundTest, RejectsBadColumns) {
  const table::Table t = CapitalsTable();
  const std::vector<size_t> bad = {3};
  EXPECT_THAT(
      DegreeBoundForColumns(t, bad),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("out of range")));
  EXPECT_THAT(DegreeBoundForColumns(t, {}),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(DegreeBoundTest, ComputeDegreeBoundsMarksKeyedDcs) {
  const table::Table t = CapitalsTable();
  DenialConstraint general;  // not(t1.ID < t2.ID & t1.Capital != t2.Capital)
  general.predicates = {Join(0, CompareOp::kLt, 0), Join(1, CompareOp::kNe, 1)};
  DenialConstraint cross;  // t1.Capital = t2.Country is not keyed
  cross.predicates = {Join(1, CompareOp::kEq, 2)};
  const std::vector<DenialConstraint> dcs = {Fd({1}, 2), general, cross};
  ASSERT_OK_AND_ASSIGN(const std::vector<DcDegreeBound> b,
                       ComputeDegreeBounds(t, dcs));
  ASSERT_EQ(b.size(), 3u);
  EXPECT_TRUE(b[0].keyed);
  EXPECT_EQ(b[0].bound, 3u);
  EXPECT_FALSE(b[1].keyed);
  EXPECT_EQ(b[1].bound, 0u);
  EXPECT_FALSE(b[2].keyed);
  // Cross-keyed: c = max(freq of "Ottawa" in Capital (4), of "Canada" in
  // Country (3)).
  EXPECT_FALSE(b[0].cross_keyed);
  EXPECT_FALSE(b[1].cross_keyed);
  EXPECT_TRUE(b[2].cross_keyed);
  EXPECT_EQ(b[2].cross_bound, 4u);
  EXPECT_EQ(LargestDegreeBound(b), 4u);
  EXPECT_FALSE(EveryDcBounded(b));  // `general` bounds nothing
  EXPECT_TRUE(HasUnkeyedDc(b));
  // One keyed DC out of three: not "mainly FDs".
  EXPECT_FALSE(DegreeBoundApplies(b));
}

TEST(DegreeBoundTest, AppliesWhenAtLeastHalfAreKeyed) {
  const DcDegreeBound keyed{true, 3}, general{false, 0};
  EXPECT_FALSE(DegreeBoundApplies({}));
  EXPECT_FALSE(DegreeBoundApplies({general}));
  EXPECT_TRUE(DegreeBoundApplies({keyed}));
  EXPECT_TRUE(DegreeBoundApplies({keyed, general}));
  EXPECT_FALSE(DegreeBoundApplies({keyed, general, general}));
  EXPECT_TRUE(DegreeBoundApplies({keyed, keyed, general}));
  EXPECT_FALSE(HasUnkeyedDc({keyed, keyed}));
}

TEST(NoisyDegreeBoundTest, IsClampedToOneToN) {
  SeededUrbg urbg(1);
  const std::vector<DcDegreeBound> zero = {{true, 0}};
  const std::vector<DcDegreeBound> large = {{true, 1000}, {true, 1000}};
  for (int i = 0; i < 200; ++i) {
    ASSERT_OK_AND_ASSIGN(const uint32_t lo,
                         NoisyDegreeBound(urbg, zero, 0.5, 50));
    EXPECT_GE(lo, 1u);
    EXPECT_LE(lo, 50u);
    ASSERT_OK_AND_ASSIGN(const uint32_t hi,
                         NoisyDegreeBound(urbg, large, 0.5, 50));
    EXPECT_EQ(hi, 50u);  // 2000 + noise of scale 4 is far above N = 50
  }
}

TEST(NoisyDegreeBoundTest, SumsKeyedBoundsOnly) {
  SeededUrbg urbg(2);
  // With a huge epsilon the noise is almost surely 0: 3 + 4 = 7.
  const std::vector<DcDegreeBound> b = {{true, 3}, {false, 99}, {true, 4}};
  EXPECT_THAT(NoisyDegreeBound(urbg, b, 1e5, 100), IsOkAndHolds(7u));
}

TEST(NoisyDegreeBoundTest, RejectsNoKeyedDcAndBadEpsilon) {
  SeededUrbg urbg(3);
  const std::vector<DcDegreeBound> none = {{false, 0}};
  EXPECT_THAT(NoisyDegreeBound(urbg, none, 1.0, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  const std::vector<DcDegreeBound> one = {{true, 1}};
  EXPECT_THAT(NoisyDegreeBound(urbg, one, -1.0, 10),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace dpq::core::private_measures
