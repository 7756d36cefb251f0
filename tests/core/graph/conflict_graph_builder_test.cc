#include "core/graph/conflict_graph_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_internal.h"
#include "core/graph/graph.h"
#include "core/table/schema.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/graph/conflict_graph_test_util.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using ::dpq::testing::StatusIs;
using table::ColumnSpec;
using table::ColumnType;
using table::Schema;
using table::Table;
using testing::BruteForceEdges;
using testing::BuildOrDie;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

using Cells = std::vector<std::vector<std::optional<std::string>>>;

Table MakeTable(const std::vector<ColumnSpec>& specs, const Cells& rows) {
  absl::StatusOr<Schema> schema = Schema::Create(specs);
  EXPECT_TRUE(schema.ok()) << schema.status();
  absl::StatusOr<Table> table = Table::FromCells(*schema, rows);
  EXPECT_TRUE(table.ok()) << table.status();
  return *std::move(table);
}

std::vector<DenialConstraint> Parse(const std::string& text,
                                    const Table& table) {
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      constraints::ParseDenialConstraints(text, table.schema());
  EXPECT_TRUE(dcs.ok()) << dcs.status() << " in\n" << text;
  return dcs.ok() ? *std::move(dcs) : std::vector<DenialConstraint>{};
}

// Compares the builder with brute force on the whole DC set and on each DC
// (its violating-pair count), single- and multi-threaded. Adds the edge
// count per method to `*edges_by_method` if given.
void ExpectMatchesBruteForce(
    const Table& table, const std::vector<DenialConstraint>& dcs,
    const std::string& context,
    std::map<std::string, uint64_t>* edges_by_method = nullptr) {
  const std::vector<Edge> expected = BruteForceEdges(table, dcs);
  for (int threads : {1, 3}) {
    const ConflictGraph g = BuildOrDie(table, dcs, threads);
    if (edges_by_method != nullptr && threads == 1) {
      for (const DcBuildStats& s : g.stats.per_dc) {
        (*edges_by_method)[s.method] += s.violating_pairs;
      }
    }
    ASSERT_EQ(g.graph.num_nodes(), table.num_rows()) << context;
    ASSERT_EQ(g.graph.Edges(), expected) << context << "\nthreads=" << threads;
    ASSERT_EQ(g.stats.num_edges, expected.size());
    ASSERT_EQ(g.stats.per_dc.size(), dcs.size());
    for (size_t d = 0; d < dcs.size(); ++d) {
      ASSERT_EQ(g.stats.per_dc[d].violating_pairs,
                BruteForceEdges(table, {dcs[d]}).size())
          << context << "\nDC " << dcs[d].text << " method "
          << g.stats.per_dc[d].method;
    }
  }
}

TEST(ConflictGraphBuilderTest, PaperFigureOne) {
  const Table table = MakeTable(
      {{"Capital", ColumnType::kString}, {"Country", ColumnType::kString}},
      {{"Ottawa", "Canada"},
       {"Ottawa", "Canada"},
       {"Ottawa", "Canada"},
       {"Ottawa", "Kanada"}});
  const std::vector<DenialConstraint> dcs = Parse("Capital -> Country", table);
  ASSERT_OK_AND_ASSIGN(ConflictGraph g, BuildConflictGraph(table, dcs));
  EXPECT_THAT(g.graph.Edges(), ElementsAre(Edge(0, 3), Edge(1, 3), Edge(2, 3)));
  EXPECT_EQ(g.stats.num_edges, 3u);
  ASSERT_EQ(g.stats.per_dc.size(), 1u);
  EXPECT_EQ(g.stats.per_dc[0].violating_pairs, 3u);
  EXPECT_EQ(g.stats.per_dc[0].method, "hash+group");
  EXPECT_GE(g.stats.build_seconds, 0);
}

