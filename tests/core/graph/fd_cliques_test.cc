// The FD clique families (core/graph/fd_cliques.h) on tables: every
// cross-part pair of a block is a conflict, and the families over a list of
// rows agree with those over all rows. The cover bound they feed is tested
// in tests/core/measures/clique_lp_bound_test.cc.
#include "core/graph/fd_cliques.h"

#include <algorithm>
#include <cstdint>
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

using table::Table;
using testing::Cells;

using testing::ConflictGraphOrDie;
using testing::ExpectBlocksAreCliques;
using testing::ParseOrDie;
using testing::TextTableOrDie;

TEST(FdCliqueFamiliesTest, FdsWithOneKeyShareAFamilyPartedByTheirTuple) {
  const Table t = TextTableOrDie({"zip", "city", "state", "name"},
                                 {{"1", "a", "x", "p"},
                                  {"1", "a", "y", "q"},
                                  {"1", "b", "x", "r"},
                                  {"1", "a", "x", "s"},
                                  {"2", "c", "z", "t"},
                                  {"3", std::nullopt, "z", "u"},
                                  {"3", "d", "w", "v"},
                                  {"3", std::nullopt, "q", "o"}});
  const auto dcs = ParseOrDie(
      "not(t1.zip=t2.zip&t1.city!=t2.city)\n"
      "not(t1.zip=t2.zip&t1.state!=t2.state)\n"
      "not(t1.state=t2.state&t1.zip>=t2.zip)\n",  // not FD-shaped: no family
      t);
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> f,
                       FdCliqueFamilies(t, dcs));
  // The joint family, then one per FD for the rows with a NULL elsewhere.
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].description, "key (zip), parts (city, state)");
  // Zip 1 is a block of three parts (a-x twice, a-y, b-x); zip 2 has one
  // part and zip 3 one member with both columns set: no block.
  EXPECT_EQ(f[0].num_blocks, 1u);
  EXPECT_EQ(f[0].num_parts, 3u);
  EXPECT_EQ(f[0].part[0], f[0].part[3]);
  EXPECT_NE(f[0].part[0], f[0].part[1]);
  EXPECT_EQ(f[0].block[4], CliqueFamily::kNone);
  // Rows 5 and 7 (city NULL) conflict through state alone: a block of the
  // state FD's own family. Row 6 is in the joint family only, so its
  // conflicts with them stay plain edges.
  EXPECT_EQ(f[1].description,
            "key (zip), parts (state) (rows with a NULL elsewhere)");
  EXPECT_EQ(f[1].num_blocks, 1u);
  EXPECT_NE(f[1].block[5], CliqueFamily::kNone);
  EXPECT_EQ(f[1].block[5], f[1].block[7]);
  EXPECT_EQ(f[1].block[6], CliqueFamily::kNone);
  ExpectBlocksAreCliques(t, dcs);
}

TEST(FdCliqueFamiliesTest, KeyConstraintGivesOnePartPerRow) {
  const Table t = TextTableOrDie(
      {"area", "phone"},
      {{"1", "5"}, {"1", "5"}, {"1", "5"}, {"1", "6"}, {std::nullopt, "5"}});
  const auto dcs = ParseOrDie("not(t1.area=t2.area&t1.phone=t2.phone)\n", t);
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> f,
                       FdCliqueFamilies(t, dcs));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].num_blocks, 1u);
  EXPECT_EQ(f[0].num_parts, 3u);  // rows 0, 1, 2: a triangle
  EXPECT_EQ(f[0].block[3], CliqueFamily::kNone);
  EXPECT_EQ(f[0].block[4], CliqueFamily::kNone);
  ExpectBlocksAreCliques(t, dcs);
  // The block makes the bound exact: I_R of a triangle is 2.
  ASSERT_OK_AND_ASSIGN(
      const measures::CliqueLpBound b,
      measures::CliqueLpCoverBound(ConflictGraphOrDie(t, dcs), f));
  EXPECT_EQ(b.bound, 2u);
}

// t1.X = t2.X & t1.B < t2.B conflicts exactly the pairs of X -> B, so it
// gets the FD's blocks; t1.B < t2.B & t1.B > t2.B is never violated and
// gets none.
TEST(FdCliqueFamiliesTest, StrictOrderWithAKeyIsAnFd) {
  const Table t = TextTableOrDie(
      {"zip", "rate"},
      {{"1", "5"}, {"1", "6"}, {"1", "6"}, {"1", "7"}, {"2", "5"}});
  const auto order = ParseOrDie("not(t1.zip=t2.zip&t1.rate>t2.rate)\n", t);
  const auto fd = ParseOrDie("zip -> rate\n", t);
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> a,
                       FdCliqueFamilies(t, order));
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> b,
                       FdCliqueFamilies(t, fd));
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].block, b[0].block);
  EXPECT_EQ(a[0].part, b[0].part);
  EXPECT_EQ(a[0].num_parts, 3u);
  ExpectBlocksAreCliques(t, order);
  EXPECT_EQ(ConflictGraphOrDie(t, order).Edges(),
            ConflictGraphOrDie(t, fd).Edges());
  const auto never =
      ParseOrDie("not(t1.zip=t2.zip&t1.rate<t2.rate&t1.rate>t2.rate)\n", t);
  ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> none,
                       FdCliqueFamilies(t, never));
  EXPECT_TRUE(none.empty());
}

