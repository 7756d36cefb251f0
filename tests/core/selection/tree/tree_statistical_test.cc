// Statistical check of DP-MOET's defaults on public data (label
// statistical): the balanced default (aggregation (1, 1), local
// sensitivity) beats chance at epsilon 2 on an adult sample.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "core/cube/cuboid_release.h"
#include "core/selection/tree/dp_decision_tree.h"
#include "core/selection/tree/tree_evaluation.h"
#include "core/selection/tree/tree_request.h"
#include "core/table/csv_reader.h"
#include "core/table/table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/seeded_urbg.h"

namespace dpq::core::selection {
namespace {

using ::dpq::testing::SeededUrbg;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Adult (public, ../shared/data): Age, EduNum, Sex, Relationship,
// MaritalStatus; rows [0, 6000) train, [6000, 9000) test.
struct AdultSample {
  table::Table train, test;
  cube::CubeSchema cube;
};

std::optional<AdultSample> LoadAdultSample() {
  auto raw =
      table::ReadCsvFile(std::string(DPQ_SHARED_DATA_DIR) + "/adult/adult.csv");
  if (!raw.ok()) return std::nullopt;
  const std::vector<std::string> columns = {
      "Age", "EduNum", "Sex", "Relationship", "MaritalStatus", "MoreLess"};
  std::vector<table::ColumnSpec> specs;
  std::vector<size_t> source;
  for (const std::string& c : columns) {
    source.push_back(*raw->schema().FindColumn(c));
    specs.push_back({c, raw->schema().columns()[source.back()].type});
  }
  auto schema = table::Schema::Create(specs);
  auto cells = [&](size_t from, size_t to) {
    std::vector<std::vector<std::optional<std::string>>> out;
    for (size_t r = from; r < to; ++r) {
      std::vector<std::optional<std::string>> row;
      for (size_t c : source) row.push_back(raw->CellText(c, r));
      out.push_back(std::move(row));
    }
    return out;
  };
  AdultSample s{*table::Table::FromCells(*schema, cells(0, 6000)),
                *table::Table::FromCells(*schema, cells(6000, 9000)),
                {}};
  // The owner's declaration: round age bins, the rest nominal.
  std::vector<cube::DimensionSpec> dims;
  for (const std::string& c : columns) {
    cube::DimensionSpec d;
    d.column = c;
    if (c == "Age") {
      d.bin_edges = {17, 25, 30, 35, 40, 45, 50, 55, 60, 65, 91};
    } else {
      d.infer_domain = true;
    }
    dims.push_back(std::move(d));
  }
  auto cube = cube::BuildCubeSchema(s.train, dims);
  if (!cube.ok()) return std::nullopt;
  s.cube = *std::move(cube);
  return s;
}

// The service's defaults with approach AGGREGATION, weights (1, 1) and
// LOCAL sensitivity at epsilon 2 on 6,000 adult rows (N = 6,000): the
// held-out balanced accuracy must exceed 0.6 (chance: 0.5). Fixed seed, so
// deterministic; over seeds 0..99 of this setup the smallest balanced
// accuracy seen was 0.69 (docs/selection-experiments.md), so the chance that
// a valid change of the generator's use fails it is below 1/100 by that
// estimate. Pareto-global, the proto's default, is not expected to beat
// chance at epsilon 2 and gets the budget caveat instead.
TEST(TreeBudgetStatisticalTest, BalancedDefaultBeatsChanceAtEpsilon2) {
  std::optional<AdultSample> s = LoadAdultSample();
  ASSERT_TRUE(s.has_value()) << "adult.csv under " DPQ_SHARED_DATA_DIR;
  DecisionTreeSpec spec;
  spec.label_column = "MoreLess";
  spec.positive_class = ">50K";
  spec.approach = Approach::kAggregation;
  spec.sensitivity = SensitivityMode::kLocal;
  spec.epsilon = 2;
  spec.public_max_rows = 6000;
  auto request = BuildDecisionTreeRequest(s->train.schema(), s->cube, spec);
  ASSERT_TRUE(request.ok()) << request.status();
  auto test_rows =
      EncodedTable::Create(s->test, "MoreLess", ">50K", request->features);
  ASSERT_TRUE(test_rows.ok());
  const char* runs_env = std::getenv("DPQ_TREE_STAT_RUNS");
  const int runs = runs_env ? std::atoi(runs_env) : 1;
  double worst = 1;
  for (int seed = 0; seed < runs; ++seed) {
    SeededUrbg urbg(seed);
    auto result = TrainDpDecisionTree(s->train, *request, urbg);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_THAT(result->caveats, IsEmpty());
    const ConfusionCounts c = test_rows->Evaluate(result->tree);
    const double ba = (c.Tpr() + c.Tnr()) / 2;
    worst = std::min(worst, ba);
    EXPECT_GT(ba, 0.6) << "seed " << seed << ": " << result->tree.ToText();
  }
  RecordProperty("worst_balanced_accuracy", std::to_string(worst));

  spec.approach = Approach::kPareto;
  spec.sensitivity = SensitivityMode::kGlobal;
  auto pareto = BuildDecisionTreeRequest(s->train.schema(), s->cube, spec);
  ASSERT_TRUE(pareto.ok());
  SeededUrbg urbg(0);
  auto result = TrainDpDecisionTree(s->train, *pareto, urbg);
  ASSERT_TRUE(result.ok());
  ASSERT_FALSE(result->caveats.empty());
  EXPECT_THAT(result->caveats.front(), HasSubstr("Budget too small"));
}

}  // namespace
}  // namespace dpq::core::selection