TEST(ConflictGraphBuilderTest, EdgesAreDeduplicatedAcrossDcs) {
  const Table table =
      MakeTable({{"A", ColumnType::kInt64}, {"B", ColumnType::kInt64}},
                {{"1", "1"}, {"1", "2"}, {"2", "3"}, {"2", "3"}});
  // The same FD three times, once written the other way round.
  const std::vector<DenialConstraint> dcs = Parse(
      "A -> B\nnot(t1.A=t2.A&t1.B!=t2.B)\nnot(t2.B!=t1.B&t2.A=t1.A)", table);
  const ConflictGraph g = BuildOrDie(table, dcs);
  EXPECT_THAT(g.graph.Edges(), ElementsAre(Edge(0, 1)));
  ASSERT_EQ(g.stats.per_dc.size(), 3u);
  for (const DcBuildStats& s : g.stats.per_dc) {
    EXPECT_EQ(s.violating_pairs, 1u);
  }
}

TEST(ConflictGraphBuilderTest, NullNeverCausesAConflict) {
  const Table table =
      MakeTable({{"A", ColumnType::kString}, {"B", ColumnType::kDouble}},
                {{"x", "1"},
                 {"x", std::nullopt},
                 {std::nullopt, "2"},
                 {"x", ""},
                 {std::nullopt, std::nullopt},
                 {"y", "3"}});
  // NULL != anything is false, so rows 1, 3 do not conflict with row 0;
  // NULL = NULL is false too, so the NULL keys of rows 2, 4 form no block.
  const std::vector<DenialConstraint> dcs = Parse(
      "not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.A!=t2.A&t1.B=t2.B)\n"
      "not(t1.B<t2.B&t1.A=t2.A)",
      table);
  const ConflictGraph g = BuildOrDie(table, dcs);
  EXPECT_TRUE(g.graph.Edges().empty());
  ExpectMatchesBruteForce(table, dcs, "nulls");
}

TEST(ConflictGraphBuilderTest, MixedIntAndDoubleKeysHashAlike) {
  const Table table = MakeTable({{"I", ColumnType::kInt64},
                                 {"D", ColumnType::kDouble},
                                 {"S", ColumnType::kString}},
                                {{"1", "1.0", "a"},
                                 {"0", "-0.0", "b"},
                                 {"2", "0", "c"},
                                 {"3", "2.5", "d"}});
  // t1.I = t2.D pairs 0 with 0 (1 = 1.0) and 1 with 2 (0 = -0.0 = 0.0).
  const std::vector<DenialConstraint> dcs =
      Parse("not(t1.I=t2.D&t1.S!=t2.S)", table);
  const ConflictGraph g = BuildOrDie(table, dcs);
  EXPECT_THAT(g.graph.Edges(), ElementsAre(Edge(1, 2)));
  ExpectMatchesBruteForce(table, dcs, "mixed");
}

TEST(ConflictGraphBuilderTest, MultiThreadedEqualsSingleThreaded) {
  std::mt19937_64 rng(7);
  Cells rows;
  for (int i = 0; i < 3000; ++i) {
    rows.push_back({absl::StrCat(rng() % 40), absl::StrCat(rng() % 3),
                    absl::StrCat(rng() % 1000), absl::StrCat(rng() % 1000)});
  }
  const Table table = MakeTable({{"K", ColumnType::kInt64},
                                 {"V", ColumnType::kString},
                                 {"X", ColumnType::kInt64},
                                 {"Y", ColumnType::kDouble}},
                                rows);
  const std::vector<DenialConstraint> dcs = Parse(
      "K -> V\nnot(t1.K=t2.K&t1.X<t2.X&t1.Y>t2.Y)\n"
      "not(t1.X<t2.X&t1.Y>t2.Y&t1.V='1'&t2.K<3)\nnot(t1.K=t2.X&t1.V!=t2.V)",
      table);
  const ConflictGraph one = BuildOrDie(table, dcs, 1);
  EXPECT_GT(one.stats.num_edges, 1000u);
  for (int threads : {2, 5, 16, 0}) {
    const ConflictGraph many = BuildOrDie(table, dcs, threads);
    EXPECT_EQ(many.graph.Edges(), one.graph.Edges()) << threads;
    for (size_t d = 0; d < dcs.size(); ++d) {
      EXPECT_EQ(many.stats.per_dc[d].violating_pairs,
                one.stats.per_dc[d].violating_pairs);
    }
  }
}

