#include "bench/peers/report_table.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::bench::peers {
namespace {

using ::testing::HasSubstr;

constexpr char kLine[] =
    "tax 1M\t8 FDs\t4674840\t2.76\t3.1\t3900000\t4674840\t0.61\t1.51\t"
    "3.64\t5200000\t0.52 0.61 0.80";

TEST(ParseRunLineTest, ReadsTheTwelveFields) {
  auto run = ParseRunLine(kLine);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->table, "tax 1M");
  EXPECT_EQ(run->dcs, "8 FDs");
  EXPECT_EQ(run->dpq_count, "4674840");
  EXPECT_DOUBLE_EQ(run->dpq_seconds, 2.76);
  EXPECT_DOUBLE_EQ(run->dpq_cpu_seconds, 3.1);
  EXPECT_EQ(run->dpq_rss_kb, 3900000);
  EXPECT_EQ(run->duckdb_count, "4674840");
  EXPECT_DOUBLE_EQ(run->duckdb_load_seconds, 0.61);
  EXPECT_DOUBLE_EQ(run->duckdb_query_seconds, 1.51);
  EXPECT_DOUBLE_EQ(run->duckdb_cpu_seconds, 3.64);
  EXPECT_EQ(run->duckdb_rss_kb, 5200000);
  EXPECT_EQ(run->load_average, "0.52 0.61 0.80");
  EXPECT_TRUE(CountsAgree(*run));
}

TEST(ParseRunLineTest, RefusesMalformedLines) {
  EXPECT_FALSE(ParseRunLine("tax\t8 FDs\t1").ok());
  const auto bad =
      ParseRunLine("tax 1M\t8 FDs\t1\tfast\t1\t1\t1\t1\t1\t1\t1\t0.5 0.5 0.5");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("dpq seconds 'fast'"));
}

TEST(FormatTest, TwoSignificantDigits) {
  EXPECT_EQ(FormatSeconds(0.137), "0.14 s");
  EXPECT_EQ(FormatSeconds(0.001), "0.01 s");
  EXPECT_EQ(FormatSeconds(2.76), "2.8 s");
  EXPECT_EQ(FormatSeconds(44.3), "44 s");
  EXPECT_EQ(FormatMemory(40000), "41 MB");
  EXPECT_EQ(FormatMemory(3808594), "3.9 GB");
  EXPECT_EQ(FormatSpeedup(0.14, 0.85), "6.1x");
  EXPECT_EQ(FormatSpeedup(44.3, 23.7), "0.53x");
  EXPECT_EQ(FormatSpeedup(1, 12.4), "12x");
}

TEST(RenderTableTest, OneRowPerRunWithSumsAndSpeedUp) {
  const std::string table = RenderTable({*ParseRunLine(kLine)});
  EXPECT_THAT(table, HasSubstr("| table | DCs | conflicting pairs | dpq |"));
  EXPECT_THAT(table, HasSubstr("| tax 1M | 8 FDs | 4,674,840 | 2.8 s | 2.1 s "
                               "(0.61 s + 1.5 s) | 0.77x | 3.1 s / 3.6 s | "
                               "4.0 GB / 5.3 GB | 0.52 0.61 0.80 |\n"));
}

TEST(RenderTableTest, MismatchedCountsAreFlagged) {
  PeerRun run = *ParseRunLine(kLine);
  run.duckdb_count = "4674841";
  EXPECT_FALSE(CountsAgree(run));
  EXPECT_THAT(RenderTable({run}),
              HasSubstr("**MISMATCH** dpq 4674840, DuckDB 4674841"));
  run.dpq_count = run.duckdb_count = "";
  EXPECT_FALSE(CountsAgree(run));
}

}  // namespace
}  // namespace dpq::bench::peers
