// Exact measures computed the dpq way (CSV table -> conflict graph ->
// graph measure) against a brute-force reference that never builds a graph:
// it enumerates subsets of rows and asks the DCs directly (paper Def. 1).
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/dc_parser.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/measures/exact_measures.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace dpq::core {
namespace {

using constraints::DenialConstraint;
using measures::Measure;

// True if rows a and b (a != b) conflict under some DC, either orientation.
bool Conflict(const std::vector<DenialConstraint>& dcs, const table::Table& t,
              size_t a, size_t b) {
  for (const DenialConstraint& dc : dcs) {
    if (constraints::Violates(dc, t, a, b) ||
        constraints::Violates(dc, t, b, a)) {
      return true;
    }
  }
  return false;
}

bool Consistent(const std::vector<DenialConstraint>& dcs, const table::Table& t,
                uint32_t subset) {
  for (size_t a = 0; a < t.num_rows(); ++a) {
    if (!(subset >> a & 1)) continue;
    for (size_t b = a + 1; b < t.num_rows(); ++b) {
      if ((subset >> b & 1) && Conflict(dcs, t, a, b)) return false;
    }
  }
  return true;
}

struct BruteForce {
  uint64_t drastic = 0, mi = 0, p = 0, repair = 0, mc = 0;
};

// Paper Def. 1 literally, over all 2^n subsets of rows.
BruteForce Reference(const std::vector<DenialConstraint>& dcs,
                     const table::Table& t) {
  const size_t n = t.num_rows();
  BruteForce r;
  std::vector<bool> problematic(n, false);
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = a + 1; b < n; ++b) {
      if (Conflict(dcs, t, a, b)) {
        ++r.mi;  // a minimal inconsistent subset is a violating pair
        problematic[a] = problematic[b] = true;
      }
    }
  }
  for (bool p : problematic) r.p += p;
  r.drastic = r.mi > 0;
  std::vector<bool> consistent(uint32_t{1} << n);
  size_t largest = 0;
  for (uint32_t s = 0; s < consistent.size(); ++s) {
    consistent[s] = Consistent(dcs, t, s);
    if (consistent[s]) {
      largest = std::max<size_t>(largest, __builtin_popcount(s));
    }
  }
  r.repair = n - largest;
  for (uint32_t s = 0; s < consistent.size(); ++s) {
    if (!consistent[s]) continue;
    bool maximal = true;
    for (size_t a = 0; a < n && maximal; ++a) {
      if (!(s >> a & 1) && consistent[s | (uint32_t{1} << a)]) maximal = false;
    }
    r.mc += maximal;
  }
  return r;
}

// A random table over small domains, so that conflicts are frequent, with
// some NULLs. Columns: A string, B int64, C double, D string.
table::Table RandomTable(std::mt19937_64& rng, size_t rows) {
  const table::Schema schema =
      *table::Schema::Create({{"A", table::ColumnType::kString},
                              {"B", table::ColumnType::kInt64},
                              {"C", table::ColumnType::kDouble},
                              {"D", table::ColumnType::kString}});
  std::vector<std::vector<std::optional<std::string>>> cells(rows);
  const char* words[] = {"x", "y", "z"};
  for (auto& row : cells) {
    auto maybe_null = [&](std::string v) -> std::optional<std::string> {
      if (rng() % 12 == 0) return std::nullopt;
      return v;
    };
    row.push_back(maybe_null(words[rng() % 2]));
    row.push_back(maybe_null(absl::StrCat(rng() % 3)));
    row.push_back(maybe_null(absl::StrCat(static_cast<int>(rng() % 4) * 0.5)));
    row.push_back(maybe_null(words[rng() % 3]));
  }
  return *table::Table::FromCells(schema, cells);
}

// DC sets covering FDs, equality + inequality, inequality-only, constants
// and cross-column comparisons.
const std::vector<std::string>& DcSets() {
  static const auto* sets = new std::vector<std::string>{
      "A -> D\n",
      "A,B -> C\nD -> A\n",
      "not(t1.A=t2.A&t1.B<t2.B&t1.C>t2.C)\n",
      "not(t1.B<t2.B&t1.C<t2.C)\n",
      "t1&t2&EQ(t1.D,t2.D)&IQ(t1.B,t2.B)\nnot(t1.C>t2.C&t1.A='x')\n",
      "not(t1.B=t2.C&t1.D!=t2.D)\n",
      "not(t1.A!=t2.A&t1.B<=t2.B)\nA -> B\n",
  };
  return *sets;
}

TEST(TableMeasuresTest, ExactMeasuresMatchBruteForceOnRandomTables) {
  std::mt19937_64 rng(2025);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t rows = 2 + rng() % 9;  // 2..10 rows: 2^10 subsets at most
    table::Table t = RandomTable(rng, rows);
    const std::string& text = DcSets()[trial % DcSets().size()];
    ASSERT_OK_AND_ASSIGN(std::vector<DenialConstraint> dcs,
                         constraints::ParseDenialConstraints(text, t.schema()));
    ASSERT_OK_AND_ASSIGN(graph::ConflictGraph g,
                         graph::BuildConflictGraph(t, dcs));
    const BruteForce want = Reference(dcs, t);
    auto value = [&](Measure m) {
      auto r = measures::ComputeExactMeasure(g.graph, m);
      EXPECT_TRUE(r.ok()) << r.status();
      EXPECT_TRUE(r->exact());
      return r->value.value_or(~uint64_t{0});
    };
    SCOPED_TRACE(absl::StrCat("trial ", trial, " rows ", rows, " dcs ", text));
    EXPECT_EQ(value(Measure::kDrastic), want.drastic);
    EXPECT_EQ(value(Measure::kMinimalInconsistency), want.mi);
    EXPECT_EQ(value(Measure::kProblematic), want.p);
    EXPECT_EQ(value(Measure::kRepair), want.repair);
    EXPECT_EQ(value(Measure::kMaximalConsistency), want.mc);
  }
}

}  // namespace
}  // namespace dpq::core