// Large blocks (> 4096 t2 rows) exercise the summary level of the IEJoin
// bit array; nearly sorted data keeps the output small.
TEST(ConflictGraphBuilderTest, IeJoinOnLargeNearlySortedTable) {
  std::mt19937_64 rng(11);
  Cells rows;
  for (int i = 0; i < 6000; ++i) {
    rows.push_back({absl::StrCat(i + static_cast<int>(rng() % 7)),
                    absl::StrCat(i + static_cast<int>(rng() % 5)),
                    absl::StrCat(rng() % 2)});
  }
  const Table table = MakeTable({{"A", ColumnType::kInt64},
                                 {"B", ColumnType::kInt64},
                                 {"C", ColumnType::kInt64}},
                                rows);
  const std::vector<DenialConstraint> dcs = Parse(
      "not(t1.A<t2.A&t1.B>t2.B)\nnot(t1.C=t2.C&t1.A<=t2.A&t1.B>=t2.B"
      "&t1.A!=t2.B)",
      table);
  const std::vector<Edge> expected = BruteForceEdges(table, dcs);
  EXPECT_GT(expected.size(), 100u);
  for (int threads : {1, 4}) {
    const ConflictGraph g = BuildOrDie(table, dcs, threads);
    EXPECT_EQ(g.graph.Edges(), expected);
    EXPECT_EQ(g.stats.per_dc[0].method, "iejoin");
    EXPECT_EQ(g.stats.per_dc[1].method, "hash+iejoin");
  }
}

TEST(ConflictGraphBuilderTest, MaxEdgesIsEnforced) {
  Cells rows(100, {"same"});
  const Table table = MakeTable({{"A", ColumnType::kString}}, rows);
  const std::vector<DenialConstraint> dcs = Parse("not(t1.A=t2.A)", table);
  ConflictGraphOptions options;
  options.max_edges = 4950;  // exactly 100 * 99 / 2
  ASSERT_OK_AND_ASSIGN(ConflictGraph g,
                       BuildConflictGraph(table, dcs, options));
  EXPECT_EQ(g.stats.num_edges, 4950u);
  options.max_edges = 4949;
  EXPECT_THAT(BuildConflictGraph(table, dcs, options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("max_edges = 4949")));
  for (int threads : {1, 4}) {
    options.max_edges = 100;
    options.num_threads = threads;
    EXPECT_THAT(BuildConflictGraph(table, dcs, options),
                StatusIs(absl::StatusCode::kResourceExhausted,
                         HasSubstr("DC 1 (line 1) `not(t1.A=t2.A)`")));
  }
}

TEST(ConflictGraphBuilderTest, MaxEdgesCountsTheUnionOfDcs) {
  const Table table =
      MakeTable({{"A", ColumnType::kInt64}, {"B", ColumnType::kInt64}},
                {{"1", "1"}, {"1", "2"}, {"2", "3"}, {"3", "3"}});
  // Each DC alone has one edge, together two.
  const std::vector<DenialConstraint> dcs = Parse("A -> B\nB -> A", table);
  ConflictGraphOptions options;
  options.max_edges = 1;
  EXPECT_THAT(BuildConflictGraph(table, dcs, options),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("after adding DC 2")));
}

