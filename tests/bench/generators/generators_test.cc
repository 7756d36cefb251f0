// The generators that need no data: typos that keep a cell's type, and the
// Stock-like synthetic table. RNoise and CONoise on the shared datasets are
// in noise_generators_shared_data_test.cc.
#include <cstddef>
#include <optional>
#include <string>

#include "bench/generators/cell_values.h"
#include "bench/generators/rnoise.h"
#include "bench/generators/stock_generator.h"
#include "core/constraints/dc_evaluation.h"
#include "core/constraints/dc_parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::bench::generators {
namespace {

TEST(CellValuesTest, TyposDifferAndKeepTheType) {
  using core::table::ColumnType;
  GeneratorRng rng(1);
  for (int i = 0; i < 200; ++i) {
    for (const char* v : {"10", "0", "5.3", "-12", "90000"}) {
      const std::string t = MakeTypo(ColumnType::kInt64, std::string(v), rng);
      EXPECT_NE(t, v);
      EXPECT_FALSE(t.size() > 1 && t[0] == '0' && t[1] != '.') << t;
    }
    EXPECT_NE(MakeTypo(ColumnType::kString, std::string("a"), rng), "a");
    EXPECT_FALSE(MakeTypo(ColumnType::kString, std::nullopt, rng).empty());
  }
}

TEST(StockGeneratorTest, IsDeterministicConsistentAndSparse) {
  auto a = GenerateStock({.rows = 600, .days_per_ticker = 100, .seed = 2});
  auto b = GenerateStock({.rows = 600, .days_per_ticker = 100, .seed = 2});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->rows.size(), 600u);
  EXPECT_EQ(ToCsv(*a), ToCsv(*b));
  auto dcs =
      core::constraints::ParseDenialConstraints(StockConstraints(), a->schema);
  ASSERT_TRUE(dcs.ok()) << dcs.status();
  EXPECT_EQ(dcs->size(), 6u);
  auto table = ToTable(*a);
  ASSERT_TRUE(table.ok());
  for (size_t i = 0; i < 600; ++i) {
    EXPECT_LE(table->column(4).numeric_at(i), table->column(3).numeric_at(i));
    for (size_t j = i + 1; j < 600; ++j) {
      for (const auto& dc : *dcs) {
        ASSERT_FALSE(core::constraints::Conflicts(dc, *table, i, j));
      }
    }
  }
  // RNoise on it gives conflicts of degree about 1 (paper Table 5).
  auto log = GenerateRNoise(*a, *dcs, {.alpha = 0.01, .seed = 1});
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(CountChangedCells(*a, ApplyNoise(*a, *log, log->iterations.size())),
            RNoiseCellCount(*a, *dcs, 0.01));
}

}  // namespace
}  // namespace dpq::bench::generators
