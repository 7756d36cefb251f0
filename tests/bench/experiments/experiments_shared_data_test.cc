// The Section 6 harness on the shared Hospital data (label shared-data):
// a small end-to-end run (one dataset, one epsilon, three runs), the new
// methods on its two graphs, gem tuning and the accuracy table. The full
// runs are run-all.sh (docs/experiments.md).
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "bench/experiments/experiment_runner.h"
#include "bench/experiments/figure_plots.h"
#include "bench/experiments/gem_tuning.h"
#include "bench/experiments/measure_evaluation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/files.h"
#include "tests/testing/seeded_urbg.h"
#include "tests/testing/shared_data.h"
#include "tests/testing/temp_dir.h"

namespace dpq::bench::experiments {
namespace {

using ::dpq::testing::HasSharedData;
using ::dpq::testing::ReadFileOrEmpty;
using ::dpq::testing::SharedDataDir;
using ::dpq::testing::TempDir;

// The experiment runs once for the suite. Its outcome is checked in SetUp,
// by every test: a failed ASSERT in SetUpTestSuite would mark the tests
// skipped, not failed.
class SmallExperimentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!HasSharedData("hospital")) return;  // SetUp says so
    ExperimentOptions o;
    o.data_dir = SharedDataDir();
    o.datasets = {"hospital"};
    o.figures = {"grid", "fig3", "fig5"};
    o.grid_noises = {"rnoise-0.01", "dirty"};
    o.epsilons = {5};
    o.runs = 3;
    o.checkpoints = 2;
    o.rows = 1000;
    o.vertex_cover_seconds = 2;
    auto rows = RunExperiments(o);
    status_ = new absl::Status(rows.status());
    if (rows.ok()) rows_ = new std::vector<ResultRow>(*std::move(rows));
  }
  static void TearDownTestSuite() {
    delete rows_;
    delete status_;
  }
  void SetUp() override {
    ASSERT_TRUE(HasSharedData("hospital"));
    ASSERT_TRUE(status_->ok()) << *status_;
  }
  static std::vector<ResultRow>* rows_;
  static absl::Status* status_;
};
std::vector<ResultRow>* SmallExperimentTest::rows_ = nullptr;
absl::Status* SmallExperimentTest::status_ = nullptr;

TEST_F(SmallExperimentTest, HasOneRowPerGraphMethodAndMeasure) {
  // The exact cover is proved on every Hospital graph here (checked below),
  // so no graph skips `exact`.
  // grid: 2 noises x ((5 paper methods + gem) x {MI, P} + vertex_cover,
  //   cover_bound, exact) = 2 x 15 = 30 rows;
  // fig3: 2 checkpoints x ((optimized, gem) x {MI, P} + vertex_cover,
  //   cover_bound, exact) = 2 x 7 = 14 rows;
  // fig5: 2 checkpoints x ((5 paper methods + gem) x {MI, P} +
  //   vertex_cover) = 2 x 13 = 26 rows.
  ASSERT_EQ(rows_->size(), 70u);
  std::set<std::string> keys;
  for (const ResultRow& r : *rows_) {
    keys.insert(r.figure + r.noise + std::to_string(r.iterations) + r.method +
                r.measure);
    EXPECT_EQ(r.stats.runs, 3u);
    EXPECT_EQ(r.nodes, 1000u);
    EXPECT_GT(r.edges, 0u) << r.noise;  // noise made conflicts
    if (r.measure == "R") {
      EXPECT_EQ(r.reference, "exact") << r.noise;
    }
  }
  EXPECT_EQ(keys.size(), rows_->size());  // no duplicates

  const std::string csv = ResultsCsv(*rows_);
  const std::vector<std::string> lines =
      absl::StrSplit(csv, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), rows_->size() + 1);
  const size_t columns = std::count(lines[0].begin(), lines[0].end(), ',');
  EXPECT_EQ(columns, 32u);  // ... p90, coverage, upper_proved
  for (const std::string& l : lines) {
    EXPECT_EQ(static_cast<size_t>(std::count(l.begin(), l.end(), ',')),
              columns);
  }
}

