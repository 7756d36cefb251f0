// The conflict graph of tables read from CSV text with quoted fields, empty
// fields and NaN: the parallel reader (several chunks) and the builder on
// 1 and 2 threads give exactly the brute-force edges.
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/graph/graph.h"
#include "core/table/csv_parallel_reader.h"
#include "core/table/csv_reader.h"
#include "core/table/table.h"
#include "gtest/gtest.h"
#include "tests/core/graph/conflict_graph_test_util.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using table::Table;
using testing::BruteForceEdges;
using testing::BuildOrDie;

constexpr char kSchema[] =
    "zip: string\ncity: string\nsalary: int64\nrate: double\n"
    "id: int64\nalias: string\n";

std::string Cell(std::mt19937_64& rng, const std::vector<std::string>& pool) {
  return pool[rng() % pool.size()];
}

// Few distinct values per column, so that blocks are large and conflicts
// many; quoted values with commas, doubled quotes and line breaks; empty
// cells (NULL) everywhere; NaN (NULL) and -0.0 in the double column; ids
// spread over a range too wide for direct codes.
std::string RandomCsv(std::mt19937_64& rng, size_t rows) {
  const std::vector<std::string> zips = {"01907", "\"01907\"", "89140",
                                         "",      "\"a,b\"",   "\"x\"\"y\""};
  const std::vector<std::string> cities = {
      "BOSTON", "\"LAS\nVEGAS\"", "", "\"\"", "\"SAINT \"\"PAUL\"\"\"", "Reno"};
  const std::vector<std::string> salaries = {"50000", "60000", "70000", ""};
  const std::vector<std::string> rates = {"1.5",  "2", "NaN", "",
                                          "-0.0", "0", "3.25"};
  const std::vector<std::string> ids = {"1000000000000", "-1000000000000", "7",
                                        "", "123456789012345"};
  std::string text = "zip,city,salary,rate,id,alias\n";
  for (size_t r = 0; r < rows; ++r) {
    absl::StrAppend(&text, Cell(rng, zips), ",", Cell(rng, cities), ",",
                    Cell(rng, salaries), ",", Cell(rng, rates), ",",
                    Cell(rng, ids), ",", Cell(rng, cities), "\r\n");
  }
  return text;
}

constexpr char kDcs[] =
    // FDs: one equality, then two (codes refined), `!=` checks.
    "not(t1.zip=t2.zip&t1.city!=t2.city)\n"
    "not(t1.zip=t2.zip&t1.salary=t2.salary&t1.rate!=t2.rate)\n"
    // Inequalities inside blocks; NaN and NULL rates never qualify.
    "not(t1.zip=t2.zip&t1.salary>t2.salary&t1.rate<t2.rate)\n"
    // Equality across two columns, and on a wide-range integer key.
    "not(t1.city=t2.alias&t1.salary<t2.salary)\n"
    "not(t1.id=t2.id&t1.rate!=t2.rate)\n";

TEST(ConflictGraphCsvTest, QuotedEmptyAndNanCellsMatchBruteForce) {
  std::mt19937_64 rng(1818);  // fixed seed: deterministic
  table::CsvOptions options;
  options.schema = *table::ParseSchemaOverrides(kSchema);
  options.num_threads = 2;
  for (int trial = 0; trial < 6; ++trial) {
    const std::string text = RandomCsv(rng, 150 + 40 * trial);
    // Many chunks, so that the chunk boundaries fall everywhere.
    absl::StatusOr<Table> table =
        table::internal::ReadCsvWithChunks(text, options, 64);
    ASSERT_TRUE(table.ok()) << table.status();
    absl::StatusOr<std::vector<DenialConstraint>> dcs =
        constraints::ParseDenialConstraints(kDcs, table->schema());
    ASSERT_TRUE(dcs.ok()) << dcs.status();
    const std::vector<Edge> expected = BruteForceEdges(*table, *dcs);
    ASSERT_GT(expected.size(), 0u);
    const ConflictGraph one = BuildOrDie(*table, *dcs, 1);
    const ConflictGraph two = BuildOrDie(*table, *dcs, 2);
    EXPECT_EQ(one.graph.Edges(), expected) << "trial " << trial;
    EXPECT_EQ(two.graph.Edges(), expected) << "trial " << trial;
    for (size_t d = 0; d < dcs->size(); ++d) {
      EXPECT_EQ(one.stats.per_dc[d].violating_pairs,
                two.stats.per_dc[d].violating_pairs);
    }
  }
}

TEST(ConflictGraphCsvTest, NanAndEmptyCellsAreUnordered) {
  table::CsvOptions options;
  options.schema = *table::ParseSchemaOverrides(kSchema);
  // Rows 0 and 1 would conflict on rate if NaN or an empty cell compared.
  absl::StatusOr<Table> table = table::ReadCsv(
      "zip,city,salary,rate,id,alias\n"
      "1,a,5,NaN,1,a\n"
      "1,a,6,,1,a\n"
      "1,a,7,2.5,1,a\n",
      options);
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      constraints::ParseDenialConstraints(
          "not(t1.zip=t2.zip&t1.salary>t2.salary&t1.rate<t2.rate)\n"
          "not(t1.zip=t2.zip&t1.rate!=t2.rate)\n",
          table->schema());
  ASSERT_TRUE(dcs.ok()) << dcs.status();
  EXPECT_EQ(BuildOrDie(*table, *dcs, 2).graph.num_edges(), 0u);
}

}  // namespace
}  // namespace dpq::core::graph
