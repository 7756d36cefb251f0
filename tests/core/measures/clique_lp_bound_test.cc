// The cover bound of core/measures/clique_lp_bound.h on tables with FD
// blocks and order chains: exact on one block, the half-integral LP on an
// odd cycle, the same bound on 1-3 threads and over the half rows, and
// sensitivity 1 (monotone) under removing any row of random tables.
#include "core/measures/clique_lp_bound.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/graph/fd_cliques.h"
#include "core/graph/graph.h"
#include "core/graph/order_chains.h"
#include "core/measures/vertex_cover.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/graph/conflict_graph_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using table::Table;
using testing::Cells;

using testing::ConflictGraphOrDie;
using testing::ExpectBlocksAreCliques;
using testing::ParseOrDie;
using testing::TextTableOrDie;

// The bound with the families computed only over the rows the plain LP
// leaves at 1/2 (CliqueLpCoverBoundOverHalfRows, what registrations use)
// equals `full`, the bound with the families over all rows.
void ExpectSameBoundOverHalfRows(const Table& t,
                                 const std::vector<DenialConstraint>& dcs,
                                 const Graph& g,
                                 const measures::CliqueLpBound& full,
                                 int num_threads = 1) {
  const auto over_half = measures::CliqueLpCoverBoundOverHalfRows(
      g,
      [&](absl::Span<const graph::NodeId> rows)
          -> absl::StatusOr<measures::CliqueConstraints> {
        auto blocks = FdCliqueFamiliesOfRows(t, dcs, rows);
        auto chains = OrderChainFamiliesOfRows(t, dcs, rows);
        if (!blocks.ok()) return blocks.status();
        if (!chains.ok()) return chains.status();
        return measures::CliqueConstraints(*std::move(blocks),
                                           *std::move(chains));
      },
      num_threads);
  ASSERT_TRUE(over_half.ok()) << over_half.status();
  EXPECT_EQ(over_half->lp_value, full.lp_value);
  EXPECT_EQ(over_half->bound, full.bound);
  EXPECT_EQ(over_half->components_solved, full.components_solved);
}

// K_5 from one FD: the plain LP gives 2.5 -> 3, the block proves 4.
TEST(CliqueLpCoverBoundTest, OneBlockIsExact) {
  Cells rows;
  for (int i = 0; i < 5; ++i) rows.push_back({"k", absl::StrCat("v", i)});
  const Table t = TextTableOrDie({"key", "value"}, rows);
  const auto dcs = ParseOrDie("not(t1.key=t2.key&t1.value!=t2.value)\n", t);
  const Graph g = ConflictGraphOrDie(t, dcs);
  ASSERT_OK_AND_ASSIGN(const auto families, FdCliqueFamilies(t, dcs));
  ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound b,
                       measures::CliqueLpCoverBound(g, families));
  EXPECT_EQ(measures::CoverLowerBound(g), 3u);
  EXPECT_EQ(b.bound, 4u);
  EXPECT_DOUBLE_EQ(b.lp_value, 4.0);
}

// A 5-cycle has no triangle and no block: the LP stays 2.5, released as 3.
TEST(CliqueLpCoverBoundTest, OddCycleKeepsTheHalfIntegralLp) {
  const Graph g =
      *Graph::FromEdges(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}});
  ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound b,
                       measures::CliqueLpCoverBound(g, {}));
  EXPECT_DOUBLE_EQ(b.lp_value, 2.5);
  EXPECT_EQ(b.bound, 3u);
  EXPECT_EQ(b.components_solved, 1u);
}

TEST(CliqueLpCoverBoundTest, RefusesFamiliesOfAnotherSize) {
  CliqueFamily f;
  f.block.assign(3, CliqueFamily::kNone);
  f.part.assign(3, CliqueFamily::kNone);
  const Graph g = *Graph::FromEdges(4, {{0, 1}});
  EXPECT_THAT(measures::CliqueLpCoverBound(g, std::vector<CliqueFamily>{f}),
              dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                     ::testing::HasSubstr("has 3 rows")));
  // Families over the half rows must have one entry per row asked for: a
  // triangle's three rows are all at 1/2.
  const Graph triangle = *Graph::FromEdges(3, {{0, 1}, {1, 2}, {0, 2}});
  CliqueFamily two;
  two.block.assign(2, 0);
  two.part = {0, 1};
  two.num_blocks = 1;
  two.num_parts = 2;
  EXPECT_THAT(measures::CliqueLpCoverBoundOverHalfRows(
                  triangle,
                  [&](absl::Span<const graph::NodeId> rows)
                      -> absl::StatusOr<measures::CliqueConstraints> {
                    EXPECT_EQ(rows.size(), 3u);
                    return measures::CliqueConstraints({two}, {});
                  }),
              dpq::testing::StatusIs(
                  absl::StatusCode::kInvalidArgument,
                  ::testing::HasSubstr("has 2 rows; the rows asked for")));
}

