// The scaling generator on replicas of the shared tax data (label
// shared-data).
#include "bench/scale/scale_generator.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "core/constraints/dc_parser.h"
#include "core/graph/conflict_graph_builder.h"
#include "core/table/csv_reader.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/shared_data.h"
#include "tests/testing/status_matchers.h"

namespace dpq::bench::scale {
namespace {

using ::dpq::testing::StatusIs;
using ::testing::HasSubstr;

using ::dpq::testing::SharedDataPath;

// Every test reads the shared tax data (label shared-data): it fails at
// once, saying so, when ../shared/data is missing.
class ScaleGeneratorTest : public ::dpq::testing::SharedDataSuite {};

// The header and the first 5,000 rows of the dirty 50k tax file (no quoted
// newlines in it), so that the test stays fast under sanitizers.
const std::string& TemplateCsv() {
  static const std::string* text = [] {
    std::ifstream in(SharedDataPath("tax/dirty-50k.csv"), std::ios::binary);
    std::string line;
    auto* out = new std::string;
    for (int i = 0; i <= 5000 && std::getline(in, line); ++i) {
      *out += line + "\n";
    }
    return out;
  }();
  return *text;
}

core::table::Table Template() {
  auto table = ReadTemplateCsv(TemplateCsv());
  EXPECT_TRUE(table.ok()) << table.status();
  return *std::move(table);
}

std::string Generate(const ScaleOptions& options) {
  std::ostringstream out;
  EXPECT_OK(WriteScaledTable(Template(), options, out));
  return out.str();
}

uint64_t EdgeCount(const std::string& csv, const std::string& dc_file) {
  auto table = core::table::ReadCsv(csv);
  EXPECT_TRUE(table.ok()) << table.status();
  auto dcs = core::constraints::ReadDenialConstraintsFile(
      SharedDataPath(dc_file), table->schema());
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  auto g = core::graph::BuildConflictGraph(*table, *dcs);
  EXPECT_TRUE(g.ok()) << g.status();
  return g->graph.num_edges();
}

TEST_F(ScaleGeneratorTest, WritesExactlyTheRequestedRows) {
  for (uint64_t rows : {1u, 4999u, 5000u, 7500u, 12345u}) {
    ScaleOptions options;
    options.rows = rows;
    const std::string csv = Generate(options);
    auto table = core::table::ReadCsv(csv);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ(table->num_rows(), rows);
    EXPECT_EQ(table->num_columns(), 15u);
  }
}

TEST_F(ScaleGeneratorTest, IsDeterministicForASeed) {
  ScaleOptions options;
  options.rows = 8000;
  options.seed = 7;
  const std::string a = Generate(options);
  EXPECT_EQ(a, Generate(options));
  options.seed = 8;
  EXPECT_NE(a, Generate(options));
}

TEST_F(ScaleGeneratorTest, FirstReplicaIsAPermutationOfTheTemplate) {
  ScaleOptions options;
  options.rows = 5000;
  std::vector<std::string> got = absl::StrSplit(Generate(options), '\n');
  std::vector<std::string> want = absl::StrSplit(TemplateCsv(), '\n');
  EXPECT_EQ(got.front(), want.front());  // the header
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

TEST_F(ScaleGeneratorTest, SecondReplicaHasItsOwnKeys) {
  ScaleOptions options;
  options.rows = 10000;
  auto table = core::table::ReadCsv(Generate(options));
  ASSERT_TRUE(table.ok()) << table.status();
  for (const char* name : {"zip", "area_code", "f_name", "state"}) {
    const size_t column = *table->schema().FindColumn(name);
    int shifted = 0;
    for (size_t row = 0; row < 10000; ++row) {
      const bool suffixed = absl::EndsWith(table->CellText(column, row), "~1");
      EXPECT_EQ(suffixed, row >= 5000) << name << " row " << row;
      shifted += suffixed ? 1 : 0;
    }
    EXPECT_EQ(shifted, 5000) << name;
  }
}

// Two replicas with distinct keys are two disjoint copies of the template's
// conflict graph: exactly twice the edges, for the 8 FDs and for the paper's
// DCs with inequalities inside state blocks (state is a distinct column).
TEST_F(ScaleGeneratorTest, KeepsTheConflictDensity) {
  ScaleOptions options;
  options.rows = 10000;
  const std::string doubled = Generate(options);
  for (const char* dcs : {"tax/constraints.dc", "tax/constraints-paper.dc"}) {
    const uint64_t base = EdgeCount(TemplateCsv(), dcs);
    EXPECT_GT(base, 1000u) << dcs;
    EXPECT_EQ(EdgeCount(doubled, dcs), 2 * base) << dcs;
  }
}

// Density 2 puts both replicas in one key group: each template edge {a, b}
// becomes {a, b}, {a, b'}, {a', b}, {a', b'}, and a row never conflicts
// with its own copy, so there are exactly 4x the edges (2x per row).
TEST_F(ScaleGeneratorTest, DenseVariantDoublesTheEdgesPerRow) {
  ScaleOptions options;
  options.rows = 10000;
  options.density = 2;
  const uint64_t base = EdgeCount(TemplateCsv(), "tax/constraints.dc");
  EXPECT_EQ(EdgeCount(Generate(options), "tax/constraints.dc"), 4 * base);
}

TEST_F(ScaleGeneratorTest, RejectsBadOptions) {
  std::ostringstream out;
  ScaleOptions options;
  EXPECT_THAT(WriteScaledTable(Template(), options, out),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Rows")));
  options.rows = 10;
  options.density = 0;
  EXPECT_THAT(
      WriteScaledTable(Template(), options, out),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Density")));
  options.density = 1;
  options.distinct_columns = {"nope"};
  EXPECT_THAT(WriteScaledTable(Template(), options, out),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nope")));
  auto typed = core::table::ReadCsv(TemplateCsv());  // rate is a double
  ASSERT_TRUE(typed.ok()) << typed.status();
  options.distinct_columns = {"rate"};
  EXPECT_THAT(WriteScaledTable(*typed, options, out),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rate")));
}

}  // namespace
}  // namespace dpq::bench::scale