TEST_F(SmallExperimentTest, FiguresRunTheDefaultsNextToThePapersMethods) {
  std::map<std::string, std::set<std::string>> methods;
  for (const ResultRow& r : *rows_) methods[r.figure].insert(r.method);
  for (const std::string figure : {"grid", "fig3", "fig5"}) {
    std::set<std::string> expected;
    for (Method m : FigureMethods(figure)) expected.insert(MethodName(m));
    EXPECT_EQ(methods[figure], expected) << figure;
  }
  EXPECT_THAT(methods["fig3"],
              ::testing::IsSupersetOf({"optimized", "vertex_cover", "gem",
                                       "cover_bound", "exact"}));
  EXPECT_TRUE(methods["fig5"].count("gem"));
  EXPECT_FALSE(methods["fig5"].count("cover_bound"));  // theta strategies
  EXPECT_THAT(methods["grid"], ::testing::IsSupersetOf(
                                   {"baseline1", "baseline2", "basic",
                                    "hierarchical", "optimized", "vertex_cover",
                                    "gem", "cover_bound", "exact"}));
  std::set<std::string> fig7;
  for (Method m : FigureMethods("fig7")) fig7.insert(MethodName(m));
  EXPECT_THAT(fig7, ::testing::IsSupersetOf(
                        {"optimized", "vertex_cover", "gem", "cover_bound"}));
  EXPECT_TRUE(FigureMethods("accuracy").empty());
}

TEST_F(SmallExperimentTest, ErrorsAreFiniteAndBaselineTwoIsAccurateAtEpsilon5) {
  for (const ResultRow& r : *rows_) {
    ASSERT_GT(r.stats.true_value, 0);
    EXPECT_TRUE(std::isfinite(r.stats.error_mean)) << r.method << r.measure;
    EXPECT_GE(r.stats.error_mean, 0);
    if (r.measure == "R") {
      EXPECT_THAT(r.reference, ::testing::AnyOf("exact", "lp"));
      // Every I_R method estimates at most twice the cover (the stable
      // greedy cover is a 2-approximation, the others are at most I_R) up
      // to discrete Laplace noise of scale 2 / eps <= 2 on I_R >= 10.
      EXPECT_LT(r.stats.error_mean, 1.6) << r.method << r.noise;
    } else {
      EXPECT_EQ(r.reference, "count");
    }
    if (r.epsilon != 5) continue;  // fig3 and fig5 run at epsilon 1
    if (r.method == "vertex_cover") {
      // At eps 5 the noise (scale 0.4) is negligible: against the greedy
      // cover it perturbs only the noise remains, and against the exact
      // cover the error is at most about 1.
      EXPECT_LT(r.stats.error_mean, 1.05);
      EXPECT_LT(r.stats.greedy_error_mean, 0.1);
    }
    if (r.method == "exact") {
      // I_R plus noise of scale 1/5 on covers of dozens of nodes (the
      // progress line of the Hospital graphs: I_R >= 30): an error of 10%
      // needs |noise| >= 3, probability below 1e-6 per draw.
      EXPECT_LT(r.stats.error_mean, 0.1) << r.noise;
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

TEST_F(SmallExperimentTest, EveryFigurePlotsTheDefaultsNextToThePapers) {
  const TempDir temp_dir("dpq-experiments");
  const std::string dir = temp_dir.path();
  ASSERT_TRUE(WritePlots(*rows_, {"hospital"}, dir, /*render=*/false).ok());
  EXPECT_FALSE(std::filesystem::exists(dir + "/fig6.gp"));  // no rnoise-0.005
  EXPECT_FALSE(std::filesystem::exists(dir + "/fig7.gp"));
  const std::string fig3 = ReadFileOrEmpty(dir + "/fig3.gp");
  for (const std::string legend :
       {"'optimized (paper)'", "'gem (dpq default)'", "'vertex_cover (paper)'",
        "'cover_bound (dpq default)'",
        "'exact (dpq default with exact_repair)'"}) {
    EXPECT_TRUE(absl::StrContains(fig3, legend)) << legend;
  }
  const std::string fig5 = ReadFileOrEmpty(dir + "/fig5.gp");
  for (const std::string legend :
       {"'baseline1 (paper)'", "'hierarchical (paper)'", "'optimized (paper)'",
        "'gem (dpq default)'"}) {
    EXPECT_TRUE(absl::StrContains(fig5, legend)) << legend;
  }
  // The paper's methods solid, the defaults dashed.
  EXPECT_TRUE(absl::StrContains(fig5, "dt 2 lw 2 lc rgb '#d62728' t 'gem"));

  // Figures 6 and 7 from the same rows, relabelled: the grid's RNoise-0.01
  // rows as Figure 6's RNoise 0.005, fig3's rows as Figure 7's Flights.
  std::vector<ResultRow> relabelled;
  for (ResultRow r : *rows_) {
    if (r.figure == "grid" && r.noise == "rnoise-0.01") {
      r.noise = "rnoise-0.005";
    } else if (r.figure == "fig3") {
      r.figure = "fig7";
      r.dataset = "flights";
    } else {
      continue;
    }
    relabelled.push_back(r);
  }
  ASSERT_TRUE(WritePlots(relabelled, {"hospital"}, dir, /*render=*/false).ok());
  const std::string fig6 = ReadFileOrEmpty(dir + "/fig6.gp");
  for (const std::string legend :
       {"'optimized (paper)'", "'gem (dpq default)'", "'vertex_cover (paper)'",
        "'cover_bound (dpq default)'",
        "'exact (dpq default with exact_repair)'", "exact minimum cover"}) {
    EXPECT_TRUE(absl::StrContains(fig6, legend)) << legend;
  }
  EXPECT_TRUE(absl::StrContains(fig6, "$e0_hospital_gem << EOD\n5 "));
  const std::string fig7 = ReadFileOrEmpty(dir + "/fig7.gp");
  for (const std::string legend :
       {"'I_MI optimized (paper)'", "'I_P gem (dpq default)'",
        "'I_R vertex_cover (paper)'", "'I_R cover_bound (dpq default)'"}) {
    EXPECT_TRUE(absl::StrContains(fig7, legend)) << legend;
  }
  // gnuplot strings are single-quoted: an apostrophe in a title ("the
  // paper's") would end one early and make gnuplot fail. Quotes open after
  // a blank and close before a blank or a comma, never between letters.
  for (const std::string* script : {&fig3, &fig5, &fig6, &fig7}) {
    for (size_t i = 1; i + 1 < script->size(); ++i) {
      EXPECT_FALSE((*script)[i] == '\'' &&
                   std::isalpha(static_cast<unsigned char>((*script)[i - 1])) &&
                   std::isalpha(static_cast<unsigned char>((*script)[i + 1])))
          << script->substr(i - std::min<size_t>(i, 40), 80);
    }
  }
}

// The new methods on the two Hospital graphs (RNoise 0.01 and the dirty
// file) at epsilon 5, 3 runs each: cheap, and far from the noise.
// Checked in SetUp as SmallExperimentTest is.
class NewMethodsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!HasSharedData("hospital")) return;  // SetUp says so
    ExperimentOptions o;
    o.data_dir = SharedDataDir();
    o.datasets = {"hospital"};
    o.rows = 1000;
    o.vertex_cover_seconds = 2;
    auto graphs = BuildAccuracyGraphs(o);
    status_ = new absl::Status(graphs.status());
    if (graphs.ok()) graphs_ = new std::vector<NamedGraph>(*std::move(graphs));
  }
  static void TearDownTestSuite() {
    delete graphs_;
    delete status_;
  }
  void SetUp() override {
    ASSERT_TRUE(HasSharedData("hospital"));
    ASSERT_TRUE(status_->ok()) << *status_;
  }
  static std::vector<NamedGraph>* graphs_;
  static absl::Status* status_;
};
std::vector<NamedGraph>* NewMethodsTest::graphs_ = nullptr;
absl::Status* NewMethodsTest::status_ = nullptr;