TEST(ConflictGraphBuilderTest, RejectsBadOptionsAndConstraints) {
  const Table table = MakeTable(
      {{"A", ColumnType::kInt64}, {"S", ColumnType::kString}}, {{"1", "x"}});
  const std::vector<DenialConstraint> dcs = Parse("A -> S", table);
  ConflictGraphOptions options;
  options.num_threads = -1;
  EXPECT_THAT(
      BuildConflictGraph(table, dcs, options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("num_threads")));
  options = {};
  options.max_edges = 0;
  EXPECT_THAT(
      BuildConflictGraph(table, dcs, options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_edges")));

  DenialConstraint bad_column = dcs[0];
  bad_column.predicates[0].rhs.column = 7;
  EXPECT_THAT(BuildConflictGraph(table, {bad_column}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("column index 7")));
  DenialConstraint string_vs_number = dcs[0];
  string_vs_number.predicates[0].rhs.column = 1;
  EXPECT_THAT(ValidateConstraintsForTable(table, {string_vs_number}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("string with a number")));
  EXPECT_OK(ValidateConstraintsForTable(table, dcs));
}

// The FD planner on codes (conflict_graph_code_plan.cc) codes a column
// through a hash map when its values span far more than the rows: string
// ids spread over a dictionary filled by another column, int64 values far
// apart, doubles (with -0.0 == +0.0). Three equalities refine their codes.
TEST(ConflictGraphBuilderTest, FdsOnWideAndHashedColumnsMatchBruteForce) {
  std::mt19937_64 rng(7);
  Cells rows;
  const char* kS[] = {"a", "b", "y", "z"};
  for (int i = 0; i < 1500; ++i) {
    // Three filler columns put 4,500 strings between the values of "s":
    // its ids span three times the rows.
    const int k = static_cast<int>(rng() % 4);
    const bool null_s = rng() % 50 == 0;
    rows.push_back({absl::StrCat("m", i, "a"), absl::StrCat("m", i, "b"),
                    absl::StrCat("m", i, "c"),
                    null_s ? std::nullopt : std::optional<std::string>(kS[k]),
                    absl::StrCat(static_cast<int64_t>(k) * 1000000000000LL),
                    k % 2 == 0 ? "-0.0" : (k == 1 ? "0.0" : "2.5"),
                    absl::StrCat(rng() % 3), absl::StrCat(rng() % 2)});
  }
  const Table table = MakeTable({{"f1", ColumnType::kString},
                                 {"f2", ColumnType::kString},
                                 {"f3", ColumnType::kString},
                                 {"s", ColumnType::kString},
                                 {"big", ColumnType::kInt64},
                                 {"d", ColumnType::kDouble},
                                 {"a", ColumnType::kInt64},
                                 {"b", ColumnType::kString}},
                                rows);
  const std::vector<std::string> texts = {"s -> a",
                                          "big -> a",
                                          "d -> b",
                                          "s, big, d -> b",
                                          "s, a, b -> d",
                                          "not(t1.s=t2.s&t1.big=t2.big)",
                                          "not(t2.d=t1.d&t1.a!=t2.a)",
                                          "not(t1.s=t2.s&t1.s!=t2.s)",
                                          "a -> s",
                                          "b, a -> big"};
  for (const std::string& text : texts) {
    const std::vector<DenialConstraint> dcs = Parse(text, table);
    ASSERT_EQ(dcs.size(), 1u) << text;
    const std::vector<Edge> expected = BruteForceEdges(table, dcs);
    for (int threads : {1, 2}) {
      const ConflictGraph g = BuildOrDie(table, dcs, threads);
      ASSERT_EQ(g.graph.Edges(), expected) << text << " threads " << threads;
      EXPECT_EQ(g.stats.per_dc[0].violating_pairs, expected.size()) << text;
    }
  }
  // All at once: DCs bucketed by the same column share the buckets (in an
  // order other than the input's, here s and a), while each keeps its own
  // NULL rows out; the statistics stay in input order.
  ExpectMatchesBruteForce(table, Parse(absl::StrJoin(texts, "\n"), table),
                          "all wide DCs");
}

TEST(ConflictGraphBuilderTest, MirroredAndRepeatedDcsAreEnumeratedOnce) {
  const Table table = MakeTable({{"state", ColumnType::kString},
                                 {"salary", ColumnType::kInt64},
                                 {"rate", ColumnType::kDouble}},
                                {{"a", "10", "0.5"},
                                 {"a", "20", "0.4"},
                                 {"a", "30", "0.6"},
                                 {"b", "10", "0.1"},
                                 {"b", "5", "0.2"},
                                 {"a", "15", ""}});
  const std::vector<DenialConstraint> dcs = Parse(
      "not(t1.state=t2.state&t1.salary>t2.salary&t1.rate<t2.rate)\n"
      "not(t1.state=t2.state&t1.salary<t2.salary&t1.rate>t2.rate)\n"
      "not(t2.rate>t1.rate&t1.salary>t2.salary&t2.state=t1.state)\n"
      "not(t1.state=t2.state&t1.salary>t2.salary)",
      table);
  ASSERT_EQ(dcs.size(), 4u);
  ExpectMatchesBruteForce(table, dcs, "mirrored DCs");
  const ConflictGraph g = BuildOrDie(table, dcs, 2);
  EXPECT_EQ(g.stats.per_dc[0].same_pairs_as, -1);
  EXPECT_EQ(g.stats.per_dc[1].same_pairs_as, 0);
  EXPECT_EQ(g.stats.per_dc[2].same_pairs_as, 0);
  EXPECT_EQ(g.stats.per_dc[3].same_pairs_as, -1);
  EXPECT_EQ(g.stats.per_dc[1].violating_pairs, 2u);  // {0,1}, {3,4}
  EXPECT_EQ(g.stats.per_dc[1].method, g.stats.per_dc[0].method);
}

TEST(ConflictGraphBuilderTest, PastDeadlineIsDeadlineExceeded) {
  const Table table = MakeTable({{"A", ColumnType::kInt64}}, {{"1"}, {"1"}});
  ConflictGraphOptions options;
  options.deadline = absl::Now() - absl::Seconds(1);
  EXPECT_THAT(
      BuildConflictGraph(table, Parse("not(t1.A=t2.A)", table), options),
      StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("DC 1")));
}

TEST(ConflictGraphBuilderTest, EmptyAndSingleRowTablesAndNoDcs) {
  const Table empty = MakeTable({{"A", ColumnType::kInt64}}, {});
  const ConflictGraph g0 = BuildOrDie(empty, Parse("not(t1.A=t2.A)", empty));
  EXPECT_EQ(g0.graph.num_nodes(), 0u);
  EXPECT_EQ(g0.graph.num_edges(), 0u);
  const Table one = MakeTable({{"A", ColumnType::kInt64}}, {{"1"}});
  // (t, t) is never considered, even though the tuple violates the DC.
  const ConflictGraph g1 = BuildOrDie(one, Parse("not(t1.A=t2.A)", one));
  EXPECT_EQ(g1.graph.num_nodes(), 1u);
  EXPECT_EQ(g1.graph.num_edges(), 0u);
  const ConflictGraph g2 = BuildOrDie(one, {});
  EXPECT_EQ(g2.graph.num_nodes(), 1u);
  EXPECT_TRUE(g2.stats.per_dc.empty());
}

TEST(ConflictGraphBuilderTest, ReportsMethods) {
  const Table table = MakeTable(
      {{"A", ColumnType::kInt64}, {"B", ColumnType::kInt64}}, {{"1", "2"}});
  const std::vector<DenialConstraint> dcs = Parse(
      "not(t1.A=t2.A)\nnot(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.A=t2.A&t1.B<t2.B)\n"
      "not(t1.A=t2.A&t1.B<t2.B&t1.A>t2.B)\nnot(t1.A!=t2.A)\nnot(t1.A<t2.A)\n"
      "not(t1.A<t2.A&t1.B<t2.B)\nnot(t1.A=1&t2.B=2)",
      table);
  const ConflictGraph g = BuildOrDie(table, dcs);
  std::vector<std::string> methods;
  for (const DcBuildStats& s : g.stats.per_dc) methods.push_back(s.method);
  EXPECT_THAT(methods,
              ElementsAre("hash", "hash+group", "hash+sort", "hash+iejoin",
                          "group", "sort", "iejoin", "nested"));
}

TEST(ConflictGraphInternalTest, EncodeDoublePreservesOrder) {
  std::vector<double> values = {-1e300, -2.5, -1, -1e-300, -0.0, 0.0,
                                1e-300, 0.5,  1,  3,       1e300};
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < values.size(); ++j) {
      EXPECT_EQ(
          internal::EncodeDouble(values[i]) < internal::EncodeDouble(values[j]),
          values[i] < values[j])
          << values[i] << " " << values[j];
      EXPECT_EQ(internal::EncodeDouble(values[i]) ==
                    internal::EncodeDouble(values[j]),
                values[i] == values[j]);
    }
  }
}

