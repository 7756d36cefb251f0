#include "bench/r2t/r2t_tool.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace dpq::bench::r2t {
namespace {

using ::testing::HasSubstr;

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/r2t_tool_test_" + name;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(R2tToolTest, ParsesFlagsAndRejectsUnknownOnes) {
  auto o = ParseR2tToolArgs({"dpq-r2t", "--data", "x.csv", "--dcs=y.dc",
                             "--epsilon", "0.5", "--runs", "3", "--seed", "7",
                             "--base", "5.5", "--thresholds", "authors"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->data_path, "x.csv");
  EXPECT_EQ(o->dcs_path, "y.dc");
  EXPECT_DOUBLE_EQ(o->epsilon, 0.5);
  EXPECT_EQ(o->runs, 3);
  EXPECT_EQ(o->seed, 7u);
  EXPECT_TRUE(o->authors_thresholds);
  // Table 1's dpq columns: the paper's method, then dpq's default.
  EXPECT_THAT(o->methods, ::testing::ElementsAre("optimized", "gem"));
  auto gem_only = ParseR2tToolArgs(
      {"dpq-r2t", "--data", "x", "--dcs", "y", "--method", "gem,basic"});
  ASSERT_TRUE(gem_only.ok()) << gem_only.status();
  EXPECT_THAT(gem_only->methods, ::testing::ElementsAre("gem", "basic"));
  EXPECT_FALSE(ParseR2tToolArgs({"dpq-r2t", "--data", "x", "--dcs", "y",
                                 "--method", "optimized,frobnicate"})
                   .ok());
  EXPECT_FALSE(ParseR2tToolArgs({"dpq-r2t", "--data", "x", "--dcs", "y",
                                 "--frobnicate", "1"})
                   .ok());
  EXPECT_FALSE(ParseR2tToolArgs({"dpq-r2t", "--data", "x"}).ok());
  EXPECT_FALSE(
      ParseR2tToolArgs({"dpq-r2t", "--data", "x", "--dcs", "y", "--runs", "0"})
          .ok());
}

// A 3-row FD violation block (A = 1 with B in {1, 2, 3}: 3 pairs) plus
// consistent rows; the tool must report the true count and write the CSV.
TEST(R2tToolTest, RunsEndToEndOnATinyTable) {
  const std::string data = TempPath("data.csv");
  const std::string dcs = TempPath("fd.dc");
  const std::string csv = TempPath("out.csv");
  WriteFile(data, "A,B\n1,1\n1,2\n1,3\n2,1\n3,1\n4,1\n");
  WriteFile(dcs, "A -> B\n");
  auto o = ParseR2tToolArgs({"dpq-r2t", "--data", data, "--dcs", dcs, "--runs",
                             "2", "--seed", "1", "--csv", csv, "--label",
                             "tiny", "--threads", "1"});
  ASSERT_TRUE(o.ok()) << o.status();
  std::ostringstream out;
  ASSERT_TRUE(RunR2tTool(*o, out).ok());
  EXPECT_THAT(out.str(), HasSubstr("I_MI = 3 edges"));
  EXPECT_THAT(out.str(), HasSubstr("mean rel. error"));
  EXPECT_THAT(out.str(), HasSubstr("dpq (optimized)"));
  EXPECT_THAT(out.str(), HasSubstr("dpq (gem)"));
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 5u);  // header, 2 runs, mean, std
  // The first 12 columns as before (optimized in dpq_*), then gem's three.
  EXPECT_THAT(lines[0],
              HasSubstr("dpq_estimate,dpq_rel_error,r2t_lp_seconds,"
                        "dpq_seconds,dpq_gem_estimate,dpq_gem_rel_error,"
                        "dpq_gem_seconds"));
  for (const std::string& line : lines) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 14) << line;
  }
  EXPECT_THAT(lines[1], HasSubstr("tiny,0,6,6,1,3,"));
  EXPECT_THAT(lines[3], HasSubstr("tiny,mean,"));
  std::remove(data.c_str());
  std::remove(dcs.c_str());
  std::remove(csv.c_str());
}

}  // namespace
}  // namespace dpq::bench::r2t