TEST_F(NewMethodsTest, BuildsTheRNoiseAndTheDirtyGraph) {
  ASSERT_EQ(graphs_->size(), 2u);
  EXPECT_EQ((*graphs_)[0].noise, kAccuracyNoise);
  EXPECT_EQ((*graphs_)[1].noise, "dirty");
  for (const NamedGraph& g : *graphs_) {
    EXPECT_EQ(g.graph_case.i_r_reference, "exact") << g.noise;
    ASSERT_TRUE(g.graph_case.exact_repair.has_value()) << g.noise;
    EXPECT_EQ(static_cast<double>(*g.graph_case.exact_repair),
              g.graph_case.i_r);
  }
}

TEST_F(NewMethodsTest, GemAndRepairMethodsHaveFiniteErrorsAndTheirEstimates) {
  using core::measures::Measure;
  testing::SeededUrbg urbg(7);
  for (const NamedGraph& g : *graphs_) {
    const GraphCase& c = g.graph_case;
    for (Measure m : {Measure::kMinimalInconsistency, Measure::kProblematic}) {
      auto gem = EvaluateMethod(urbg, c, m, Method::kGem, 5, 3);
      ASSERT_TRUE(gem.ok()) << gem.status();
      EXPECT_TRUE(std::isfinite(gem->error_median)) << g.noise;
      EXPECT_TRUE(std::isfinite(gem->error_mean)) << g.noise;
      EXPECT_EQ(gem->estimate, "lower_bound");
      EXPECT_GE(gem->theta_mode, 1u);
    }
    for (Method method :
         {Method::kCoverBound, Method::kExact, Method::kVertexCover}) {
      auto s = EvaluateMethod(urbg, c, Measure::kRepair, method, 5, 3);
      ASSERT_TRUE(s.ok()) << MethodName(method) << s.status();
      EXPECT_TRUE(std::isfinite(s->error_median)) << MethodName(method);
      EXPECT_EQ(s->true_value, c.i_r);
      EXPECT_EQ(s->theta_mode, 0u);
    }
    auto bound =
        EvaluateMethod(urbg, c, Measure::kRepair, Method::kCoverBound, 5, 3);
    ASSERT_TRUE(bound.ok());
    EXPECT_EQ(bound->estimate, "lower_bound");
    // ceil(LP) <= I_R, plus discrete Laplace noise of scale 1/5 (P(X >= k)
    // = e^{-5k} / (1 + e^{-5})): the mean of 3 draws exceeds 2 only if one
    // draw is >= 3, probability < 3 e^{-15} < 1e-6 (and the seed is fixed).
    EXPECT_LE(bound->private_mean, c.i_r + 2) << g.noise;
    auto exact =
        EvaluateMethod(urbg, c, Measure::kRepair, Method::kExact, 5, 3);
    ASSERT_TRUE(exact.ok());
    EXPECT_EQ(exact->estimate, "exact");
    // I_R plus noise of scale 1/5: a median absolute error above 1 needs 2
    // of 3 draws with |noise| >= 2 (each 9e-5): probability below 3e-8.
    EXPECT_LE(exact->error_median * c.i_r, 1.0) << g.noise;
    auto greedy =
        EvaluateMethod(urbg, c, Measure::kRepair, Method::kVertexCover, 5, 3);
    ASSERT_TRUE(greedy.ok());
    EXPECT_EQ(greedy->estimate, "upper_bound");
  }
}