// Families over a list of rows: two listed rows share a block and differ
// in part exactly when they do in the families over all rows. Half the
// rows (passes over all rows) and one in 25 (the sorting path for few
// members).
TEST(FdCliqueFamiliesTest, FamiliesOverSomeRowsKeepTheirPairs) {
  std::mt19937_64 rng(20261131);
  for (int trial = 0; trial < 40; ++trial) {
    const uint64_t share = trial % 2 == 0 ? 2 : 25;
    Cells rows(trial % 2 == 0 ? 30 : 400);
    for (auto& row : rows) {
      for (int c = 0; c < 4; ++c) {
        row.push_back(rng() % 10 == 0 ? std::nullopt
                                      : std::optional<std::string>(absl::StrCat(
                                            rng() % (c == 0 ? 8 : 3))));
      }
    }
    const Table t = TextTableOrDie({"a", "b", "c", "d"}, rows);
    const auto dcs = ParseOrDie(
        "not(t1.a=t2.a&t1.b!=t2.b)\nnot(t1.a=t2.a&t1.c!=t2.c)\n"
        "not(t1.c=t2.c&t1.d=t2.d)\n",
        t);
    std::vector<uint32_t> some;
    for (uint32_t r = 0; r < rows.size(); ++r) {
      if (rng() % share == 0) some.push_back(r);
    }
    ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> all,
                         FdCliqueFamilies(t, dcs));
    ASSERT_OK_AND_ASSIGN(const std::vector<CliqueFamily> part,
                         FdCliqueFamiliesOfRows(t, dcs, some));
    ASSERT_LE(part.size(), all.size());
    size_t blocks = 0;
    for (const CliqueFamily& f : part) {
      blocks += f.num_blocks;
      ASSERT_EQ(f.block.size(), some.size());
      ASSERT_EQ(f.part.size(), some.size());
      const auto full =
          std::find_if(all.begin(), all.end(), [&](const CliqueFamily& a) {
            return a.description == f.description;
          });
      ASSERT_NE(full, all.end()) << f.description;
      for (size_t i = 0; i < some.size(); ++i) {
        const uint32_t u = some[i];
        if (full->block[u] == CliqueFamily::kNone) {
          EXPECT_EQ(f.block[i], CliqueFamily::kNone);
        }
        for (size_t j = 0; j < i; ++j) {
          const uint32_t v = some[j];
          const bool here = f.block[i] != CliqueFamily::kNone &&
                            f.block[i] == f.block[j] && f.part[i] != f.part[j];
          const bool there = full->block[u] != CliqueFamily::kNone &&
                             full->block[u] == full->block[v] &&
                             full->part[u] != full->part[v];
          EXPECT_EQ(here, there) << f.description << " rows " << v << ", " << u;
        }
      }
    }
    // And no family with such a pair among the listed rows is missing.
    for (const CliqueFamily& a : all) {
      bool has_pair = false;
      for (size_t i = 0; i < some.size() && !has_pair; ++i) {
        for (size_t j = 0; j < i && !has_pair; ++j) {
          const uint32_t u = some[i], v = some[j];
          has_pair = a.block[u] != CliqueFamily::kNone &&
                     a.block[u] == a.block[v] && a.part[u] != a.part[v];
        }
      }
      const bool returned =
          std::any_of(part.begin(), part.end(), [&](const CliqueFamily& f) {
            return f.description == a.description;
          });
      EXPECT_EQ(returned, has_pair) << a.description;
    }
    if (trial < 4) {
      EXPECT_GT(blocks, 0u) << "trial " << trial;
    }
  }
  const Table t = TextTableOrDie({"a"}, {{"1"}, {"1"}});
  const auto key = ParseOrDie("not(t1.a=t2.a)\n", t);
  EXPECT_THAT(
      FdCliqueFamiliesOfRows(t, key, std::vector<uint32_t>{0, 2}),
      dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                             ::testing::HasSubstr("Row 2 at position 1")));
  EXPECT_THAT(FdCliqueFamiliesOfRows(t, key, std::vector<uint32_t>{1, 1}),
              dpq::testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                     ::testing::HasSubstr("ascending")));
  // Both rows listed: the key's one block, by position.
  ASSERT_OK_AND_ASSIGN(
      const std::vector<CliqueFamily> both,
      FdCliqueFamiliesOfRows(t, key, std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].num_blocks, 1u);
  EXPECT_EQ(both[0].num_parts, 2u);
  EXPECT_TRUE(
      FdCliqueFamiliesOfRows(t, key, std::vector<uint32_t>{1})->empty());
}

}  // namespace
}  // namespace dpq::core::graph
