// The chain families of order DCs (core/graph/order_chains.h): R states
// exactly the conflicts of its DC, on typed columns with NULLs, and the
// chains close the clique LP's gap (core/measures/clique_lp_bound.h) where
// triangles alone leave a large clique at two thirds.
#include "core/graph/order_chains.h"

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/constraints/dc_parser.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/measures/clique_lp_bound.h"
#include "core/measures/vertex_cover.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/graph/conflict_graph_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using table::ColumnSpec;
using table::ColumnType;
using table::Schema;
using table::Table;
using testing::Cells;

using testing::Adjacent;
using testing::ConflictGraphOrDie;
using testing::ParseOrDie;
using testing::TableOrDie;

TEST(OrderChainsTest, RecognisesOrderDcsOnly) {
  const Table t = TableOrDie(
      {{"a", ColumnType::kInt64}, {"b", ColumnType::kInt64}}, {{"1", "2"}});
  const auto dcs = ParseOrDie(
      "not(t1.a<t2.a&t1.b>t2.b)\n"   // order
      "not(t1.a=t2.a&t1.b<=t2.b)\n"  // one order: no chains (< and > are FDs)
      "not(t1.a=t2.a&t1.b!=t2.b)\n"  // FD: != is not transitive
      "not(t1.a=t2.a)\n"             // key: no order
      "not(t1.a<t2.b)\n"             // two columns
      "not(t1.a<t2.a&t1.b>5)\n",     // a constant
      t);
  ASSERT_EQ(dcs.size(), 6u);
  EXPECT_TRUE(IsOrderDc(dcs[0]));
  EXPECT_FALSE(IsOrderDc(dcs[1]));
  EXPECT_FALSE(IsOrderDc(dcs[2]));
  EXPECT_FALSE(IsOrderDc(dcs[3]));
  EXPECT_FALSE(IsOrderDc(dcs[4]));
  EXPECT_FALSE(IsOrderDc(dcs[5]));
  ASSERT_OK_AND_ASSIGN(const std::vector<ChainFamily> families,
                       OrderChainFamilies(t, dcs));
  ASSERT_EQ(families.size(), 1u);
  EXPECT_EQ(families[0].description, dcs[0].text);
}

// A DC and its mirror (t1 and t2 exchanged, as Tax states its salary/rate
// DC twice) have the same chains: one family. A DC that differs in one
// operator's strictness is another relation.
TEST(OrderChainsTest, AMirroredDcAddsNoFamily) {
  const Table t =
      TableOrDie({{"s", ColumnType::kString},
                  {"a", ColumnType::kInt64},
                  {"b", ColumnType::kInt64}},
                 {{"x", "1", "2"}, {"x", "2", "1"}, {"x", "3", "0"}});
  const auto dcs = ParseOrDie(
      "not(t1.s=t2.s&t1.a>t2.a&t1.b<t2.b)\n"
      "not(t1.s=t2.s&t1.a<t2.a&t1.b>t2.b)\n"
      "not(t1.b>t2.b&t1.s=t2.s&t1.a<t2.a)\n"
      "not(t1.s=t2.s&t1.a<=t2.a&t1.b>t2.b)\n",
      t);
  ASSERT_OK_AND_ASSIGN(const std::vector<ChainFamily> families,
                       OrderChainFamilies(t, dcs));
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].description, dcs[0].text);
  EXPECT_EQ(families[1].description, dcs[3].text);
  // The kept family states every conflict of the three it stands for.
  const Graph g = ConflictGraphOrDie(t, {dcs[0], dcs[1], dcs[2]});
  for (NodeId u = 0; u < 3; ++u) {
    for (NodeId v = u + 1; v < 3; ++v) {
      EXPECT_EQ(families[0].Precedes(u, v) || families[0].Precedes(v, u),
                Adjacent(g, u, v));
    }
  }
}