TEST_F(NewMethodsTest, GemTuningReportsEverySettingGraphAndMeasure) {
  ExperimentOptions o;
  o.data_dir = SharedDataDir();
  o.datasets = {"hospital"};
  o.rows = 1000;
  o.runs = 3;
  o.vertex_cover_seconds = 2;
  std::vector<GemTuneSetting> settings(2);
  settings[1].grid = kGridPow2;
  settings[1].params.beta = 0.3;
  auto result = RunGemTuning(o, settings, 5);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->graphs.size(), 2u);
  ASSERT_EQ(result->cells.size(), 2u * 2u * 2u);
  for (const GemTuneCell& c : result->cells) {
    EXPECT_TRUE(std::isfinite(c.error_median));
    EXPECT_GT(c.true_value, 0);
  }
  EXPECT_EQ(result->profiles.size(), 2u * 2u);
  const std::vector<std::string> table =
      absl::StrSplit(GemTuneTable(*result), '\n', absl::SkipEmpty());
  ASSERT_EQ(table.size(), 1u + 2u + 2u);  // title, header, rule, 2 settings
  EXPECT_TRUE(absl::StartsWith(table[3], "| 1 |"));
  const std::vector<std::string> csv =
      absl::StrSplit(GemTuneCsv(*result), '\n', absl::SkipEmpty());
  EXPECT_EQ(csv.size(), 1u + result->cells.size());
}

TEST(AccuracyTest, MarkdownHasOneLinePerGraph) {
  ASSERT_TRUE(HasSharedData("hospital"));
  ExperimentOptions o;
  o.data_dir = SharedDataDir();
  o.datasets = {"hospital"};
  o.figures = {"accuracy"};
  o.runs = 3;
  o.rows = 1000;
  o.n_factor = 2;
  o.vertex_cover_seconds = 2;
  auto rows = RunExperiments(o);
  ASSERT_TRUE(rows.ok()) << rows.status();
  // 2 graphs x (group_bound, gem, optimized x {MI, P} + cover_bound, exact,
  // vertex_cover)
  EXPECT_EQ(rows->size(), 2u * 9u);
  for (const ResultRow& r : *rows) {
    EXPECT_EQ(r.figure, "accuracy");
    EXPECT_EQ(r.epsilon, 1);
    EXPECT_EQ(r.public_max_rows, 2000u);
    EXPECT_TRUE(std::isfinite(r.stats.error_median)) << r.method;
  }
  const std::vector<std::string> lines =
      absl::StrSplit(AccuracyMarkdown(*rows), '\n', absl::SkipEmpty());
  // title, header, rule, 2 graphs (and possibly a note on far misses)
  ASSERT_GE(lines.size(), 1u + 2u + 2u);
  EXPECT_TRUE(absl::StartsWith(lines[3], "| hospital | rnoise-0.01 | 1000 |"));
  EXPECT_TRUE(absl::StartsWith(lines[4], "| hospital | dirty | 1000 |"));
  EXPECT_FALSE(absl::StrContains(lines[3], "n/a"));
}

}  // namespace
}  // namespace dpq::bench::experiments