// A table large enough for the threaded path (>= 200k edges): thousands of
// components, hundreds of them solved by GLPK (odd cycles between blocks).
// The bound and its statistics are the same on 1, 2 and 3 threads.
TEST(CliqueLpCoverBoundTest, ThreadCountDoesNotChangeTheBound) {
  std::mt19937_64 rng(20261130);
  Cells rows;
  for (int i = 0; i < 24000; ++i) {
    const uint64_t key = rng() % 1000;
    rows.push_back({absl::StrCat(key), absl::StrCat(rng() % 4),
                    absl::StrCat(key % 500, "-", rng() % 3)});
  }
  const Table t = TextTableOrDie({"a", "b", "c"}, rows);
  const auto dcs =
      ParseOrDie("not(t1.a=t2.a&t1.b!=t2.b)\nnot(t1.c=t2.c&t1.b!=t2.b)\n", t);
  const Graph g = ConflictGraphOrDie(t, dcs);
  ASSERT_GE(g.num_edges(), 200'000u);
  ASSERT_OK_AND_ASSIGN(const auto families, FdCliqueFamilies(t, dcs));
  ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound one,
                       measures::CliqueLpCoverBound(g, families, 1));
  EXPECT_GE(one.components_solved, 10u);
  for (int threads : {2, 3}) {
    ASSERT_OK_AND_ASSIGN(const measures::CliqueLpBound many,
                         measures::CliqueLpCoverBound(g, families, threads));
    EXPECT_EQ(many.lp_value, one.lp_value) << threads;
    EXPECT_EQ(many.bound, one.bound) << threads;
    EXPECT_EQ(many.components_solved, one.components_solved) << threads;
    EXPECT_EQ(many.largest_component, one.largest_component) << threads;
    ExpectSameBoundOverHalfRows(t, dcs, g, one, threads);
  }
}

// Random small tables with FDs, a key constraint and order DCs (their
// chain families in the LP): for every row removed, the bound is monotone
// with sensitivity 1, and it lies between ceil(plain LP) and the exact
// cover. Deterministic (fixed seed).
TEST(CliqueLpCoverBoundTest, RandomTablesNeighboursDifferByAtMostOne) {
  std::mt19937_64 rng(20261125);
  const std::vector<std::string> dc_texts = {
      "not(t1.a=t2.a&t1.b!=t2.b)\n",
      "not(t1.a=t2.a&t1.c!=t2.c)\n",
      "not(t1.b=t2.b&t1.d!=t2.d)\n",
      "not(t1.c=t2.c&t1.d=t2.d)\n",
      "not(t1.d=t2.d&t1.a<t2.a&t1.b>t2.b)\n",
      "not(t1.a<=t2.a&t1.c<t2.c)\n",
      "not(t1.b>=t2.b&t1.c>=t2.c&t1.d>t2.d)\n",
      "not(t1.a=t2.a&t1.b=t2.b&t1.c!=t2.c)\n"};
  int checked = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 6 + static_cast<int>(rng() % 9);
    const int domain = 2 + static_cast<int>(rng() % 3);
    Cells rows(n);
    for (auto& row : rows) {
      for (int c = 0; c < 4; ++c) {
        if (rng() % 12 == 0) {
          row.push_back(std::nullopt);
        } else {
          row.push_back(absl::StrCat(rng() % domain));
        }
      }
    }
    const Table t = TextTableOrDie({"a", "b", "c", "d"}, rows);
    std::string text;
    for (const std::string& dc : dc_texts) {
      if (rng() % 2 == 0) text += dc;
    }
    if (text.empty()) text = dc_texts[0];
    const auto dcs = ParseOrDie(text, t);
    ExpectBlocksAreCliques(t, dcs);
    auto bound_of = [&](const Table& table) -> uint64_t {
      const Graph g = ConflictGraphOrDie(table, dcs);
      const auto families = FdCliqueFamilies(table, dcs);
      EXPECT_TRUE(families.ok());
      const auto chains = OrderChainFamilies(table, dcs);
      EXPECT_TRUE(chains.ok());
      const auto b = measures::CliqueLpCoverBound(
          g, measures::CliqueConstraints(*families, *chains));
      EXPECT_TRUE(b.ok()) << b.status();
      EXPECT_GE(b->bound, measures::CoverLowerBound(g));
      EXPECT_LE(b->bound, *measures::ExactRepairOrExplain(g));
      ExpectSameBoundOverHalfRows(table, dcs, g, *b);
      return b->bound;
    };
    const uint64_t with = bound_of(t);
    for (int r = 0; r < n; ++r) {
      const uint64_t without = bound_of(t.WithoutRow(r));
      ASSERT_GE(with, without) << "trial " << trial << " row " << r << "\n"
                               << text;
      ASSERT_LE(with - without, 1u) << "trial " << trial << " row " << r << "\n"
                                    << text;
      ++checked;
    }
  }
  EXPECT_GT(checked, 800);
}

}  // namespace
}  // namespace dpq::core::graph
