// The conflict-graph builder against brute force on the benchmark datasets
// in ../shared/data next to the repository (label shared-data).
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/constraints/dc_parser.h"
#include "core/constraints/denial_constraint.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/graph/graph.h"
#include "core/table/csv_reader.h"
#include "core/table/table.h"
#include "gtest/gtest.h"
#include "tests/core/graph/conflict_graph_test_util.h"
#include "tests/testing/files.h"
#include "tests/testing/shared_data.h"

namespace dpq::core::graph {
namespace {

using constraints::DenialConstraint;
using table::Table;
using testing::BruteForceEdges;
using testing::BuildOrDie;

// Every test reads ../shared/data: it fails at once, saying so, when the
// folder is missing.
class ConflictGraphDatasetTest : public ::dpq::testing::SharedDataSuite {};

// The dataset's first `max_rows` rows (0 = all): brute force is quadratic.
Table ReadDataset(const std::string& relative_path, size_t max_rows = 0) {
  const std::string path = ::dpq::testing::SharedDataPath(relative_path);
  EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
  std::string text = ::dpq::testing::ReadFileOrEmpty(path);
  if (max_rows > 0) {
    // These files have no quoted line breaks: a line is a row.
    size_t pos = 0;
    for (size_t line = 0; line <= max_rows && pos != std::string::npos;
         ++line) {
      pos = text.find('\n', pos);
      if (pos != std::string::npos) ++pos;
    }
    if (pos != std::string::npos) text.resize(pos);
  }
  absl::StatusOr<Table> table = table::ReadCsv(text);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : Table();
}

std::vector<DenialConstraint> ReadDcs(const std::string& relative_path,
                                      const Table& table) {
  absl::StatusOr<std::vector<DenialConstraint>> dcs =
      constraints::ReadDenialConstraintsFile(
          ::dpq::testing::SharedDataPath(relative_path), table.schema());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  return dcs.ok() ? *std::move(dcs) : std::vector<DenialConstraint>{};
}

// Returns the number of edges.
size_t ExpectDatasetMatchesBruteForce(const std::string& csv,
                                      const std::string& dc_file,
                                      size_t max_rows = 0) {
  const Table table = ReadDataset(csv, max_rows);
  const std::vector<DenialConstraint> dcs = ReadDcs(dc_file, table);
  EXPECT_FALSE(dcs.empty());
  if (max_rows > 0) {
    EXPECT_EQ(table.num_rows(), max_rows);
  }
  const std::vector<Edge> expected = BruteForceEdges(table, dcs);
  const ConflictGraph g = BuildOrDie(table, dcs, 4);
  EXPECT_EQ(g.graph.Edges(), expected) << csv << " " << dc_file;
  EXPECT_EQ(g.graph.num_nodes(), table.num_rows());
  return expected.size();
}

TEST_F(ConflictGraphDatasetTest, HospitalDirtyMatchesBruteForce) {
  EXPECT_GT(ExpectDatasetMatchesBruteForce("hospital/dirty.csv",
                                           "hospital/constraints.dc"),
            0u);
  EXPECT_GT(ExpectDatasetMatchesBruteForce("hospital/dirty.csv",
                                           "hospital/constraints-paper.dc"),
            0u);
}

TEST_F(ConflictGraphDatasetTest, FlightsDirtyMatchesBruteForce) {
  EXPECT_GT(ExpectDatasetMatchesBruteForce("flights/dirty.csv",
                                           "flights/constraints.dc"),
            0u);
}

TEST_F(ConflictGraphDatasetTest, TaxDirtyPrefixMatchesBruteForce) {
  EXPECT_GT(ExpectDatasetMatchesBruteForce("tax/dirty-10k.csv",
                                           "tax/constraints.dc", 1500),
            0u);
  EXPECT_GT(ExpectDatasetMatchesBruteForce("tax/dirty-10k.csv",
                                           "tax/constraints-paper.dc", 1500),
            0u);
}

TEST_F(ConflictGraphDatasetTest, AdultPrefixMatchesBruteForce) {
  // Consistent as shipped: the point is agreement, not the edge count.
  ExpectDatasetMatchesBruteForce("adult/adult.csv", "adult/constraints.dc",
                                 2000);
}

}  // namespace
}  // namespace dpq::core::graph