// For every order DC alone, rows u != v conflict iff R(u, v) or R(v, u):
// random int64, double (negative, -0.0 next to 0) and string cells with
// NULLs, every operator. Deterministic (fixed seed).
TEST(OrderChainsTest, RelationIsExactlyTheDcsConflicts) {
  std::mt19937_64 rng(20261202);
  const std::vector<ColumnSpec> specs = {{"g", ColumnType::kString},
                                         {"i", ColumnType::kInt64},
                                         {"d", ColumnType::kDouble},
                                         {"s", ColumnType::kString}};
  const std::vector<std::string> doubles = {"-2.5", "-0.0", "0", "0.5", "3"};
  const std::vector<std::string> ops = {"<", "<=", ">", ">="};
  int pairs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Cells rows(8 + rng() % 10);
    for (auto& row : rows) {
      auto cell = [&](std::string v) -> std::optional<std::string> {
        if (rng() % 10 == 0) return std::nullopt;
        return v;
      };
      row.push_back(cell(absl::StrCat("g", rng() % 2)));
      row.push_back(cell(absl::StrCat(static_cast<int>(rng() % 5) - 2)));
      row.push_back(cell(doubles[rng() % doubles.size()]));
      row.push_back(cell(std::string(1, static_cast<char>('a' + rng() % 4))));
    }
    const Table t = TableOrDie(specs, rows);
    std::string dc = "not(";
    if (rng() % 2 == 0) dc += "t1.g=t2.g&";
    dc += absl::StrCat("t1.i", ops[rng() % 4], "t2.i&t1.d", ops[rng() % 4],
                       "t2.d");
    if (rng() % 2 == 0) dc += absl::StrCat("&t1.s", ops[rng() % 4], "t2.s");
    dc += ")\n";
    const auto dcs = ParseOrDie(dc, t);
    const Graph g = ConflictGraphOrDie(t, dcs);
    ASSERT_OK_AND_ASSIGN(const std::vector<ChainFamily> families,
                         OrderChainFamilies(t, dcs));
    ASSERT_EQ(families.size(), 1u) << dc;
    const ChainFamily& f = families[0];
    for (NodeId u = 0; u < t.num_rows(); ++u) {
      for (NodeId v = u + 1; v < t.num_rows(); ++v) {
        ASSERT_EQ(f.Precedes(u, v) || f.Precedes(v, u), Adjacent(g, u, v))
            << dc << " rows " << u << ", " << v;
        ++pairs;
      }
    }
  }
  EXPECT_GT(pairs, 2000);
}

TEST(OrderChainsTest, RefusesUnsortedRows) {
  const Table t = TableOrDie({{"a", ColumnType::kInt64}}, {{"1"}, {"2"}});
  const auto dcs = ParseOrDie("not(t1.a<t2.a)\n", t);
  EXPECT_THAT(OrderChainFamiliesOfRows(t, dcs, std::vector<uint32_t>{1, 0}),
              dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                     ::testing::HasSubstr("ascending")));
  EXPECT_THAT(
      OrderChainFamiliesOfRows(t, dcs, std::vector<uint32_t>{0, 2}),
      dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                             ::testing::HasSubstr("Row 2 at position 1")));
}

// An event log whose k timestamps run backwards: under "seq up, ts up" all
// k rows conflict (K_k, I_R = k - 1). Triangles alone leave the LP at
// y = 1/3 each (cover bound ceil(2k/3)); the chain of all k closes it.
TEST(OrderChainsTest, ChainsCloseTheGapOfALargeClique) {
  const int k = 12;
  Cells rows;
  for (int i = 0; i < k; ++i) {
    rows.push_back({absl::StrCat(i), absl::StrCat(100 - i)});
  }
  const Table t = TableOrDie(
      {{"seq", ColumnType::kInt64}, {"ts", ColumnType::kInt64}}, rows);
  const auto dcs = ParseOrDie("not(t1.seq<t2.seq&t1.ts>t2.ts)\n", t);
  const Graph g = ConflictGraphOrDie(t, dcs);
  ASSERT_EQ(g.num_edges(), static_cast<uint64_t>(k * (k - 1) / 2));
  ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound triangles,
                       measures::CliqueLpCoverBound(g, {}));
  EXPECT_EQ(triangles.bound, static_cast<uint64_t>((2 * k + 2) / 3));
  ASSERT_OK_AND_ASSIGN(std::vector<ChainFamily> chains,
                       OrderChainFamilies(t, dcs));
  ASSERT_OK_AND_ASSIGN(
      const measures::CliqueLpBound with_chains,
      measures::CliqueLpCoverBound(
          g, measures::CliqueConstraints({}, std::move(chains))));
  EXPECT_EQ(with_chains.bound, static_cast<uint64_t>(k - 1));
}