// ---------------------------------------------------------------------------
// Random small tables and random DCs of every shape against brute force.

class RandomCase {
 public:
  explicit RandomCase(uint64_t seed) : rng_(seed) {}

  Table MakeRandomTable(int min_rows = 2, int max_rows = 40,
                        int max_domain = 5) {
    const int num_columns = Uniform(2, 5);
    std::vector<ColumnSpec> specs;
    for (int c = 0; c < num_columns; ++c) {
      const ColumnType type = static_cast<ColumnType>(Uniform(0, 2));
      specs.push_back({absl::StrCat("c", c), type});
      types_.push_back(type);
    }
    const int num_rows = Uniform(min_rows, max_rows);
    const int domain = Uniform(2, max_domain);  // few values: many conflicts
    Cells rows(num_rows);
    for (auto& row : rows) {
      for (ColumnType type : types_) row.push_back(RandomCell(type, domain));
    }
    return MakeTable(specs, rows);
  }

  // A DC text in the native syntax, of a random shape.
  std::string MakeRandomDc() {
    std::vector<std::string> preds;
    const int shape = Uniform(0, 9);
    auto joins = [&](int count, const std::vector<const char*>& ops,
                     bool same_column) {
      for (int i = 0; i < count; ++i) {
        preds.push_back(
            JoinPredicate(ops[Uniform(0, ops.size() - 1)], same_column));
      }
    };
    const std::vector<const char*> kIneq = {"<", "<=", ">", ">="};
    const std::vector<const char*> kAll = {"=", "!=", "<", "<=", ">", ">="};
    switch (shape) {
      case 0:  // FD
        joins(Uniform(1, 2), {"="}, true);
        joins(1, {"!="}, true);
        break;
      case 1:  // equality + inequality
        joins(Uniform(1, 2), {"="}, Bernoulli(0.6));
        joins(Uniform(1, 2), kIneq, Bernoulli(0.6));
        break;
      case 2:  // one inequality
        joins(1, kIneq, Bernoulli(0.6));
        break;
      case 3:  // two inequalities
        joins(2, kIneq, Bernoulli(0.6));
        break;
      case 4:  // three inequalities, maybe a !=
        joins(3, kIneq, Bernoulli(0.5));
        if (Bernoulli(0.5)) joins(1, {"!="}, false);
        break;
      case 5:  // cross-column equality
        joins(Uniform(1, 2), {"="}, false);
        if (Bernoulli(0.5)) joins(1, {"!="}, false);
        break;
      case 6:  // != only
        joins(Uniform(1, 2), {"!="}, Bernoulli(0.5));
        break;
      case 7:  // equalities only
        joins(Uniform(1, 2), {"="}, Bernoulli(0.5));
        break;
      case 8:  // no join predicate: each tuple on its own
        preds.push_back(ConstantPredicate("t1"));
        preds.push_back(ConstantPredicate("t2"));
        break;
      default:  // anything
        joins(Uniform(1, 4), kAll, Bernoulli(0.5));
        break;
    }
    if (Bernoulli(0.3)) preds.push_back(ConstantPredicate());
    if (Bernoulli(0.15)) preds.push_back(ConstantPredicate());
    if (Bernoulli(0.2)) preds.push_back(SameTuplePredicate());
    std::shuffle(preds.begin(), preds.end(), rng_);
    return absl::StrCat("not(", absl::StrJoin(preds, "&"), ")");
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  bool Bernoulli(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::optional<std::string> RandomCell(ColumnType type, int domain) {
    if (Bernoulli(0.08)) return std::nullopt;
    const int v = Uniform(0, domain - 1);
    switch (type) {
      case ColumnType::kInt64:
        return absl::StrCat(v - 1);
      case ColumnType::kDouble: {
        static const char* kDoubles[] = {"0.5", "-0.0", "1", "-1.5", "0"};
        return v < 5 ? kDoubles[v] : absl::StrCat(v, ".25");
      }
      case ColumnType::kString: {
        static const char* kStrings[] = {"b", "a", "bb", "c", "B"};
        return v < 5 ? kStrings[v] : absl::StrCat("s", v);
      }
    }
    return std::nullopt;
  }

  bool IsString(int column) const {
    return types_[column] == ColumnType::kString;
  }

  int RandomColumn() { return Uniform(0, static_cast<int>(types_.size()) - 1); }

  // A column comparable with `column` (both strings or both numbers).
  std::optional<int> PartnerOf(int column, bool same_column) {
    if (same_column) return column;
    std::vector<int> partners;
    for (int c = 0; c < static_cast<int>(types_.size()); ++c) {
      if (IsString(c) == IsString(column)) partners.push_back(c);
    }
    return partners[Uniform(0, partners.size() - 1)];
  }

  std::string JoinPredicate(const std::string& op, bool same_column) {
    const int a = RandomColumn();
    const int b = *PartnerOf(a, same_column);
    // Written as t2 op' t1 half of the time, to exercise normalisation.
    if (Bernoulli(0.5)) {
      return absl::StrCat("t1.c", a, op, "t2.c", b);
    }
    return absl::StrCat("t2.c", b, Mirror(op), "t1.c", a);
  }

  static std::string Mirror(const std::string& op) {
    if (op == "<") return ">";
    if (op == ">") return "<";
    if (op == "<=") return ">=";
    if (op == ">=") return "<=";
    return op;
  }

  std::string RandomOp() {
    static const char* kOps[] = {"=", "!=", "<", "<=", ">", ">="};
    return kOps[Uniform(0, 5)];
  }

  std::string ConstantPredicate(std::string tuple = "") {
    const int c = RandomColumn();
    if (tuple.empty()) tuple = Bernoulli(0.5) ? "t1" : "t2";
    std::string constant;
    if (IsString(c)) {
      static const char* kConstants[] = {"'b'", "'ba'", "'a'", "'zz'", "''"};
      constant = kConstants[Uniform(0, 4)];
    } else {
      static const char* kConstants[] = {"0", "1", "0.5", "-1", "-0.0"};
      constant = kConstants[Uniform(0, 4)];
    }
    const std::string op = RandomOp();
    if (Bernoulli(0.3)) {
      return absl::StrCat(constant, Mirror(op), tuple, ".c", c);
    }
    return absl::StrCat(tuple, ".c", c, op, constant);
  }

  std::string SameTuplePredicate() {
    const int a = RandomColumn();
    const int b = *PartnerOf(a, false);
    const std::string tuple = Bernoulli(0.5) ? "t1" : "t2";
    return absl::StrCat(tuple, ".c", a, RandomOp(), tuple, ".c", b);
  }

  std::mt19937_64 rng_;
  std::vector<ColumnType> types_;
};

TEST(ConflictGraphBuilderTest, RandomTablesAndDcsMatchBruteForce) {
  std::map<std::string, uint64_t> edges_by_method;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    RandomCase random(seed);
    const Table table = random.MakeRandomTable();
    std::vector<std::string> lines;
    const int num_dcs = 1 + static_cast<int>(seed % 3);
    for (int i = 0; i < num_dcs; ++i) lines.push_back(random.MakeRandomDc());
    const std::string text = absl::StrJoin(lines, "\n");
    const std::vector<DenialConstraint> dcs = Parse(text, table);
    ASSERT_EQ(dcs.size(), lines.size()) << text;
    ExpectMatchesBruteForce(table, dcs,
                            absl::StrCat("seed ", seed, ", ", table.num_rows(),
                                         " rows, DCs:\n", text),
                            &edges_by_method);
    if (HasFatalFailure()) return;
  }
  // Every method must have been exercised with real output.
  for (const char* method : {"hash", "hash+group", "hash+sort", "hash+iejoin",
                             "group", "sort", "iejoin", "nested"}) {
    EXPECT_GT(edges_by_method[method], 100u) << method;
  }
}

// Hundreds of rows: the work is cut into several tasks per DC, so blocks are
// entered mid-way (the IEJoin sweep restarts, runs are found by search).
TEST(ConflictGraphBuilderTest, RandomMediumTablesMatchBruteForceWithThreads) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    RandomCase random(1000 + seed);
    const Table table = random.MakeRandomTable(300, 600, 12);
    std::vector<std::string> lines;
    for (int i = 0; i < 3; ++i) lines.push_back(random.MakeRandomDc());
    const std::string text = absl::StrJoin(lines, "\n");
    const std::vector<DenialConstraint> dcs = Parse(text, table);
    const std::vector<Edge> expected = BruteForceEdges(table, dcs);
    ConflictGraphOptions options;
    options.num_threads = 4;
    ASSERT_OK_AND_ASSIGN(ConflictGraph g,
                         BuildConflictGraph(table, dcs, options));
    ASSERT_EQ(g.graph.Edges(), expected) << "seed " << seed << "\n" << text;
  }
}

}  // namespace
}  // namespace dpq::core::graph
