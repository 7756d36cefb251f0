// RNoise and CONoise (paper Section 6.1) on samples of the shared
// benchmark datasets in ../shared/data (label shared-data).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/generators/cell_values.h"
#include "bench/generators/conoise.h"
#include "bench/generators/rnoise.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/dc_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/shared_data.h"

namespace dpq::bench::generators {
namespace {

using core::constraints::DenialConstraint;

struct Dataset {
  CellTable cells;
  std::vector<DenialConstraint> dcs;
};

// Every test here reads ../shared/data (label shared-data): it fails at
// once, saying so, when the folder is missing.
class RNoiseTest : public testing::SharedDataSuite {};
class CoNoiseTest : public testing::SharedDataSuite {};

// The shared data files, read once per test binary.
const CellTable& ReadOnce(const std::string& path) {
  static auto* cache = new std::map<std::string, CellTable>();
  if (!cache->count(path)) {
    auto cells = ReadCellTable(path);
    EXPECT_TRUE(cells.ok()) << cells.status();
    (*cache)[path] = cells.ok() ? *std::move(cells) : CellTable{};
  }
  return cache->at(path);
}

Dataset Load(const std::string& folder, const std::string& csv,
             const std::string& dc_file, size_t rows) {
  const std::string dir = testing::SharedDataPath(folder) + "/";
  Dataset d{SampleRows(ReadOnce(dir + csv), rows, 7), {}};
  auto dcs = core::constraints::ReadDenialConstraintsFile(dir + dc_file,
                                                          d.cells.schema);
  EXPECT_TRUE(dcs.ok()) << dcs.status();
  d.dcs = *dcs;
  return d;
}

// Every changed cell is in a column some DC reads.
void ExpectChangesOnlyInConstrainedColumns(
    const CellTable& a, const CellTable& b,
    const std::vector<DenialConstraint>& dcs) {
  const std::vector<size_t> constrained = ConstrainedColumns(dcs);
  const std::set<size_t> allowed(constrained.begin(), constrained.end());
  for (size_t r = 0; r < a.rows.size(); ++r) {
    for (size_t c = 0; c < a.rows[r].size(); ++c) {
      if (a.rows[r][c] != b.rows[r][c]) {
        EXPECT_TRUE(allowed.count(c)) << "row " << r << " column " << c;
      }
    }
  }
}

TEST_F(RNoiseTest, ChangesExactlyTheRequestedNumberOfConstrainedCells) {
  const Dataset d = Load("hospital", "clean.csv", "constraints-paper.dc", 1000);
  for (double alpha : {0.001, 0.01, 0.05}) {
    auto log = GenerateRNoise(d.cells, d.dcs, {.alpha = alpha, .seed = 3});
    ASSERT_TRUE(log.ok()) << log.status();
    const size_t k = RNoiseCellCount(d.cells, d.dcs, alpha);
    EXPECT_EQ(k, static_cast<size_t>(std::llround(
                     alpha * 1000 * ConstrainedColumns(d.dcs).size())));
    ASSERT_EQ(log->iterations.size(), k);
    const CellTable noisy = ApplyNoise(d.cells, *log, k);
    EXPECT_EQ(CountChangedCells(d.cells, noisy), k);
    ExpectChangesOnlyInConstrainedColumns(d.cells, noisy, d.dcs);
    // Every prefix changes exactly as many cells as it has iterations.
    EXPECT_EQ(CountChangedCells(d.cells, ApplyNoise(d.cells, *log, k / 2)),
              k / 2);
    // The edits keep every column's type.
    EXPECT_TRUE(ToTable(noisy).ok());
  }
}

TEST_F(RNoiseTest, IsDeterministicForASeed) {
  const Dataset d = Load("tax", "clean-10k.csv", "constraints-paper.dc", 2000);
  auto a = GenerateRNoise(d.cells, d.dcs, {.alpha = 0.01, .seed = 11});
  auto b = GenerateRNoise(d.cells, d.dcs, {.alpha = 0.01, .seed = 11});
  auto c = GenerateRNoise(d.cells, d.dcs, {.alpha = 0.01, .seed = 12});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  const size_t k = a->iterations.size();
  EXPECT_EQ(ToCsv(ApplyNoise(d.cells, *a, k)),
            ToCsv(ApplyNoise(d.cells, *b, k)));
  EXPECT_NE(ToCsv(ApplyNoise(d.cells, *a, k)),
            ToCsv(ApplyNoise(d.cells, *c, k)));
}

TEST_F(RNoiseTest, UsesBothActiveDomainValuesAndTypos) {
  const Dataset d = Load("tax", "clean-10k.csv", "constraints-paper.dc", 2000);
  auto log = GenerateRNoise(d.cells, d.dcs, {.alpha = 0.02, .seed = 5});
  ASSERT_TRUE(log.ok());
  size_t in_domain = 0;
  std::map<size_t, std::vector<std::string>> domains;
  for (const auto& it : log->iterations) {
    const CellChange& ch = it.changes.at(0);
    if (!domains.count(ch.column)) {
      domains[ch.column] = ActiveDomain(d.cells, ch.column);
    }
    const auto& domain = domains[ch.column];
    if (std::find(domain.begin(), domain.end(), *ch.value) != domain.end()) {
      ++in_domain;
    }
  }
  // With probability 0.5 each (and typos almost never landing in the
  // domain) the share is near one half; 0.3-0.8 fails with probability far
  // below 1e-9 at this sample size (about 500 changes).
  const double share = static_cast<double>(in_domain) / log->iterations.size();
  EXPECT_GT(share, 0.3);
  EXPECT_LT(share, 0.8);
}

TEST_F(RNoiseTest, RejectsBadAlpha) {
  const Dataset d = Load("hospital", "clean.csv", "constraints-paper.dc", 100);
  EXPECT_FALSE(GenerateRNoise(d.cells, d.dcs, {.alpha = 1.5}).ok());
  EXPECT_FALSE(GenerateRNoise(d.cells, d.dcs, {.alpha = -0.1}).ok());
}

// Each iteration leaves its pair violating its DC (checked with core's
// reference evaluation), on DCs with !=, = and < predicates.
void ExpectTargetedViolations(const Dataset& d, size_t iterations) {
  auto log =
      GenerateCoNoise(d.cells, d.dcs, {.iterations = iterations, .seed = 9});
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->iterations.size(), iterations);
  for (size_t i = 0; i < iterations; ++i) {
    const NoiseIteration& it = log->iterations[i];
    ASSERT_TRUE(it.dc_index.has_value());
    EXPECT_NE(it.row_t1, it.row_t2);
    auto table = ToTable(ApplyNoise(d.cells, *log, i + 1));
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE(core::constraints::Violates(d.dcs[*it.dc_index], *table,
                                            it.row_t1, it.row_t2))
        << "iteration " << i << " DC " << d.dcs[*it.dc_index].text;
  }
  ExpectChangesOnlyInConstrainedColumns(
      d.cells, ApplyNoise(d.cells, *log, iterations), d.dcs);
}

TEST_F(CoNoiseTest, EveryIterationViolatesItsDcOnAdult) {
  ExpectTargetedViolations(Load("adult", "adult.csv", "constraints.dc", 300),
                           40);
}

TEST_F(CoNoiseTest, EveryIterationViolatesItsDcOnTaxPaperDcs) {
  ExpectTargetedViolations(
      Load("tax", "clean-10k.csv", "constraints-paper.dc", 300), 40);
}

TEST_F(CoNoiseTest, EveryIterationViolatesItsDcOnFlights) {
  ExpectTargetedViolations(Load("flights", "clean.csv", "constraints.dc", 300),
                           30);
}

TEST_F(CoNoiseTest, IsDeterministicForASeed) {
  const Dataset d = Load("hospital", "clean.csv", "constraints-paper.dc", 500);
  auto a = GenerateCoNoise(d.cells, d.dcs, {.iterations = 200, .seed = 4});
  auto b = GenerateCoNoise(d.cells, d.dcs, {.iterations = 200, .seed = 4});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ToCsv(ApplyNoise(d.cells, *a, 200)),
            ToCsv(ApplyNoise(d.cells, *b, 200)));
  EXPECT_GT(CountChangedCells(d.cells, ApplyNoise(d.cells, *a, 200)), 100u);
}

}  // namespace
}  // namespace dpq::bench::generators