// Shuffled runs of a log (the shape of the docs/experiments.md tables
// "general DCs"): with the chains the bound meets the exact cover, which
// triangles alone miss. Deterministic (fixed seed).
TEST(OrderChainsTest, ShuffledRunsMeetTheExactCover) {
  std::mt19937_64 rng(7);
  std::vector<int> ts(200);
  for (int i = 0; i < 200; ++i) ts[i] = 10 * i;
  for (int start = 0; start + 25 <= 200; start += 40) {
    std::shuffle(ts.begin() + start, ts.begin() + start + 25, rng);
  }
  Cells rows;
  for (int i = 0; i < 200; ++i) {
    rows.push_back({absl::StrCat(i), absl::StrCat(ts[i])});
  }
  const Table t = TableOrDie(
      {{"seq", ColumnType::kInt64}, {"ts", ColumnType::kInt64}}, rows);
  const auto dcs = ParseOrDie("not(t1.seq<t2.seq&t1.ts>t2.ts)\n", t);
  const Graph g = ConflictGraphOrDie(t, dcs);
  ASSERT_OK_AND_ASSIGN(const uint64_t exact, measures::ExactRepairOrExplain(g));
  ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound triangles,
                       measures::CliqueLpCoverBound(g, {}));
  ASSERT_OK_AND_ASSIGN(std::vector<ChainFamily> chains,
                       OrderChainFamilies(t, dcs));
  ASSERT_OK_AND_ASSIGN(
      const measures::CliqueLpBound with_chains,
      measures::CliqueLpCoverBound(
          g, measures::CliqueConstraints({}, std::move(chains))));
  EXPECT_LT(triangles.bound, exact);
  // A permutation graph is perfect: its chain constraints describe its
  // stable sets, so the LP is exact.
  EXPECT_EQ(with_chains.bound, exact);
}

// One order DC alone makes each component a comparability graph: the
// matching shortcut (ComparabilityCover) and the simplex with chain cuts
// both give the exact cover there (perfect graphs). Random tables with
// ties (small domains), NULLs and every operator. Deterministic.
TEST(OrderChainsTest, ShortcutAndSimplexMeetTheExactCoverOfOneOrderDc) {
  std::mt19937_64 rng(20261203);
  const std::vector<std::string> ops = {"<", "<=", ">", ">="};
  int gaps_closed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 10 + static_cast<int>(rng() % 30);
    const int domain = 3 + static_cast<int>(rng() % 20);
    Cells rows(n);
    for (auto& row : rows) {
      row.push_back(absl::StrCat("g", rng() % 2));
      for (int c = 0; c < 2; ++c) {
        if (rng() % 15 == 0) {
          row.push_back(std::nullopt);
        } else {
          row.push_back(absl::StrCat(rng() % domain));
        }
      }
    }
    const Table t = TableOrDie({{"g", ColumnType::kString},
                                {"a", ColumnType::kInt64},
                                {"b", ColumnType::kInt64}},
                               rows);
    const std::string dc =
        absl::StrCat("not(", rng() % 2 == 0 ? "t1.g=t2.g&" : "", "t1.a",
                     ops[rng() % 4], "t2.a&t1.b", ops[rng() % 4], "t2.b)\n");
    const auto dcs = ParseOrDie(dc, t);
    const Graph g = ConflictGraphOrDie(t, dcs);
    ASSERT_OK_AND_ASSIGN(const uint64_t exact,
                         measures::ExactRepairOrExplain(g));
    ASSERT_OK_AND_ASSIGN(const std::vector<ChainFamily> chains,
                         OrderChainFamilies(t, dcs));
    const measures::CliqueConstraints with_chains({}, chains);
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound shortcut,
                         measures::CliqueLpCoverBound(g, with_chains, 1, true));
    ASSERT_OK_AND_ASSIGN(
        const measures::CliqueLpBound simplex,
        measures::CliqueLpCoverBound(g, with_chains, 1, false));
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound triangles,
                         measures::CliqueLpCoverBound(g, {}));
    EXPECT_EQ(shortcut.bound, exact) << dc;
    EXPECT_EQ(simplex.bound, exact) << dc;
    EXPECT_EQ(shortcut.lp_value, simplex.lp_value) << dc;
    gaps_closed += triangles.bound < exact;
  }
  // The tables are hard enough that triangles alone fall short on some.
  EXPECT_GT(gaps_closed, 5);
}

}  // namespace
}  // namespace dpq::core::graph
