// A small end-to-end run of the Section 6 harness: one dataset, one
// epsilon, three runs. The full runs are run-all.sh (docs/experiments.md).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/bench/experiments/experiment_runner.h"
#include "tests/bench/experiments/figure_plots.h"
#include "tests/bench/experiments/measure_evaluation.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::bench::experiments {
namespace {

using ::testing::ElementsAre;

TEST(PaperThetaCandidatesTest, MatchesSection61) {
  EXPECT_THAT(PaperThetaCandidates(3000),
              ElementsAre(1, 5, 10, 100, 500, 1000, 2000, 3000));
  EXPECT_THAT(PaperThetaCandidates(700), ElementsAre(1, 5, 10, 100, 500, 700));
  EXPECT_EQ(PaperThetaCandidates(10'000).size(), 15u);
}

class SmallExperimentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ExperimentOptions o;
    o.data_dir = DPQ_SHARED_DATA_DIR;
    o.datasets = {"hospital"};
    o.figures = {"grid", "fig3"};
    o.grid_noises = {"rnoise-0.01", "dirty"};
    o.epsilons = {5};
    o.runs = 3;
    o.checkpoints = 2;
    o.rows = 1000;
    o.vertex_cover_seconds = 2;
    auto rows = RunExperiments(o);
    ASSERT_TRUE(rows.ok()) << rows.status();
    rows_ = new std::vector<ResultRow>(*std::move(rows));
  }
  static void TearDownTestSuite() { delete rows_; }
  static std::vector<ResultRow>* rows_;
};
std::vector<ResultRow>* SmallExperimentTest::rows_ = nullptr;

TEST_F(SmallExperimentTest, HasOneRowPerGraphMethodAndMeasure) {
  // grid: 2 noises x (5 methods x {MI, P} + vertex cover) = 22 rows;
  // fig3: 2 checkpoints x (optimized x {MI, P} + vertex cover) = 6 rows.
  ASSERT_EQ(rows_->size(), 28u);
  std::set<std::string> keys;
  for (const ResultRow& r : *rows_) {
    keys.insert(r.figure + r.noise + std::to_string(r.iterations) + r.method +
                r.measure);
    EXPECT_EQ(r.stats.runs, 3u);
    EXPECT_EQ(r.nodes, 1000u);
    EXPECT_GT(r.edges, 0u) << r.noise;  // noise made conflicts
  }
  EXPECT_EQ(keys.size(), rows_->size());  // no duplicates

  const std::string csv = ResultsCsv(*rows_);
  const std::vector<std::string> lines =
      absl::StrSplit(csv, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), rows_->size() + 1);
  const size_t columns = std::count(lines[0].begin(), lines[0].end(), ',');
  EXPECT_EQ(columns, 25u);
  for (const std::string& l : lines) {
    EXPECT_EQ(static_cast<size_t>(std::count(l.begin(), l.end(), ',')),
              columns);
  }
}

TEST_F(SmallExperimentTest, ErrorsAreFiniteAndBaselineTwoIsAccurateAtEpsilon5) {
  for (const ResultRow& r : *rows_) {
    ASSERT_GT(r.stats.true_value, 0);
    EXPECT_TRUE(std::isfinite(r.stats.error_mean)) << r.method << r.measure;
    EXPECT_GE(r.stats.error_mean, 0);
    if (r.measure == "R") {
      EXPECT_THAT(r.reference, ::testing::AnyOf("exact", "lp"));
      // The stable greedy cover is a 2-approximation: at eps 5 the noise
      // (scale 0.4) is negligible, so the error is at most about 1.
      EXPECT_LT(r.stats.error_mean, 1.05);
      // Against the greedy cover it perturbs, only the noise remains.
      EXPECT_LT(r.stats.greedy_error_mean, 0.1);
    } else {
      EXPECT_EQ(r.reference, "count");
    }
    if (r.method == "baseline2") {
      // theta = d_max keeps every edge; the noise scale is (d_max + 1) / 5,
      // a few percent of the counts here. A 10% error needs a deviation of
      // several scales in 3 runs: probability below 1e-6.
      EXPECT_LT(r.stats.error_mean, 0.1)
          << r.noise << " " << r.measure << " dmax " << r.max_degree;
    }
  }
}

TEST_F(SmallExperimentTest, WritesOneGnuplotScriptPerFigure) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "dpq_experiments_test")
          .string();
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(WritePlots(*rows_, {"hospital"}, dir, /*render=*/false).ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/fig3.gp"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/fig6.gp"));  // no rnoise-0.005
  std::filesystem::remove_all(dir);
}

TEST(EvaluateMethodTest, RefusesMismatchedMethodAndMeasure) {
  auto g = core::graph::Graph::FromEdges(4, {{0, 1}, {1, 2}, {2, 3}});
  ASSERT_TRUE(g.ok());
  GraphCase c;
  c.graph = *g;
  c.public_max_rows = 4;
  c.candidates = PaperThetaCandidates(4);
  c.i_mi = 3;
  c.i_p = 4;
  c.i_r = 2;
  testing::SeededUrbg urbg(1);
  using core::measures::Measure;
  EXPECT_FALSE(EvaluateMethod(urbg, c, Measure::kMinimalInconsistency,
                              Method::kVertexCover, 1, 3)
                   .ok());
  EXPECT_FALSE(
      EvaluateMethod(urbg, c, Measure::kRepair, Method::kOptimized, 1, 3).ok());
  EXPECT_FALSE(
      EvaluateMethod(urbg, c, Measure::kRepair, Method::kVertexCover, 1, 0)
          .ok());
  auto stats =
      EvaluateMethod(urbg, c, Measure::kProblematic, Method::kBaseline2, 1, 3);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->theta_mean, 2);  // d_max of the path
  EXPECT_EQ(stats->true_value, 4);
}

TEST(RunExperimentsTest, RejectsUnknownFigure) {
  ExperimentOptions o;
  o.figures = {"fig9"};
  EXPECT_FALSE(RunExperiments(o).ok());
}

}  // namespace
}  // namespace dpq::bench::experiments
